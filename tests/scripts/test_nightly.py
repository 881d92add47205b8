"""nightly.py with a stand-in binary: history, baseline, report, trend plots, exit codes (pytest)."""
import contextlib
import glob
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NIGHTLY = os.path.join(HERE, "..", "..", "scripts", "nightly.py")
FAKE = os.path.join(HERE, "fake_archbench.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.nightly import nightly as nightly_module  # noqa: E402


def nightly(tmp_path, env=None, *extra, site=False):
    """One night, in this process (a night's imports cost 2-3 s a process; the command line itself
    is tried once below); the dashboard rebuilt only where a test asks (site=True): it costs ~15 s."""
    fake = tmp_path / "archbench"
    if not fake.exists():
        fake.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
        fake.chmod(0o755)
    saved = dict(os.environ)
    os.environ.update(env or {})
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = nightly_module.main(["--binary", str(fake), "--history", str(tmp_path / "h"), "--repetitions", "3",
                                        *([] if site else ["--no-site"]), *extra])
    except SystemExit as e:
        code = e.code
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return code, out.getvalue()


def test_first_run_then_clean_then_a_regression_a_blip_and_a_step(tmp_path):
    # The first night of a GPU model the project knows is compared with its committed baseline.
    code, out = nightly(tmp_path)
    gpu_dir = tmp_path / "h" / "nvidia-h100-80gb-hbm3"
    assert len(glob.glob(str(gpu_dir / "2*.json"))) == 1
    first = open(glob.glob(str(gpu_dir / "2*.md"))[0]).read()
    committed = os.path.basename(fleet_model.baseline_for("NVIDIA H100 80GB HBM3"))
    assert f"tonight against last night ({committed})" in first, first

    for _ in range(2):
        code, out = nightly(tmp_path)
        assert code == 0, out

    code, out = nightly(tmp_path, {"FAKE_BW_SCALE": "0.9"}, site=True)
    assert code == 1, out
    try:  # the dashboard, rebuilt after the night, with the night's verdict on its front page
        import jinja2  # noqa: F401
        import matplotlib  # noqa: F401
        index = open(tmp_path / "h" / "site" / "index.html").read()
        assert "REGRESSION in Bandwidth" in index, out
    except ImportError:
        pass
    reports = sorted(glob.glob(str(gpu_dir / "2*.md")))
    text = open(reports[-1]).read()
    assert "REGRESSED     Bandwidth/read/ld/width:16/footprint:1  bytes_per_second" in text
    assert "| Bandwidth | 1 | 1 | 0 | 1 |" in text and "**Verdict:** REGRESSION in Bandwidth" in text
    assert "new tonight (one night so far): 1" in text
    assert glob.glob(str(gpu_dir / "2*-table.csv"))
    try:
        import matplotlib  # noqa: F401
        assert glob.glob(str(gpu_dir / "*-trend-*.png")) and "![trend]" in text
    except ImportError:
        pass

    # Back to normal: against the history the regressed night was a one-night blip.
    code, out = nightly(tmp_path)
    assert code == 0, out
    text = open(sorted(glob.glob(str(gpu_dir / "2*.md")))[-1]).read()
    assert "one-night blips (changed last night, back tonight): 1" in text

    # Two slow nights in a row: the second is a step that persists.
    nightly(tmp_path, {"FAKE_BW_SCALE": "0.9"})
    code, out = nightly(tmp_path, {"FAKE_BW_SCALE": "0.9"})
    assert code == 1, out
    text = open(sorted(glob.glob(str(gpu_dir / "2*.md")))[-1]).read()
    assert "steps (changed last night too, the same way: they persist): 1" in text


def test_the_history_keeps_the_last_runs_of_each_board(tmp_path):
    for _ in range(4):
        nightly(tmp_path, None, "--keep", "2")
    gpu_dir = tmp_path / "h" / "nvidia-h100-80gb-hbm3"
    assert len(glob.glob(str(gpu_dir / "2*.json"))) == 2
    kept = {os.path.basename(p)[:-5] for p in glob.glob(str(gpu_dir / "2*.json"))}
    for side in glob.glob(str(gpu_dir / "2*.md")) + glob.glob(str(gpu_dir / "*-table.csv")) + \
            glob.glob(str(gpu_dir / "*-trend-*.png")):
        assert os.path.basename(side).split(".md")[0].split("-table")[0].split("-trend")[0] in kept, side
    code, out = subprocess.run([sys.executable, NIGHTLY, "--history", str(tmp_path / "h"), "--compare-latest", "--no-site"],
                               capture_output=True, text=True).returncode, ""
    assert code == 0


def test_a_run_that_leaves_no_result_is_an_error(tmp_path):
    code, out = nightly(tmp_path, {"FAKE_FAIL": "1"})
    assert code == 2 and "left no usable result" in out and "Traceback" not in out


def test_a_board_is_compared_with_its_own_nights(tmp_path):
    """Two boards of one model share the history folder; board 1 reads 80 % of board 0's
    bandwidth every night (a board difference, not a regression). Board 1's night is compared
    with board 1's previous night and history, so nothing is flagged; against board 0 it would
    be a 20 % regression."""
    slow = {"FAKE_SLOW_DEVICE": "1"}
    for _ in range(4):
        assert nightly(tmp_path, slow, "--", "--device=0")[0] == 0
    for _ in range(3):
        nightly(tmp_path, slow, "--", "--device=1")
    code, out = nightly(tmp_path, slow, "--", "--device=1")
    gpu_dir = tmp_path / "h" / "nvidia-h100-80gb-hbm3"
    text = open(sorted(glob.glob(str(gpu_dir / "2*.md")))[-1]).read()
    assert code == 0, text
    assert "uuid GPU-1" in text.split("contender:")[0]  # the baseline is board 1's previous night
    assert "no run of the contender's board" not in text


def test_a_gpu_model_the_project_never_saw_is_judged_by_the_sites_own_model(tmp_path):
    """No committed model or baseline of this GPU model: the first night has nothing to compare with;
    later nights compare board by board; once the site builds its model from its history
    (fleet_model.py HISTORY --out-dir HISTORY/expected), nightly reads it and says so."""
    new = {"FAKE_GPU_NAME": "NVIDIA Made-Up GPU"}
    code, out = nightly(tmp_path, new)
    assert code == 0 and "nothing to compare with yet" in out, out
    for board in range(3):
        for _ in range(2):
            nightly(tmp_path, new, "--", f"--device={board}")
    gpu_dir = tmp_path / "h" / "nvidia-made-up-gpu"
    text = open(sorted(glob.glob(str(gpu_dir / "2*.md")))[-1]).read()
    assert "the site's own" not in text
    r = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "scripts", "fleet_model.py"), str(tmp_path / "h"),
                        "--out-dir", str(tmp_path / "h" / "expected")], capture_output=True, text=True)
    assert r.returncode == 0 and os.path.exists(tmp_path / "h" / "expected" / "nvidia-made-up-gpu.json.xz"), r.stderr
    code, out = nightly(tmp_path, new, "--", "--device=0")
    text = open(sorted(glob.glob(str(gpu_dir / "2*.md")))[-1]).read()
    assert code == 0 and "(the site's own, built from this history)" in text, text


def test_the_sites_plots_are_drawn_again_only_when_what_they_draw_from_changed(tmp_path, monkeypatch):
    """Nightly rebuilds the dashboard every night: a plot whose run, arguments and plot code are those
    of its last drawing, its files still there, is not drawn again (dashboard.draw_plots)."""
    import json
    import shutil
    from archbench_tools.plots import plotlib
    from archbench_tools.report import dashboard
    asked = []

    def fake_start(jobs, workers=None):  # draws a file per job, and says which jobs it was given
        jobs = list(jobs)
        asked.append([name for name, _ in jobs])
        done = []
        for name, argv in jobs:
            out = argv[argv.index("--out") + 1]
            os.makedirs(out, exist_ok=True)
            path = os.path.join(out, f"{name}_x.svg")
            open(path, "w").write("<svg/>")
            done.append(([path], None))
        return lambda: done
    monkeypatch.setattr(plotlib, "start_scripts", fake_start)
    results = tmp_path / "results" / "nvidia-h100-80gb-hbm3"
    results.mkdir(parents=True)
    run = json.load(open(os.path.join(HERE, "..", "data", "h100_memlatency.json")))
    (results / "2026-11-20-memlatency.json").write_text(json.dumps(run))
    site, refs = tmp_path / "site", tmp_path / "refs"
    refs.mkdir()
    dashboard.build(str(tmp_path / "results"), str(site), str(refs))
    dashboard.build(str(tmp_path / "results"), str(site), str(refs))
    assert len(asked[0]) > 1 and asked[1] == [], asked  # the second night: nothing to draw
    os.remove(site / "plots" / "generations_x.svg")  # a drawing lost is drawn again, alone
    dashboard.build(str(tmp_path / "results"), str(site), str(refs))
    assert asked[2] == ["generations"], asked
    shutil.copy(results / "2026-11-20-memlatency.json", results / "2026-11-21-memlatency.json")  # a new night
    dashboard.build(str(tmp_path / "results"), str(site), str(refs))
    assert sorted(asked[3]) == sorted(asked[0]), asked

"""The acceptance verdict where operators look (issue 87): archbench's ReFrame test run by ReFrame
itself (its local scheduler) on a committed run, passing, with every check a performance variable
against the fleet's reference and bounds; and failing on the same run with a DRAM read 10 % low.
Skipped without ReFrame (pip install reframe-hpc)."""
import gzip
import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.fleet import fleet_model  # noqa: E402

TEST = os.path.join(ROOT, "scripts", "reframe", "archbench_accept.py")


def reframe(tmp_path, run_file):
    exe = shutil.which("reframe")
    if not exe:
        pytest.skip("ReFrame is not installed (pip install reframe-hpc)")
    r = subprocess.run([exe, "-c", TEST, "-r", "--prefix", str(tmp_path / "rfm"), "-S", f"run_file={run_file}",
                        "--performance-report"], capture_output=True, text=True, cwd=str(tmp_path))
    return r.returncode, r.stdout + r.stderr


def test_reframe_passes_a_healthy_run_and_fails_a_planted_slow_dram_read(tmp_path):
    run = fleet_model.baseline_for("NVIDIA H200")
    code, out = reframe(tmp_path, run)
    assert code == 0 and "PASSED" in out and "Ran 1/1 test case(s)" in out, out[-3000:]
    assert "DRAM read headline" in out and "bytes_per_second" in out and "fail" not in out.split("PERFORMANCE REPORT")[-1]
    with gzip.open(run, "rt") as f:
        doc = json.load(f)
    for b in doc["benchmarks"]:
        if b.get("name", "").startswith("Bandwidth/headline/DRAM/read"):
            b["bytes_per_second"] *= 0.9
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(doc))
    code, out = reframe(tmp_path, str(slow))
    assert code != 0 and "FAILED" in out and "pattern '^Verdict: healthy' not found" in out, out[-3000:]


def test_the_fleet_models_bounds_exported_for_operators_match_accepts(tmp_path):
    """accept.py --export: the bounds per board part are accept.py's own for a board of that part."""
    from archbench_tools.nightly import accept, operators
    model = os.path.join(ROOT, "results", "reference", "expected", "nvidia-h200.json.xz")
    out = tmp_path / "t.json"
    assert accept.main(["--export", "thresholds", "--expected", model, "--export-to", str(out)]) == 0
    t = json.loads(out.read_text())
    assert t["gpu_name"] == "NVIDIA H200" and operators.UNSEEN_PART in t["parts"]
    run, doc = accept.load_run(fleet_model.baseline_for("NVIDIA H200"))
    part = run.context["gpu_board_part_number"]
    exported = {c["check"]: c for c in t["parts"][part]}
    for c in accept.judge(run, doc, fleet_model.load_model(model)):
        if c.bound is not None and c.group != "health":
            assert exported[c.what]["bound"] == pytest.approx(c.bound), c.what
    dram = exported["DRAM read headline"]
    assert dram["direction"] == "at least" and dram["bound"] < dram["expected"]
    assert exported["L1 line"]["direction"] == "equal"
    assert "pcie_replays_per_minute" in t["health"]
    assert accept.main(["--export", "reframe", "--expected", model, "--export-to", str(out)]) == 0
    ref = json.loads(out.read_text())["reference"][part]["DRAM read headline"]
    assert ref[0] == dram["expected"] and ref[1] == pytest.approx(dram["bound"] / dram["expected"] - 1) and ref[2] is None
    assert accept.main(["--export", "prometheus", "--expected", model, "--export-to", str(out)]) == 0
    rules = out.read_text()
    assert "expr: archbench_accept_healthy == 0" in rules and 'check="DRAM read headline"' in rules
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(rules)["groups"][0]["rules"][0]["alert"] == "ArchbenchBoardNotHealthy"


def test_export_bad_input_is_one_line(capsys):
    from archbench_tools.nightly import accept
    assert accept.main(["--export", "thresholds"]) == 2
    assert capsys.readouterr().err.strip().startswith("accept.py: error: --export needs")
    assert accept.main(["--export-to", "/tmp/t.json", "x.json"]) == 2
    assert "--export-to goes with --export" in capsys.readouterr().err
    # the command moved from fleet_model.py, which says where to
    assert fleet_model.main(["--export", "thresholds"]) == 2
    assert "accept.py --export FORMAT" in capsys.readouterr().err
    # --out was once taken for --out-dir: it is an error, never the committed folder
    assert fleet_model.main(["--out", "/tmp/m", os.path.join(ROOT, "results")]) == 2
    assert "unknown option --out" in capsys.readouterr().err

"""nightly.py with a stand-in binary: history, baseline, report, trend plots, exit codes (pytest)."""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NIGHTLY = os.path.join(HERE, "..", "scripts", "nightly.py")
FAKE = os.path.join(HERE, "fake_archbench.py")


def nightly(tmp_path, env=None, *extra):
    fake = tmp_path / "archbench"
    if not fake.exists():
        fake.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
        fake.chmod(0o755)
    e = dict(os.environ, **(env or {}))
    r = subprocess.run([sys.executable, NIGHTLY, "--binary", str(fake), "--history", str(tmp_path / "h"),
                        "--repetitions", "5", *extra], capture_output=True, text=True, env=e)
    return r.returncode, r.stdout + r.stderr


def test_first_run_then_a_clean_run_then_a_regression(tmp_path):
    code, out = nightly(tmp_path)
    assert code == 0, out
    gpu_dir = tmp_path / "h" / "nvidia-h100-80gb-hbm3"
    assert len(glob.glob(str(gpu_dir / "2*.json"))) == 1
    assert "No baseline yet" in open(glob.glob(str(gpu_dir / "2*.md"))[0]).read()

    code, out = nightly(tmp_path)
    assert code == 0, out

    code, out = nightly(tmp_path, {"FAKE_BW_SCALE": "0.9"})
    assert code == 1, out
    reports = sorted(glob.glob(str(gpu_dir / "2*.md")))
    text = open(reports[-1]).read()
    assert "REGRESSION: Bandwidth/read/ld/width:16/footprint:1" in text
    assert len(glob.glob(str(gpu_dir / "2*.json"))) == 3
    try:
        import matplotlib  # noqa: F401
        assert glob.glob(str(gpu_dir / "*-trend-*.png")) and "![trend]" in text
    except ImportError:
        pass


def test_a_run_that_leaves_no_result_is_an_error(tmp_path):
    code, out = nightly(tmp_path, {"FAKE_FAIL": "1"})
    assert code == 2 and "left no usable result" in out and "Traceback" not in out

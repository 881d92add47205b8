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

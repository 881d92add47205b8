"""scripts/energy_table.py on fixture JSON: the table, the orderings, a planted broken one, bad input."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "energy_table.py")
FIXTURE = os.path.join(HERE, "..", "data", "h200_energy.json")


sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from archbench_tools.report import report  # noqa: E402


def test_a_default_run_without_energy_is_whole():
    """Energy runs only when asked: a default run of a binary that has it (its method is in the
    context) but did not run it is still a whole run for report.py and the dashboard."""
    doc = {"context": {"archbench_method_MemLatency": "x", "archbench_method_Energy": "y", "archbench_method_P2P": "z"},
           "benchmarks": [{"name": "MemLatency/chain/ld.ca/footprint:1024/stride:128"}]}
    assert report.is_complete(doc, 0)
    doc["benchmarks"] = [{"name": "Energy/op/ffma/ilp:8/warps_per_sm:32"}]
    assert not report.is_complete(doc, 0)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_the_fixture_holds_every_ordering():
    r = run("--check-orderings", FIXTURE)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| Energy/bytes/DRAM/read |" in r.stdout
    assert "all hold" in r.stdout


def test_a_planted_broken_ordering_is_named(tmp_path):
    doc = json.load(open(FIXTURE))
    for b in doc["benchmarks"]:
        if b["name"].startswith("Energy/bytes/L2/read"):
            b["pj_per_byte"] = 1e3  # L2 above DRAM
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(doc))
    r = run("--check-orderings", str(planted))
    assert r.returncode == 1
    assert "ORDERING BROKEN: DRAM read" in r.stdout


def test_a_run_without_energy_and_a_broken_file_are_bad_input(tmp_path):
    r = run(os.path.join(HERE, "..", "data", "h100_bandwidth.json"))
    assert r.returncode == 2 and "holds no measured Energy benchmark" in r.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    r = run(str(broken))
    assert r.returncode == 2 and "Traceback" not in r.stderr

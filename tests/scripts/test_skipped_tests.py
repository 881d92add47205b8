"""scripts/skipped_tests.py: the reason of every skipped test of a ctest log, on screen."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "skipped_tests.py")

LOG = """Start testing: Nov 29 12:23 UTC
----------------------------------------------------------
69/105 Testing: gpu_pipeline
69/105 Test: gpu_pipeline
Command: "archbench_gpu_tests" "--gtest_filter=Pipeline*"
Output:
----------------------------------------------------------
no GPU visible: skipped
<end of output>
Test time =   0.23 sec
----------------------------------------------------------
Test Passed.

70/105 Testing: unit
70/105 Test: unit
Output:
----------------------------------------------------------
[  PASSED  ] 12 tests.
<end of output>
Test Passed.

71/105 Testing: gpu_suite_counters
71/105 Test: gpu_suite_counters
Output:
----------------------------------------------------------
archbench: a quick run
counters unavailable: profiling not permitted: skipped
<end of output>
Test Passed.
"""


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_each_skipped_test_with_its_reason(tmp_path):
    log = tmp_path / "Testing" / "Temporary"
    log.mkdir(parents=True)
    (log / "LastTest.log").write_text(LOG)
    r = run(str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "skipped gpu_pipeline: no GPU visible: skipped",
        "skipped gpu_suite_counters: counters unavailable: profiling not permitted: skipped",
        "2 test(s) skipped, each for the reason it gave"]


def test_no_log_is_one_line_and_exit_2(tmp_path):
    r = run(str(tmp_path / "none"))
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "run ctest there first" in r.stderr

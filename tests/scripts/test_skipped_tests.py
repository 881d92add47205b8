"""scripts/skipped_tests.py: the reason of every test ctest skipped, on screen, from its JUnit file."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "skipped_tests.py")

# As ctest --output-junit writes it (CMake 3.25): a test that passed while saying "skipped" in its
# output is not a skipped test; one that exited with its SKIP_RETURN_CODE is, with its last words.
JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="4" failures="0" disabled="0" skipped="3" hostname="" time="0">
  <testcase name="described_blackwell" classname="described_blackwell" time="0.59" status="run">
    <system-out>ok: nvidia-b200.json: 10424 listed, the 422 Hopper-only ones skipped with the reason
0 failed
</system-out>
  </testcase>
  <testcase name="gpu_pipeline" classname="gpu_pipeline" time="0.07" status="notrun">
    <skipped message="SKIP_RETURN_CODE=77"/>
    <system-out>no GPU visible: skipped
</system-out>
  </testcase>
  <testcase name="gpu_suite_counters" classname="gpu_suite_counters" time="3.1" status="notrun">
    <skipped message="SKIP_RETURN_CODE=77"/>
    <system-out>archbench: a quick run
counters unavailable: profiling not permitted: skipped
</system-out>
  </testcase>
  <testcase name="gpu_p2p" classname="gpu_p2p" time="0.2" status="notrun">
    <skipped message="SKIP_RETURN_CODE=77"/>
  </testcase>
</testsuite>
"""


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_each_skipped_test_with_its_reason(tmp_path):
    junit = tmp_path / "ctest-junit.xml"
    junit.write_text(JUNIT)
    r = run(str(junit))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "skipped gpu_pipeline: no GPU visible: skipped",
        "skipped gpu_suite_counters: counters unavailable: profiling not permitted: skipped",
        "skipped gpu_p2p: SKIP_RETURN_CODE=77",
        "3 test(s) skipped, each for the reason it gave"]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "other.xml").write_text("<html/>")
    (tmp_path / "broken.xml").write_text("<testsuite")
    for path, says in [(tmp_path / "none.xml", "ctest --output-junit"), (tmp_path / "other.xml", "not ctest's JUnit"),
                       (tmp_path / "broken.xml", "not XML")]:
        r = run(str(path))
        assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert says in r.stderr

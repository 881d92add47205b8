"""The counts the docs quote are the tools' own (issue 88: counts typed by hand drifted): the README's
benchmark count of its --gpu_profile example, as the built binary lists it; docs/regression.md's
"Now" line, as the committed fleet models hold it; docs/testing.md's number of tests, as ctest lists
them. ARCHBENCH_BIN and ARCHBENCH_BUILD_DIR name the built binary and its build folder (ctest sets
both); without them those counts are skipped."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.fleet import fleet_model  # noqa: E402


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def number(text):
    return int(text.replace(",", ""))


def test_the_readmes_profile_example_lists_the_count_it_quotes():
    binary = os.environ.get("ARCHBENCH_BIN")
    if not binary:
        pytest.skip("ARCHBENCH_BIN is not set (ctest sets it to the built archbench)")
    m = re.search(r"`archbench --gpu_profile=(\S+) --benchmark_list_tests`.*?\(its context: ([\d,]+)\s+benchmarks",
                  read("README.md"), re.S)
    assert m, "the README's --gpu_profile example and its count"
    r = subprocess.run([binary, f"--gpu_profile={os.path.join(ROOT, m.group(1))}", "--benchmark_list_tests"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    listed = len([n for n in r.stdout.split() if "/" in n])
    assert listed == number(m.group(2)), f"README says {m.group(2)}, the binary lists {listed}"


def test_the_models_counts_in_docs_regression_are_the_committed_models():
    m = re.search(r"\*\*Now\*\*.*?the H200 model holds ([\d,]+)\s+runs of ([\d,]+) boards \(([\d,]+) rows, ([\d,]+) naming an "
                  r"odd board\), the H100 model ([\d,]+) runs of ([\d,]+) boards \(([\d,]+)\s+rows", read("docs", "regression.md"), re.S)
    assert m, "docs/regression.md's **Now** line"
    quoted = [number(g) for g in m.groups()]
    h200, h100 = fleet_model.model_for("NVIDIA H200"), fleet_model.model_for("NVIDIA H100 80GB HBM3")
    held = [h200.doc["runs"], h200.doc["boards"], len(h200.rows), sum(1 for d in h200.rows.values() if d.get("odd")),
            h100.doc["runs"], h100.doc["boards"], len(h100.rows)]
    assert quoted == held, f"docs/regression.md quotes {quoted}, the committed models hold {held}"


def test_docs_testing_quotes_the_number_of_tests_ctest_lists():
    build = os.environ.get("ARCHBENCH_BUILD_DIR")
    if not build:
        pytest.skip("ARCHBENCH_BUILD_DIR is not set (ctest sets it to its build folder)")
    r = subprocess.run(["ctest", "-N", "--test-dir", build], capture_output=True, text=True)
    total = int(re.search(r"Total Tests: (\d+)", r.stdout).group(1))
    m = re.search(r"ctest lists (\d+) tests", read("docs", "testing.md"))
    assert m and int(m.group(1)) == total, f"docs/testing.md: {m and m.group(0)!r}; ctest lists {total} tests"

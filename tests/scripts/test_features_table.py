"""benchmarks/features.json, the one feature table, against what it describes: the binary's
registered features (listed for a described GPU, no GPU needed), methods.json, the plot scripts and
the docs. ARCHBENCH_BIN names the built binary."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.tables import features  # noqa: E402

PROFILE = os.path.join(HERE, "..", "data", "h100_declared.json")


def listed_features(pattern):
    binary = os.environ.get("ARCHBENCH_BIN")
    if not binary:
        pytest.skip("ARCHBENCH_BIN is not set (ctest sets it to the built archbench)")
    r = subprocess.run([binary, f"--gpu_profile={PROFILE}", "--benchmark_list_tests", f"--benchmark_filter={pattern}"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return {line.split("/", 1)[0] for line in r.stdout.split() if "/" in line}


def test_every_row_is_whole_and_names_one_feature():
    rows = features.rows()
    assert len({r["name"] for r in rows}) == len(rows)
    assert len({r["label"] for r in rows}) == len(rows)
    for r in rows:
        assert r["run"] in ("default", "apart", "on_request", "fault_injection"), r
        assert os.path.exists(os.path.join(ROOT, r["doc"])), r["doc"]
        if r["plot"]:
            # the package's plot module, which archbench-plot / scripts/plot.py find from the row (a
            # scripts/plot_<name>.py wrapper is kept only for the first plots' users: docs/house.md)
            assert os.path.exists(os.path.join(ROOT, "scripts", "archbench_tools", "plots", f"plot_{r['plot']}.py")), r["plot"]
            assert r["plot_files"], r


def test_each_rows_source_registers_that_feature_and_no_other_file_registers_one():
    """The build compiles each row's source (cmake/FeatureTable.cmake) and the registry pairs each
    row with its ARCHBENCH_FEATURE by name: a file outside the table would register nothing."""
    import glob
    import re
    registered = {}
    for path in glob.glob(os.path.join(ROOT, "benchmarks", "*.cpp")):
        for name in re.findall(r"^ARCHBENCH_FEATURE\((\w+),", open(path).read(), re.M):
            registered[name] = os.path.relpath(path, ROOT)
    assert registered == {r["name"]: r["source"] for r in features.rows()}


def test_every_row_declares_its_method_and_methods_json_only_what_they_share():
    # A feature's kernels and host version sit in its row (its one declaration); methods.json
    # holds the harness and the declared equivalences, for features of the table only.
    methods = json.load(open(os.path.join(ROOT, "benchmarks", "methods.json")))
    assert "features" not in methods
    for r in features.rows():
        assert isinstance(r["method"]["version"], int) and r["method"]["kernels"], r["name"]
        for k in r["method"]["kernels"]:
            assert os.path.isfile(os.path.join(ROOT, k)), (r["name"], k)
    assert set(methods["equivalent"]) - {"about"} <= set(features.names())


def test_the_binary_registers_the_tables_features_by_their_run():
    by_run = {}
    for r in features.rows():
        by_run.setdefault(r["run"], set()).add(r["name"])
    assert listed_features(".") == by_run["default"] | by_run["apart"]
    for name in by_run["on_request"]:
        assert listed_features(f"^{name}/") == {name}


def test_the_readme_lists_every_feature_with_its_page():
    """The README's feature table (its docs index) is the table's: a row per feature a user runs,
    its summary and its doc page, written by scripts/features.py --write-readme; a hand edit of
    the README's rows fails here, and a README without the table is an error (exit 2)."""
    import re
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert features.with_readme_table(readme) == readme, "run scripts/features.py --write-readme README.md"
    rows = dict(re.findall(r"^\| `(\w+)` \|.*\[(docs/[\w.]+)\]", readme, flags=re.M))
    wanted = {r["name"]: r["doc"] for r in features.rows() if r["run"] != "fault_injection"}
    assert rows == wanted
    script = os.path.join(ROOT, "scripts", "features.py")
    edited = readme.replace("| `Tlb` | ", "| `Tlb` | hand-edited ", 1)
    assert features.with_readme_table(edited) == readme
    r = subprocess.run([sys.executable, script, "--check-readme", os.path.join(ROOT, "docs", "tlb.md")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "no feature table" in r.stderr


def test_every_plot_has_its_caption_in_its_row():
    # A feature's captions travel with its row (report.py and the dashboard read them there).
    for r in features.rows():
        if r["plot"]:
            missing = set(r["plot_files"]) - set(r.get("captions", {}))
            assert not missing, f"{r['name']}: no caption for {sorted(missing)}"
            assert all(isinstance(c, str) and c.strip() for c in r["captions"].values()), r["name"]
        else:
            assert not r.get("captions"), r["name"]

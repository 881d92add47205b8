"""scripts/import_references.py: the committed MT4G, gpu-benches, AI_kernels and ChipBenchmarker
references are exactly what the importers make from the sources' own files (tests/data/sources/), every value traced to its
repository, commit, file and rows, and bad input is one line and exit 2."""
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "import_references.py")
SOURCES = os.path.join(ROOT, "tests", "data", "sources")
REFERENCE = os.path.join(ROOT, "results", "reference")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("refs")
    r = run("gpu-benches", os.path.join(SOURCES, "gpu-benches"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    r = run("mt4g", *sorted(glob.glob(os.path.join(SOURCES, "mt4g", "*.json"))), "--out", str(out))
    assert r.returncode == 0, r.stderr
    r = run("ai-kernels", os.path.join(SOURCES, "ai-kernels"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    r = run("chipbenchmarker", os.path.join(SOURCES, "chipbenchmarker", "README.md"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    return {os.path.basename(p): json.load(open(p)) for p in glob.glob(str(out / "*.json"))}


# Each importer's repository, and the folder of tests/data/sources/ its files are in.
SOURCE_DIRS = {"github.com/caps-tum/mt4g": "mt4g", "github.com/RRZE-HPC/gpu-benches": "gpu-benches",
               "github.com/markdewing/AI_kernels": "ai-kernels", "github.com/chanzhennan/ChipBenchmarker": "chipbenchmarker"}
IMPORTED = ("mt4g-", "rrze-gpu-benches-", "ai-kernels-", "chipbenchmarker-")


def test_the_committed_references_are_the_importers_output(made):
    committed = {os.path.basename(p) for p in glob.glob(os.path.join(REFERENCE, "*.json"))
                 if os.path.basename(p).startswith(IMPORTED)}
    assert committed == set(made)
    assert len(made) == 37  # 13 GPUs of gpu-benches, 10 of MT4G, 10 of AI_kernels, 4 of ChipBenchmarker
    for name, doc in made.items():
        assert json.load(open(os.path.join(REFERENCE, name))) == doc, name


def test_every_value_names_its_repository_commit_file_and_rows(made):
    for name, doc in made.items():
        assert doc["context"]["reference"] is True and doc["context"]["gpu_release"]
        for b in doc["benchmarks"]:
            src = b["source"]
            assert src["repository"] in SOURCE_DIRS, name
            assert len(src["commit"]) == 40
            folder = os.path.join(SOURCES, SOURCE_DIRS[src["repository"]])
            local = (os.path.join(folder, os.path.basename(src["file"])) if "mt4g" in src["repository"]
                     else os.path.join(folder, src["file"]))
            assert os.path.isfile(local), f"{name}: {src['file']}"
            assert src.get("keys") or src.get("rows"), name
            assert b["value"] > 0 and b["provenance"].startswith(src["file"]), (name, b["provenance"])


def test_a_latency_is_the_median_of_its_level_window(made):
    # gpu-latency/l40.txt: the L2 plateau reads 273.6-273.7 cycles from 190 kB to 26 MB
    ref = {b["name"]: b for b in made["rrze-gpu-benches-l40.json"]["benchmarks"]}
    assert ref["Reference/l2_hit_latency_cycles"]["value"] == pytest.approx(273.6, abs=0.1)
    assert ref["Reference/l1_hit_latency_cycles"]["value"] == pytest.approx(34.1, abs=0.1)
    mt4g = {b["name"]: b["value"] for b in made["mt4g-h100-sxm.json"]["benchmarks"]}
    assert mt4g["Reference/l2_hit_latency_cycles"] == 222.0 and mt4g["Reference/l2_bytes"] == 52428800
    # AI_kernels' RTX 4090 curve: 39.94 cycles to 77 KiB, 295.8-296.0 from 202 KiB to 17 MiB, 634-636 beyond 116 MiB
    aik = {b["name"]: b["value"] for b in made["ai-kernels-rtx-4090.json"]["benchmarks"]}
    assert aik["Reference/l1_hit_latency_cycles"] == pytest.approx(39.94, abs=0.01)
    assert aik["Reference/l2_hit_latency_cycles"] == pytest.approx(295.9, abs=0.1)
    assert aik["Reference/dram_latency_cycles"] == pytest.approx(635.5, abs=0.3)


def test_a_table_value_is_its_cell_in_the_units_its_column_names(made):
    h800 = {b["name"]: b for b in made["chipbenchmarker-h800-pcie.json"]["benchmarks"]}
    assert h800["Reference/dram_read_bytes_per_second"]["value"] == pytest.approx(2978.42e9)
    assert h800["Reference/l2_hit_latency_cycles"]["value"] == 273
    assert h800["Reference/smem_read_bytes_per_clk_per_sm"]["value"] == 128.94
    assert "line" in h800["Reference/dram_latency_cycles"]["source"]["rows"]
    # MI210's L1 latency cell is the source's "not yet" sign: no value, not a zero
    mi210 = {b["name"] for b in made["chipbenchmarker-mi210.json"]["benchmarks"]}
    assert "Reference/l1_hit_latency_cycles" not in mi210 and "Reference/dram_latency_cycles" in mi210
    assert not any(n.startswith("chipbenchmarker-") and "mxc" in n for n in made)  # no public facts to place it


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    not_mt4g = tmp_path / "x.json"
    not_mt4g.write_text('{"benchmarks": []}')
    unknown = tmp_path / "y.json"
    unknown.write_text('{"general": {"name": "Some GPU"}, "memory": {}}')
    no_table = tmp_path / "README.md"
    no_table.write_text("# A README without a Performance table\n")
    for args in (["gpu-benches", str(tmp_path / "missing")], ["gpu-benches", str(tmp_path)],
                 ["ai-kernels", str(tmp_path)], ["chipbenchmarker", str(no_table)],
                 ["chipbenchmarker", str(tmp_path / "none.md")],
                 ["mt4g", str(not_mt4g)], ["mt4g", str(unknown)], ["mt4g", str(tmp_path / "none.json")],
                 ["mt4g", str(not_mt4g), "--out", str(tmp_path / "nowhere")]):
        r = run(*args)
        assert r.returncode == 2, args
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("import_references.py: "), r.stderr


def test_a_gpu_the_facts_do_not_know_still_shows_among_the_generations():
    # A user's new GPU: placed at its run's date until its facts are added (docs/references.md).
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from archbench_tools.plots import plot_generations
    facts = json.load(open(plot_generations.FACTS))["gpus"]
    when, name = plot_generations.release_of({"gpu_name": "NVIDIA Future GPU", "date": "2027-03-02T10:00:00"}, facts)
    assert (when.year, when.month) == (2027, 3) and "release unknown" in name
    when, name = plot_generations.release_of({"gpu_name": "NVIDIA H200"}, facts)
    assert (when.year, when.month, name) == (2024, 3, "H200")
    assert plot_generations.release_of({"gpu_name": "x", "reference": True}, facts) is None

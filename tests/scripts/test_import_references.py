"""scripts/import_references.py: the committed MT4G and gpu-benches references are exactly what the
importers make from the sources' own files (tests/data/sources/), every value traced to its
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
    return {os.path.basename(p): json.load(open(p)) for p in glob.glob(str(out / "*.json"))}


def test_the_committed_references_are_the_importers_output(made):
    committed = {os.path.basename(p) for p in glob.glob(os.path.join(REFERENCE, "mt4g-*.json"))} | \
                {os.path.basename(p) for p in glob.glob(os.path.join(REFERENCE, "rrze-gpu-benches-*.json"))}
    assert committed == set(made)
    assert len(made) == 23  # 13 GPUs of gpu-benches, 10 of MT4G
    for name, doc in made.items():
        assert json.load(open(os.path.join(REFERENCE, name))) == doc, name


def test_every_value_names_its_repository_commit_file_and_rows(made):
    for name, doc in made.items():
        assert doc["context"]["reference"] is True and doc["context"]["gpu_release"]
        for b in doc["benchmarks"]:
            src = b["source"]
            assert src["repository"] in ("github.com/caps-tum/mt4g", "github.com/RRZE-HPC/gpu-benches"), name
            assert len(src["commit"]) == 40
            local = (os.path.join(SOURCES, "mt4g", os.path.basename(src["file"])) if "mt4g" in src["repository"]
                     else os.path.join(SOURCES, "gpu-benches", src["file"]))
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


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    not_mt4g = tmp_path / "x.json"
    not_mt4g.write_text('{"benchmarks": []}')
    unknown = tmp_path / "y.json"
    unknown.write_text('{"general": {"name": "Some GPU"}, "memory": {}}')
    for args in (["gpu-benches", str(tmp_path / "missing")], ["gpu-benches", str(tmp_path)],
                 ["mt4g", str(not_mt4g)], ["mt4g", str(unknown)], ["mt4g", str(tmp_path / "none.json")],
                 ["mt4g", str(not_mt4g), "--out", str(tmp_path / "nowhere")]):
        r = run(*args)
        assert r.returncode == 2, args
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("import_references.py: "), r.stderr


def test_a_gpu_the_facts_do_not_know_still_shows_among_the_generations():
    # A user's new GPU: placed at its run's date until its facts are added (docs/references.md).
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import plot_generations
    facts = json.load(open(plot_generations.FACTS))["gpus"]
    when, name = plot_generations.release_of({"gpu_name": "NVIDIA Future GPU", "date": "2027-03-02T10:00:00"}, facts)
    assert (when.year, when.month) == (2027, 3) and "release unknown" in name
    when, name = plot_generations.release_of({"gpu_name": "NVIDIA H200"}, facts)
    assert (when.year, when.month, name) == (2024, 3, "H200")
    assert plot_generations.release_of({"gpu_name": "x", "reference": True}, facts) is None

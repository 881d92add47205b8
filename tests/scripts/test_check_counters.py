"""check_counters.py on fixture JSON (a subset of the committed H100 --counters run): the level
table, every disagreement classed, DRAM bytes within 2 %, the refined bank model, the partition
crossings; and a run that breaks each check, or has no counters, failing with a clear line (pytest)."""
import copy
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check_counters.py")
FIXTURE = os.path.join(HERE, "..", "data", "h100_counters.json")


def run(*files):
    return subprocess.run([sys.executable, SCRIPT, *files], capture_output=True, text=True)


def variant(tmp_path, change):
    doc = json.load(open(FIXTURE))
    change(doc)
    p = tmp_path / "changed.json"
    p.write_text(json.dumps(doc))
    return str(p)


def bench(doc, prefix):
    return next(b for b in doc["benchmarks"] if b["name"].startswith(prefix))


def test_the_h100_run_holds_and_every_disagreement_is_classed():
    r = run(FIXTURE)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "8 points, 4 agree" in r.stdout
    for cls in ["stores-in-l2", "write-back", "beyond-l2", "l1-beyond-edge"]:
        assert cls in r.stdout
    assert "UNEXPLAINED" not in r.stdout
    assert "at the 2 footprints labelled DRAM: 1.0001 to 1.0010; 0 outside 2 %" in r.stdout
    assert "Reads measured at L2 (1 points): DRAM served at most 0.00 % of the bytes; L1 at most 0.00 %" in r.stdout
    assert "0 beyond 2 % (against the plain bank model: 1 beyond 2 %, 0 of them 4-byte accesses)" in r.stdout
    assert "near_l2 0.2-0.2 %" in r.stdout and "far_l2 100.1-100.1 %" in r.stdout
    assert "every check holds" in r.stdout


def test_split_files_of_one_run_are_read_together(tmp_path):
    doc = json.load(open(FIXTURE))
    a, b = copy.deepcopy(doc), copy.deepcopy(doc)
    a["benchmarks"], b["benchmarks"] = doc["benchmarks"][:5], doc["benchmarks"][5:]
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    pa.write_text(json.dumps(a))
    pb.write_text(json.dumps(b))
    r = run(str(pa), str(pb))
    assert r.returncode == 0 and "8 points, 4 agree" in r.stdout


def test_an_unexplained_level_fails(tmp_path):
    # An L2 footprint read with ld.cg that the counters say DRAM served: no known reason.
    def change(doc):
        b = bench(doc, "Bandwidth/read/ld.cg/width:16/footprint:1081344/")
        b["level"] = 3.0
    r = run(variant(tmp_path, change))
    assert r.returncode == 1
    assert "UNEXPLAINED" in r.stdout and "FAILED: 1 Bandwidth point(s)" in r.stdout


def test_l1_hits_of_a_load_that_does_not_allocate_in_l1_are_unexplained(tmp_path):
    # ld.cg at an L2 footprint measured as L1: no class explains it (only loads via L1 keep lines).
    def change(doc):
        bench(doc, "Bandwidth/read/ld.cg/width:16/footprint:1081344/")["level"] = 1.0
    r = run(variant(tmp_path, change))
    assert r.returncode == 1 and "UNEXPLAINED" in r.stdout


def test_dram_bytes_off_by_more_than_2_percent_fail(tmp_path):
    def change(doc):
        bench(doc, "Bandwidth/read/ld.cg/width:16/footprint:419430400/")["hw_dram_read_bytes"] *= 1.05
    r = run(variant(tmp_path, change))
    assert r.returncode == 1 and "1 outside 2 %" in r.stdout


def test_an_l2_read_leaking_to_dram_is_reported_and_one_served_by_l1_fails(tmp_path):
    def leak(doc):
        bench(doc, "Bandwidth/read/ld.cg/width:16/footprint:1081344/")["hw_served_dram_pct"] = 5.0
    r = run(variant(tmp_path, leak))
    assert r.returncode == 0 and "more than 1 % from 0.02x the L2 on (1 points)" in r.stdout

    def l1(doc):
        bench(doc, "Bandwidth/read/ld.cg/width:16/footprint:1081344/")["hw_served_l1_pct"] = 5.0
    r = run(variant(tmp_path, l1))
    assert r.returncode == 1 and "more than 1 % of its bytes from L1" in r.stdout


def test_wavefronts_off_the_model_fail(tmp_path):
    def change(doc):
        bench(doc, "SmemBanks/throughput/width:4/stride:2/")["hw_smem_load_wavefronts_per_request"] = 3.0
    r = run(variant(tmp_path, change))
    assert r.returncode == 1 and "SmemBanks point(s)" in r.stdout


def test_a_near_line_crossing_the_partitions_fails(tmp_path):
    def change(doc):
        bench(doc, "Atomics/global/atom.add.u32/gpu/contention:near_l2/")["hw_l2_fabric_pct"] = 55.0
    r = run(variant(tmp_path, change))
    assert r.returncode == 1 and "near_l2" in r.stdout


def test_a_run_without_counters_is_a_clear_error(tmp_path):
    def change(doc):
        for b in doc["benchmarks"]:
            for k in [k for k in b if k.startswith("hw_")]:
                del b[k]
        doc["context"]["archbench_counters"] = "unavailable: built without CUPTI's range profiler"
    r = run(variant(tmp_path, change))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "no benchmark has counters" in r.stderr and "built without CUPTI" in r.stderr

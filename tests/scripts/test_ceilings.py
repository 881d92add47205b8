"""ceilings.py: the ceilings of a committed full H200 run traced to their benchmarks, the whole
GPU's figures (not one SM's), "not measured" on a filtered run, the JSON format and its version
(pytest)."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)
from archbench_tools.tables import ceilings  # noqa: E402
from conftest import committed_run  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

FULL_PATH = "results/nvidia-h200/regression/2026-11-29-full-030cfbc-GPU-5c844806.json.gz"


@pytest.fixture
def full_run(tmp_path):
    """The committed full run of 030cfbc (in the archive since be7f95f became the baseline)."""
    return committed_run(FULL_PATH, tmp_path)


FILTERED = os.path.join(HERE, "..", "data", "h100_memlatency.json")


def rows(c, section, key, value):
    return [r for r in c[section] if r.get(key) == value]


def test_a_full_run_gives_every_ceiling_with_its_source(full_run):
    doc = resultfile.load(full_run)
    c = ceilings.ceilings(doc, full_run)
    assert c["format"] == "archbench-ceilings" and c["version"] == 1
    assert c["run"]["gpu_name"] == "NVIDIA H200" and c["run"]["commit"] == "030cfbc" and not c["run"]["quick"]
    names = {b["name"].split("/iterations")[0].replace("/manual_time", "") for b in doc["benchmarks"]}
    for section in ("bandwidth", "compute", "latency", "capacity"):
        for r in c[section]:
            if "not_measured" in r:
                continue
            assert r["benchmark"] in names, r  # every figure names a benchmark of the run
            assert r["method"], r
    dram = rows(c, "bandwidth", "level", "DRAM")
    assert [r["kind"] for r in dram] == ["read", "write", "copy"]
    for r in dram:  # the headlines, against the theoretical DRAM bandwidth
        assert r["benchmark"] == f"Bandwidth/headline/DRAM/{r['kind']}" and 0.85 < r["ratio"] <= 1.0, r
    smem = rows(c, "bandwidth", "level", "shared memory")[0]
    assert 120 < smem["bytes_per_clk_per_sm"] <= 128.5 and smem["ratio"] <= 1.005
    # The whole GPU's figure: the FP32 peak of a launch over every SM, not one SM's.
    ffma = [r for r in c["compute"] if r["unit"] == "FMA (FFMA)"][0]
    assert ffma["benchmark"].endswith("/sms:132") and ffma["per_second"] > 60e12
    l1 = rows(c, "bandwidth", "level", "L1")[0]
    assert l1["bytes_per_second"] > 30e12
    wgmma = {r["precision"]: r for r in c["compute"] if r["unit"] == "tensor cores (wgmma)"}
    assert {"f16", "bf16", "tf32", "e4m3", "s8"} <= set(wgmma) and wgmma["f16"]["flop_per_clk_per_sm"] <= 4096.5
    latency = {r["level"]: r for r in c["latency"]}
    assert 20 < latency["L1 hit (ld.ca chain, a few lines)"]["cycles"] < 50
    assert latency["DRAM (ld.cg chain, the largest footprint past 2x the L2)"]["cycles"] > 500
    cap = {r["level"]: r for r in c["capacity"]}
    assert cap["L2"]["bytes"] > 50e6 and cap["TLB page (managed memory)"]["bytes"] == 1 << 20
    # What the run lacks is said: this full run has no peer link and no L2 slice map.
    assert "not_measured" in rows(c, "bandwidth", "level", "peer link")[0]


def test_a_filtered_run_says_not_measured_and_the_json_round_trips(tmp_path):
    out = tmp_path / "c.json"
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ceilings.py"), FILTERED, "--json", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    c = json.loads(out.read_text())
    assert c["format"] == "archbench-ceilings" and c["version"] == 1
    assert all("not_measured" in b for b in c["bandwidth"])  # a MemLatency run has no bandwidth
    assert "not_measured" not in [x for x in c["latency"] if x["level"].startswith("L1 hit")][0]
    assert "not measured" in r.stdout


def test_a_run_without_any_ceiling_is_an_error(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"context": {"archbench_x": 1, "gpu_name": "X"}, "benchmarks": [
        {"name": "Launch/thing/manual_time", "run_type": "iteration", "label": "primary=x:higher", "x": 1.0}]}))
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ceilings.py"), str(other)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_the_sparse_tensor_ceiling_is_carried_out(tmp_path):
    """The committed sparse H200 run: wgmma.sp's ceiling per type, dense-equivalent, against twice the
    dense peak (A from registers reaches it); a run without sparse rows says not measured."""
    import glob
    path = sorted(glob.glob(os.path.join(ROOT, "results", "nvidia-h200", "tensor", "2026-11-29-sparse-*.json.gz")))[0]
    c = ceilings.ceilings(resultfile.load(path), path)
    sparse = {r["precision"]: r for r in c["compute"] if r["unit"] == "tensor cores (wgmma.sp, 2:4 sparse)"}
    assert {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8"} <= set(sparse)
    assert sparse["f16"]["peak_flop_per_clk_per_sm"] == 8192 and 0.99 < sparse["f16"]["ratio"] <= 1.0005
    assert "/rs/" in sparse["f16"]["benchmark"]
    numerics = sorted(glob.glob(os.path.join(ROOT, "results", "nvidia-h200", "tensor", "2026-11-29-numerics-*.json.gz")))[0]
    none = [r for r in ceilings.ceilings(resultfile.load(numerics), numerics)["compute"]
            if r["unit"] == "wgmma.sp, 2:4 sparse"]
    assert none and "not_measured" in none[0], none


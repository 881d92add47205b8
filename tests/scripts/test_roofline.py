"""roofline.py: the H200's roofs from its committed baseline run, and three kernels of known place
from an Nsight Compute CSV (tests/data/ncu-roofline-h200.csv: an L2-resident dot product, a DRAM
triad and cuBLAS f16 GEMMs, profiled on an H200) each within 10 % of the roof that binds it; the
read/copy/write interpolation; bad input in one line (pytest)."""
import csv
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)
from archbench_tools.tables import roofline  # noqa: E402

KERNELS = os.path.join(HERE, "..", "data", "ncu-roofline-h200.csv")
TOOL = os.path.join(SCRIPTS, "roofline.py")


@pytest.fixture
def run(h200_baseline):
    return h200_baseline


def tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def test_known_kernels_land_on_their_roofs(run, tmp_path):
    out, js = tmp_path / "roof.svg", tmp_path / "roof.json"
    r = tool(run, "--kernels", KERNELS, "--out", str(out), "--json", str(js))
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10000
    doc = json.loads(js.read_text())
    assert doc["format"] == "archbench-roofline" and doc["version"] == 1
    assert doc["roofs"]["sources"]["DRAM read"] == "Bandwidth/headline/DRAM/read"
    by_name = {}
    for k in doc["kernels"]:
        by_name.setdefault(k["name"].split("(")[0].split("_")[0], []).append(k)
    expected = {"dot": ("FP32", "L2"), "triad": ("FP32", "DRAM"), "nvjet": ("tensor fp16", "compute")}
    for name, (precision, binding) in expected.items():
        for k in by_name[name]:
            assert k["precision"] == precision and k["binding_level"] == binding, k
            share = max(v["of_roof"] for v in k["levels"].values())
            assert 0.90 <= share <= 1.02, (name, share)
    # The GEMM's FLOPs are the tensor counters' (2 m n k, and the 320-row tiles' padding: 8320/8192).
    gemm = by_name["nvjet"][-1]
    assert abs(gemm["flops"] / (2 * 8192 ** 3) - 8320 / 8192) < 1e-3
    # The DRAM triad writes a third of its bytes: its roof lies between the copy and read rates.
    triad = by_name["triad"][-1]["levels"]["DRAM"]
    bw = doc["roofs"]["bandwidth"]["DRAM"]
    assert abs(triad["write_fraction"] - 1 / 3) < 0.01 and bw["copy"] < triad["bandwidth_roof"] < bw["read"]


def test_the_mix_interpolates_read_copy_and_write():
    level = {"read": (10.0, None, 0), "copy": (8.0, None, 0), "write": (5.0, None, 0)}
    assert roofline.attainable_bandwidth(level, None) == 10.0
    assert abs(roofline.attainable_bandwidth(level, 0.5) - 8.0) < 1e-9
    assert abs(roofline.attainable_bandwidth(level, 1.0) - 5.0) < 1e-9
    assert 8.0 < roofline.attainable_bandwidth(level, 0.25) < 10.0
    # Per-clock ceilings follow the kernel's SM clock: 2 B/clk/SM x 4 SMs at 1 GHz.
    assert roofline.attainable_bandwidth({"read": (1.0, 2.0, 5e8)}, None, sm_clock_hz=1e9, sm_count=4) == 8e9


def test_bad_input_is_one_line_and_exit_2(run, tmp_path):
    no_metrics = tmp_path / "plain.csv"
    no_metrics.write_text('"ID","Kernel Name","gpu__time_duration.sum"\n"","","us"\n"0","k","1.0"\n')
    other = tmp_path / "other.csv"
    rows = list(csv.reader(open(KERNELS)))
    col = rows[0].index(roofline.DEVICE)
    for r in rows[2:]:
        r[col] = "NVIDIA B200"
    with open(other, "w", newline="") as f:
        csv.writer(f).writerows(rows)
    not_a_run = tmp_path / "x.json"
    not_a_run.write_text('{"hello": 1}')
    cases = [
        ([run, "--kernels", str(no_metrics), "--out", str(tmp_path / "a.svg")], "lacks the FLOP counters"),
        ([run, "--kernels", str(other), "--out", str(tmp_path / "b.svg")], "ran on NVIDIA B200"),
        ([run, "--kernels", str(tmp_path / "none.csv"), "--out", str(tmp_path / "c.svg")], "cannot read"),
        ([run, "--kernels", str(not_a_run), "--out", str(tmp_path / "d.svg")], "not an Nsight Compute raw-page CSV"),
        ([str(not_a_run), "--out", str(tmp_path / "e.svg")], ""),
        ([run, "--out", str(tmp_path / "f.txt")], "give a .svg or .png"),
        ([run, "--out", str(tmp_path / "missing-dir" / "g.svg")], "cannot write"),
    ]
    for args, words in cases:
        r = tool(*args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (args, r.stderr)
        assert words in r.stderr, (args, r.stderr)

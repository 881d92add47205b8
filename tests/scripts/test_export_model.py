"""export_model.py: the committed H200 baseline as an Accel-Sim config over a base config (a small
one written here: the project carries no text of Accel-Sim's), every measured option traced to its
source, the base's other options carried and marked, the latencies as Accel-Sim defines them; the
JSON machine file; bad input in one line (pytest)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "scripts", "export_model.py")

BASE = """# a test base
-gpgpu_compute_capability_major 9
-gpgpu_compute_capability_minor 0
-gpgpu_n_clusters 100
-gpgpu_clock_domains 1000:2000:3000:4000
-gpgpu_cache:dl1 S:4:64:64,L:T:m:L:L,A:512:64,16:0,32
-gpgpu_l1_latency 99
-ptx_opcode_latency_fp 9,9,9,9,9
-gpgpu_made_up_option 7
"""


def tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def options(text):
    return {line.split()[0]: line.split()[1] for line in text.splitlines() if line.startswith("-")}


def test_accel_sim_over_a_base(h200_baseline, tmp_path):
    base = tmp_path / "base.config"
    base.write_text(BASE)
    out = tmp_path / "gpgpusim.config"
    r = tool(h200_baseline, "--format", "accel-sim", "--base", str(base), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    o = options(text)
    assert o["-gpgpu_n_clusters"] == "132" and o["-gpgpu_l1_latency"] == "32"
    assert o["-gpgpu_clock_domains"] == "1980:2000:3000:3201"  # core and DRAM measured, the rest the base's
    assert o["-gpgpu_cache:dl1"].startswith("S:4:128:64,")       # the line measured, sets and ways the base's
    assert o["-ptx_opcode_latency_fp"] == "9,9,9,4,9"             # FFMA measured (MAD), the rest the base's
    assert o["-gpgpu_made_up_option"] == "7" and "-gpgpu_made_up_option 7  # not measured: from the base" in text
    # Accel-Sim's latencies: the L2's less the L1's, the DRAM's less the L2's, in SM cycles.
    assert o["-gpgpu_l2_rop_latency"] == "250" and o["-dram_latency"] == "404"
    for option in ("-gpgpu_n_clusters", "-gpgpu_l2_rop_latency", "-gpgpu_smem_latency"):
        line = text.splitlines()[text.splitlines().index(f"{option} {o[option]}") - 1]
        assert line.startswith("# measured: "), (option, line)
    assert "SmemBanks/latency/width:4/stride:1" in text and "MemLatency/chain/ld.cg/footprint:251658240" in text


def test_without_a_base_only_measured_options_and_json(h200_baseline, tmp_path):
    r = tool(h200_baseline, "--format", "accel-sim")
    assert r.returncode == 0, r.stderr
    o = options(r.stdout)
    assert "-gpgpu_made_up_option" not in o and "-ptx_opcode_latency_fp" not in o  # a partial tuple needs the base
    assert o["-gpgpu_shmem_num_banks"] == "32" and o["-gpgpu_l2_rop_latency"] == "250"
    out = tmp_path / "machine.json"
    r = tool(h200_baseline, "--format", "json", "--out", str(out))
    doc = json.loads(out.read_text())
    assert doc["format"] == "archbench-machine" and doc["version"] == 1
    assert doc["measured"]["l1_line"] == {"value": 128.0, "source": "Geometry/l1/line"}
    assert doc["measured"]["ii_ffma"]["value"] == 1 and doc["measured"]["ii_mufu_rsq"]["value"] == 8


def test_bad_input_is_one_line_and_exit_2(h200_baseline, tmp_path):
    sm80 = tmp_path / "sm80.config"
    sm80.write_text(BASE.replace("major 9", "major 8"))
    empty = tmp_path / "empty.config"
    empty.write_text("# nothing\n")
    not_a_run = tmp_path / "x.json"
    not_a_run.write_text('{"context": {}, "benchmarks": []}')
    cases = [([h200_baseline, "--format", "accel-sim", "--base", str(sm80)], "compute capability 8.0"),
             ([h200_baseline, "--format", "accel-sim", "--base", str(empty)], "not a gpgpusim.config"),
             ([h200_baseline, "--format", "accel-sim", "--base", str(tmp_path / "none")], "cannot read"),
             ([h200_baseline, "--format", "json", "--base", str(sm80)], "--base goes with"),
             ([str(not_a_run), "--format", "json"], ""),
             ([h200_baseline, "--format", "json", "--out", str(tmp_path / "no" / "x.json")], "cannot write")]
    for args, words in cases:
        r = tool(*args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (args, r.stderr)
        assert words in r.stderr, (args, r.stderr)


def test_mt4g_has_mt4gs_keys_and_units(h200_baseline):
    r = tool(h200_baseline, "--format", "mt4g")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["compute"]["multiProcessorCount"] == 132 and d["compute"]["numberOfCoresPerMultiProcessor"] == 128
    assert d["general"]["computeCapability"] == {"major": 9, "minor": 0} and d["general"]["clockRate"]["unit"] == "kHz"
    l1, l2, main = d["memory"]["l1"], d["memory"]["l2"], d["memory"]["main"]
    assert l1["size"] == {"method": "archbench Geometry/l1/capacity/carveout:0", "randomized": False, "size": 251136,
                          "unit": "bytes", "confidence": l1["size"]["confidence"]}
    assert l1["lineSize"]["size"] == 128 and l1["latency"]["unit"] == "cycles" and 31 < l1["latency"]["mean"] < 34
    assert l2["segmentSize"]["size"] == 30350336 and l2["readBandwidth"]["unit"] == "GiB/s"
    assert main["memoryClockRate"] == {"unit": "kHz", "value": 3201000} and main["latency"]["mean"] > 600
    assert d["meta"]["tool"].startswith("archbench ")
    assert "null" not in r.stdout

"""accept.py's integrity group (scripts/archbench_tools/nightly/integrity.py): the data-integrity
screen's entries as benchmarks/integrity.cpp writes them (counters, `mismatches_found`), judged by
rule: a clean screen passes with its rates, a wrong value fails naming its SM, lane and place, an SM
left out fails, a screen the GPU lacks is skipped. Then accept.py end to end on the H200 baseline
with the screen's entries added, and on a run of the screen alone."""
import copy
import gzip
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.nightly import accept, integrity  # noqa: E402


def entry(screen, mismatches=(), **counters):
    name = f"Integrity/{screen}/iterations:1/manual_time"
    b = {"name": name, "run_name": name, "family": f"Integrity/{screen}", "axes": {}, "run_type": "iteration",
         "iterations": 1, "screen_seconds": 3.0, "rounds": 4, "mismatches": len(mismatches),
         "checked_bytes_per_second": 2e12, "mismatches_found": list(mismatches), "sm_clock_mhz": 0, "throttled": 0}
    if screen == "dram":
        b.update(screened_bytes=138e9, bytes_per_second=4.2e12, pct_of_peak=87.0)
    else:
        b.update(sms_covered=132, sm_count=132)
    if screen in ("ffma", "mma"):
        b["checked_flop_per_second"] = 5e13
    if screen in ("smem", "l1"):
        b["screened_bytes"] = 132 * 114688
    b.update(counters)
    return b


def clean_screen():
    return [entry(s) for s in integrity.SCREENS]


FLIP = {"sm": 3, "lane": 7, "warp": 0, "pass": 0, "expected": "0x3f800000", "found": "0x3f800001",
        "flipped_bits": "0x00000001"}


def by_what(benchmarks):
    return {f.what: f for f in integrity.judge(benchmarks)}


def test_a_clean_screen_passes_with_its_rates():
    f = by_what(clean_screen())
    assert {x.status for x in f.values()} == {"pass"}
    assert "138.0 GB at 4.20 TB/s (87 % of the DRAM peak)" in f[integrity.SCREENS["dram"]].basis
    assert "50.0 TFLOP/s checked" in f[integrity.SCREENS["mma"]].basis


def test_a_wrong_value_fails_naming_sm_lane_and_place():
    run = clean_screen()
    run[1] = entry("ffma", [dict(FLIP, result=56)] * 4)
    run[2] = entry("mma", [dict(FLIP, tile=0, row=1, column=6)])
    run[0] = entry("dram", [dict(FLIP, byte=123456788, sm=40, lane=2)])
    f = by_what(run)
    ffma = f[integrity.SCREENS["ffma"]]
    assert ffma.status == "fail" and ffma.value == 4
    assert ffma.basis.startswith("4 wrong value(s): SM 3, lane 7 (warp 0): result 56: expected 0x3f800000, "
                                 "found 0x3f800001 (bits 0x00000001)") and ffma.basis.endswith("; 1 more")
    assert "SM 3, lane 7 (warp 0): tile 0, row 1, column 6" in f[integrity.SCREENS["mma"]].basis
    assert "byte 123456788 (read by SM 40, lane 2)" in f[integrity.SCREENS["dram"]].basis


def test_an_sm_left_out_fails_and_a_screen_the_gpu_lacks_is_skipped():
    run = clean_screen()
    run[3] = entry("smem", sms_covered=131)
    run[2] = {"name": "Integrity/mma/iterations:1/manual_time", "run_name": "Integrity/mma/iterations:1/manual_time",
              "family": "Integrity/mma", "axes": {}, "run_type": "iteration", "skipped": True,
              "skip_message": "mma.sync m16n8k16 (FP16) needs compute capability 8.0"}
    f = by_what(run)
    assert f[integrity.SCREENS["smem"]].status == "fail" and "131 of 132 SMs" in f[integrity.SCREENS["smem"]].basis
    assert f[integrity.SCREENS["mma"]].status == "skipped"
    assert f[integrity.SCREENS["mma"]].basis.startswith("does not apply to this GPU")


def test_a_run_without_the_screen_has_no_group():
    assert integrity.judge([{"name": "Bandwidth/x", "family": "Bandwidth/x"}]) is None


@pytest.fixture(scope="module")
def baseline_doc():
    with gzip.open(fleet_model.baseline_for("NVIDIA H200"), "rt") as f:
        return json.load(f)


def test_accept_end_to_end(baseline_doc, tmp_path, capsys):
    doc = copy.deepcopy(baseline_doc)
    doc["benchmarks"] += clean_screen()
    run = tmp_path / "run.json"
    run.write_text(json.dumps(doc))
    assert accept.main([str(run)]) == 0
    out = capsys.readouterr().out
    assert "integrity: 5 of 5 screens judged" in out and out.strip().splitlines()[-1] == "Verdict: healthy"
    doc["benchmarks"][-4] = entry("ffma", [dict(FLIP, result=56)])
    run.write_text(json.dumps(doc))
    assert accept.main([str(run), "--junit", str(tmp_path / "a.xml")]) == 1
    verdict = capsys.readouterr().out.strip().splitlines()[-1]
    assert verdict == f"Verdict: NOT HEALTHY: integrity ({integrity.SCREENS['ffma']})", verdict
    assert 'classname="integrity"' in (tmp_path / "a.xml").read_text()
    # The baseline itself was not screened: its report says so.
    run.write_text(json.dumps(baseline_doc))
    assert accept.main([str(run)]) == 0
    assert integrity.NOT_SCREENED in capsys.readouterr().out


def test_accept_on_the_screen_alone(baseline_doc, tmp_path, capsys):
    doc = {"context": copy.deepcopy(baseline_doc["context"]), "benchmarks": clean_screen()}
    run = tmp_path / "screen.json"
    run.write_text(json.dumps(doc))
    assert accept.main([str(run)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("Verdict: no wrong value found")
    # --integrity runs the screen: with a result file it is a usage error, one line, exit 2.
    assert accept.main([str(run), "--integrity"]) == 2
    assert "--integrity screens during the acceptance run" in capsys.readouterr().err


def test_soak_and_screen_reach_the_listing_and_the_run(monkeypatch, tmp_path):
    """--soak changes the sustained-clock benchmarks' names (seconds:N): the listing the filter is
    built from must be made with it, or the clock checks would not run at all."""
    seen = {}

    class Stop(Exception):
        pass

    def fake_listing(binary, options=()):
        seen["listing"] = list(options)
        return ["Scheduling/sustained_clock/ffma/seconds:30"], {}

    def fake_run(argv, **kw):
        seen["run"] = argv
        raise Stop

    monkeypatch.setattr(accept, "listing", fake_listing)
    monkeypatch.setattr(accept, "acceptance_filter", lambda names, ctx: "^" + names[0] + "$")
    monkeypatch.setattr(accept.subprocess, "run", fake_run)
    with pytest.raises(Stop):
        accept.run_short("archbench", str(tmp_path), integrity_seconds=12, soak_seconds=30)
    assert seen["listing"] == ["--sustained_seconds=30"]
    assert "--sustained_seconds=30" in seen["run"] and "--integrity_seconds=12" in seen["run"]
    assert any(a.startswith("--benchmark_filter=") and a.endswith("|^Integrity/") and "seconds:30" in a
               for a in seen["run"])

"""accept.py's health group (scripts/archbench_tools/nightly/health.py): every rule on health objects
as the harness writes them. The first is the fake NVML run's output (tests/data/health/
fake_nvml_run.json, which tests/unit/test_health_watch.cpp checks the C++ health watch writes byte for
byte): the Python rules judge what the C++ side reads. Then accept.py end to end on the H200
baseline with a health object planted in its context: the verdict, JUnit and Prometheus."""
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
from archbench_tools.nightly import accept, health  # noqa: E402

with open(os.path.join(ROOT, "tests", "data", "health", "fake_nvml_run.json")) as f:
    FAKE_RUN = json.load(f)


def clean():
    """The fake run's object with nothing happening during the run: every counter unchanged."""
    h = copy.deepcopy(FAKE_RUN)
    for c in h["counters"].values():
        if "after" in c:
            c["after"] = c["before"]
    h["xid"]["events"] = []
    return h


def findings(h, benchmarks=()):
    return {f.what: f for f in health.judge({"archbench_health": h}, list(benchmarks))}


def status(h, what, benchmarks=()):
    return findings(h, benchmarks)[what].status


def test_the_fake_nvml_run_fails_on_what_moved_during_it():
    f = findings(FAKE_RUN)
    assert f["XID events"].status == "fail" and "XID 48" in f["XID events"].basis
    assert f["ECC uncorrectable errors"].status == "fail" and f["ECC uncorrectable errors"].value == 1
    assert f["NVLink replay errors"].status == "fail" and f["NVLink replay errors"].value == 3
    for what in ("ECC corrected errors", "row remapping", "PCIe link under load", "PCIe replays",
                 "PCIe fatal errors (AER)", "PCIe non-fatal errors (AER)", "NVLink recovery errors",
                 "NVLink CRC errors"):
        assert f[what].status == "pass", (what, f[what].basis)
    # Hopper has no page retirement (row remapping replaced it): not available, with NVML's words.
    assert f["retired pages"].status == "skipped" and "Not Supported" in f["retired pages"].basis


def test_a_clean_run_passes_every_rule():
    f = findings(clean(), [{"clock_event_reasons": 0x4}, {"clock_event_reasons": 0x20}])
    assert {w: x.status for w, x in f.items() if x.status != "pass"} == {"retired pages": "skipped"}
    assert "SW power cap in 1" in f["clock-event reasons"].basis


@pytest.mark.parametrize("edit, what, expected", [
    (lambda h: h["counters"]["row_remap_pending"].update(after=1), "row remapping", "fail"),
    (lambda h: h["counters"]["row_remap_failure"].update(before=1, after=1), "row remapping", "fail"),
    (lambda h: h["pcie_link"].update(gen_under_load=4), "PCIe link under load", "fail"),
    (lambda h: h["pcie_link"].update(width_under_load=8), "PCIe link under load", "fail"),
    # 250 s of run: 8 replays a minute is 33, the most that passes (DCGM's limit); a run shorter than
    # a minute counts as one (below)
    (lambda h: h["counters"]["pcie_replays"].update(after=33), "PCIe replays", "pass"),
    (lambda h: h["counters"]["pcie_replays"].update(after=34), "PCIe replays", "fail"),
    (lambda h: h["counters"]["pcie_fatal_errors"].update(after=1), "PCIe fatal errors (AER)", "fail"),
    (lambda h: h["counters"]["pcie_nonfatal_errors"].update(after=1), "PCIe non-fatal errors (AER)", "fail"),
    (lambda h: h["counters"]["pcie_correctable_errors"].update(after=500), "PCIe replays", "pass"),
    (lambda h: h["counters"]["ecc_corrected_volatile"].update(after=10), "ECC corrected errors", "pass"),
    (lambda h: h["counters"]["ecc_corrected_volatile"].update(after=11), "ECC corrected errors", "fail"),
    (lambda h: h["counters"]["nvlink_recovery_errors"].update(after=1), "NVLink recovery errors", "fail"),
    # 100 a second over 250 s is 25,000
    (lambda h: h["counters"]["nvlink_crc_errors"].update(after=24_999), "NVLink CRC errors", "pass"),
    (lambda h: h["counters"]["nvlink_crc_errors"].update(after=25_000), "NVLink CRC errors", "fail"),
    (lambda h: h["xid"].update(events=[43]), "XID events", "pass"),   # a program's (the Fault feature's trap)
    (lambda h: h["xid"].update(events=[43, 79]), "XID events", "fail"),  # fallen off the bus
    (lambda h: h["counters"].update(retired_pages_pending={"before": 1, "after": 1},
                                    retired_pages_sbe={"before": 2, "after": 2},
                                    retired_pages_dbe={"before": 0, "after": 0}), "retired pages", "fail"),
    (lambda h: h["counters"].update(retired_pages_pending={"before": 0, "after": 0},
                                    retired_pages_sbe={"before": 60, "after": 60},
                                    retired_pages_dbe={"before": 3, "after": 4}), "retired pages", "fail"),
    (lambda h: h["counters"].update(retired_pages_pending={"before": 0, "after": 0},
                                    retired_pages_sbe={"before": 60, "after": 60},
                                    retired_pages_dbe={"before": 3, "after": 3}), "retired pages", "pass"),
])
def test_each_rule(edit, what, expected):
    h = clean()
    edit(h)
    assert status(h, what) == expected, findings(h)[what].basis


def test_hardware_clock_reasons_fail_and_software_ones_are_counted():
    h = clean()
    assert status(h, "clock-event reasons", [{"clock_event_reasons": 0x4 | 0x20}]) == "pass"
    # An aggregate of repetitions averages the masks (36, 36, 4 -> 25.3, read as 0x19): not a sample.
    assert status(h, "clock-event reasons", [{"clock_event_reasons": 36}, {"clock_event_reasons": 4},
                                             {"clock_event_reasons": 25.333, "run_type": "aggregate"},
                                             {"clock_event_reasons": 25, "run_type": "aggregate"}]) == "pass"
    for bit in (0x8, 0x40, 0x80):
        f = findings(h, [{"clock_event_reasons": 0}, {"clock_event_reasons": bit}])["clock-event reasons"]
        assert f.status == "fail" and "in 1" in f.basis


def test_a_counter_read_before_and_not_after_fails_and_a_short_run_counts_as_a_minute():
    h = clean()
    h["counters"]["ecc_uncorrected_volatile"] = {"not_available": "after the run: NVML: GPU is lost"}
    f = findings(h)["ECC uncorrectable errors"]
    assert f.status == "fail" and "GPU is lost" in f.basis
    short = clean()
    short["seconds"] = 10.0
    short["counters"]["pcie_replays"].update(after=short["counters"]["pcie_replays"]["before"] + 2)
    assert status(short, "PCIe replays") == "pass"  # 2 in 10 s is not 12 a minute
    trapped = clean()
    trapped["pcie_link"] = {"not_available": "the host link could not be loaded: unspecified launch failure"}
    f = findings(trapped)["PCIe link under load"]
    assert f.status == "skipped" and f.basis.startswith("not read:")  # not "not available on this GPU"


def test_unreadable_and_unfinished_are_not_failures():
    h = clean()
    h["counters"]["pcie_replays"] = {"not_available": "NVML: Not Supported"}
    assert findings(h)["PCIe replays"].basis == "not available: NVML: Not Supported"
    stopped = copy.deepcopy(FAKE_RUN)  # the "before" reading alone: the run stopped early
    for c in stopped["counters"].values():
        c.pop("after", None)
    for k in ("pcie_link", "seconds"):
        stopped.pop(k)
    f = findings(stopped)
    # A change needs both readings; a state (a pending row remap) is judged from the one there is.
    states = ("clock-event reasons", "row remapping", "retired pages")
    assert all(x.status == "skipped" for w, x in f.items() if w not in states), f
    assert f["row remapping"].status == "pass"
    assert "stopped before its end" in f["ECC uncorrectable errors"].basis
    assert health.judge({}, []) is None  # a run from before the harness read health counters


@pytest.fixture(scope="module")
def baseline_doc():
    with gzip.open(fleet_model.baseline_for("NVIDIA H200"), "rt") as f:
        return json.load(f)


def test_accept_fails_a_run_whose_health_failed_and_says_which_rule(baseline_doc, tmp_path, capsys):
    pytest.importorskip("prometheus_client")
    doc = copy.deepcopy(baseline_doc)
    doc["context"]["archbench_health"] = FAKE_RUN
    run = tmp_path / "run.json"
    run.write_text(json.dumps(doc))
    code = accept.main([str(run), "--junit", str(tmp_path / "a.xml"), "--prometheus", str(tmp_path / "a.prom")])
    out = capsys.readouterr().out
    assert code == 1
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("Verdict: NOT HEALTHY: health (XID events; ECC uncorrectable errors; "
                              "NVLink replay errors)"), verdict
    assert "health: 12 of 13 rules judged, 1 rule(s) of counters not available on this GPU or driver" in out
    assert 'classname="health" name="XID events"' in (tmp_path / "a.xml").read_text()
    prom = (tmp_path / "a.prom").read_text()
    assert 'archbench_accept_check_pass{board_part=' in prom and 'group="health"' in prom


def test_accept_healthy_run_keeps_its_verdict_and_counts_the_rules(baseline_doc, tmp_path, capsys):
    doc = copy.deepcopy(baseline_doc)
    doc["context"]["archbench_health"] = clean()
    run = tmp_path / "run.json"
    run.write_text(json.dumps(doc))
    assert accept.main([str(run)]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "Verdict: healthy"
    assert "health: 12 of 13 rules judged" in out
    doc["context"].pop("archbench_health")
    run.write_text(json.dumps(doc))
    assert accept.main([str(run)]) == 0
    assert "health: not recorded in this run" in capsys.readouterr().out


def test_a_hardware_reason_at_any_sample_of_a_sustained_load_fails():
    # Scheduling's sustained-clock runs (accept.py --soak) OR every 100 ms sample's reasons into
    # clock_event_reasons_any: the 31 committed full runs show 0 (FP32) and the software power cap
    # and thermal limit (tensor), never a hardware reason.
    sustained = {"name": "Scheduling/sustained_clock/wgmma_f16/seconds:60", "clock_event_reasons": 0x4}
    assert status(clean(), "clock-event reasons", [dict(sustained, clock_event_reasons_any=0x24)]) == "pass"
    f = findings(clean(), [dict(sustained, clock_event_reasons_any=0x80 | 0x4)])["clock-event reasons"]
    assert f.status == "fail" and "HW power brake in 1" in f.basis

"""The health group of accept.py: the counters the harness reads through NVML before the first
benchmark and after the last (the context's "archbench_health", fixtures/harness/health.hpp), and
the clock-event reasons of the run's benchmarks, each judged by a rule that says where it comes from.

A counter the GPU or driver does not expose is "not available" with NVML's reason: not judged, and
not a failure. A run whose health object has no "after" reading (it stopped early) says so. A run
made before the harness read health counters has no health group (its verdict says so).
Rules (docs/acceptance.md, "Health"):
- an XID event during the run fails, except the XIDs a program causes (NVIDIA's XID catalogue);
- a new uncorrectable ECC error fails; more than DCGM_SBE_LIMIT new corrected errors fails;
- a pending row remap or page retirement fails (the board needs a reset), a failed row remap fails
  (NVIDIA: the board needs service), more than DCGM_RETIRED_PAGES retired pages fails;
- the PCIe link under load below its maximum generation or width fails;
- PCIe replays above DCGM_PCIE_REPLAYS_PER_MINUTE fail, as does any new fatal or non-fatal AER;
- any new NVLink replay or recovery error fails, NVLink CRC errors at DCGM_NVLINK_CRC_PER_SECOND or
  more fail (DCGM's health watch: its limits, dcgm_gpu_hardware_limits.h);
- a hardware clock-event reason (HW slowdown, HW thermal, HW power brake) in any benchmark, or at any
  sample of a sustained load, fails:
  none of the committed runs of healthy boards shows one (the software power cap and software
  thermal limit are normal under this suite's tensor and DRAM loads, and are only counted).
"""
from dataclasses import dataclass

CONTEXT_KEY = "archbench_health"
UNREADABLE_AFTER = "after the run:"  # fixtures/harness/health.cpp: a counter read before, not after

# DCGM's health-watch limits (dcgm_gpu_hardware_limits.h, DCGM 3-4).
DCGM_PCIE_REPLAYS_PER_MINUTE = 8  # "the maximum recommended by RM"; DCGM warns above it
DCGM_SBE_LIMIT = 10               # DCGM_LIMIT_MAX_SBE_RATE ("a dummy value" in DCGM's own words)
DCGM_RETIRED_PAGES = 63           # DCGM_LIMIT_MAX_RETIRED_PAGES (before Ampere)
DCGM_NVLINK_CRC_PER_SECOND = 100  # DCGM_LIMIT_MAX_NVLINK_CRC_ERROR: "only matter at rates of 100+ per second"

# XIDs a program causes, not the board (NVIDIA's XID catalogue, docs.nvidia.com/deploy/xid-errors):
# the suite's own Fault feature (ARCHBENCH_FAULT=trap) raises one of them on purpose.
PROGRAM_XIDS = {13: "graphics engine exception", 31: "GPU memory page fault", 43: "GPU stopped processing",
                45: "preemptive cleanup"}

# NVML's clock-event reason bits (fixtures/harness/nvml.hpp).
HW_REASONS = {0x8: "HW slowdown", 0x40: "HW thermal slowdown", 0x80: "HW power brake"}
SW_REASONS = {0x4: "SW power cap", 0x20: "SW thermal slowdown"}


@dataclass
class Finding:
    what: str
    status: str  # "pass", "fail", "skipped" (not available, or not read)
    value: object
    basis: str


def _delta(counters, name):
    """(before, after, after - before) of a counter, or (None, None, why) where it was not read."""
    c = counters.get(name)
    if c is None:
        return None, None, "not read by this run's harness"
    if "not_available" in c:
        if str(c["not_available"]).startswith(UNREADABLE_AFTER):  # read before the run, not after it
            return None, None, c["not_available"]
        return None, None, f"not available: {c['not_available']}"
    if "after" not in c:
        return c.get("before"), None, "no reading after the run (it stopped before its end)"
    return c["before"], c["after"], c["after"] - c["before"]


def _count_rule(counters, what, name, fail_if, rule):
    """A check of one counter's change during the run: fail_if(delta) fails it; `rule` says why."""
    before, after, d = _delta(counters, name)
    if after is None and str(d).startswith(UNREADABLE_AFTER):
        return Finding(what, "fail", None, f"{d}: NVML answered before the run and not after it (a GPU that "
                                            "stopped answering, as one fallen off the bus does), which fails")
    if after is None:
        return Finding(what, "skipped", None, d)
    bad = fail_if(d)
    return Finding(what, "fail" if bad else "pass", d, f"{d:g} during the run ({before:g} -> {after:g}); {rule}")


def judge(context, benchmarks, seconds=None):
    """The health findings of a run: its context and its benchmark entries. None where the run
    carries no health object (made before the harness read health counters)."""
    h = context.get(CONTEXT_KEY)
    if not isinstance(h, dict):
        return None
    counters = h.get("counters", {})
    seconds = max(h.get("seconds") or seconds or 60.0, 1e-9)
    out = []

    xid = h.get("xid", {})
    if "not_available" in xid:
        out.append(Finding("XID events", "skipped", None, f"not available: {xid['not_available']}"))
    elif "seconds" not in h:
        out.append(Finding("XID events", "skipped", None, "no reading after the run (it stopped before its end)"))
    else:
        events = xid.get("events", [])
        board = [x for x in events if x not in PROGRAM_XIDS]
        words = ", ".join(f"XID {x}" + (f" ({PROGRAM_XIDS[x]}, a program's)" if x in PROGRAM_XIDS else "")
                          for x in events) or "none"
        out.append(Finding("XID events", "fail" if board else "pass", len(board),
                           f"{words}; an XID a program does not cause fails (NVIDIA's XID catalogue)"))

    out.append(_count_rule(counters, "ECC uncorrectable errors", "ecc_uncorrected_volatile", lambda d: d > 0,
                           "a new uncorrectable error fails"))
    out.append(_count_rule(counters, "ECC corrected errors", "ecc_corrected_volatile", lambda d: d > DCGM_SBE_LIMIT,
                           f"more than {DCGM_SBE_LIMIT} fails (DCGM's limit)"))

    remap = counters.get("row_remap_pending", {})
    if "not_available" not in remap and remap:
        now = remap.get("after", remap.get("before"))
        fail_ = counters.get("row_remap_failure", {})
        failed = fail_.get("after", fail_.get("before", 0)) or 0
        rows = counters.get("remapped_rows_uncorrected", {})
        n_rows = rows.get("after", rows.get("before"))
        bad = bool(now) or bool(failed)
        out.append(Finding("row remapping", "fail" if bad else "pass", int(bool(now)) + int(bool(failed)),
                           f"pending {int(bool(now))}, failed {int(bool(failed))}" +
                           (f", {n_rows:g} rows remapped for uncorrectable errors" if n_rows is not None else "") +
                           "; a pending remap (the board needs a reset) or a failed one (it needs service) fails"))
    else:
        out.append(Finding("row remapping", "skipped", None,
                           f"not available: {remap.get('not_available', 'not read')}"))

    pending = counters.get("retired_pages_pending", {})
    if "not_available" not in pending and pending:
        sbe, dbe = (counters.get(k, {}) for k in ("retired_pages_sbe", "retired_pages_dbe"))
        pages = (sbe.get("after", sbe.get("before", 0)) or 0) + (dbe.get("after", dbe.get("before", 0)) or 0)
        now = pending.get("after", pending.get("before"))
        bad = bool(now) or pages > DCGM_RETIRED_PAGES
        out.append(Finding("retired pages", "fail" if bad else "pass", pages,
                           f"{pages:g} retired, pending {int(bool(now))}; a pending retirement or more than "
                           f"{DCGM_RETIRED_PAGES} pages (DCGM's limit) fails"))
    else:
        out.append(Finding("retired pages", "skipped", None,
                           f"not available: {pending.get('not_available', 'not read')} (row remapping replaces it "
                           "from Ampere on)"))

    link = h.get("pcie_link")
    if not link:
        out.append(Finding("PCIe link under load", "skipped", None, "no reading after the run (it stopped before its end)"))
    elif "not_available" in link and str(link["not_available"]).startswith("the host link could not be loaded"):
        out.append(Finding("PCIe link under load", "skipped", None, f"not read: {link['not_available']}"))
    elif "not_available" in link:
        out.append(Finding("PCIe link under load", "skipped", None, f"not available: {link['not_available']}"))
    else:
        bad = link["gen_under_load"] < link["max_gen"] or link["width_under_load"] < link["max_width"]
        out.append(Finding("PCIe link under load", "fail" if bad else "pass",
                           f"gen{link['gen_under_load']} x{link['width_under_load']}",
                           f"gen{link['gen_under_load']} x{link['width_under_load']} while host copies ran, "
                           f"maximum gen{link['max_gen']} x{link['max_width']}; below the maximum fails"))

    out.append(_count_rule(counters, "PCIe replays", "pcie_replays",
                           lambda d: d * 60 / max(seconds, 60.0) > DCGM_PCIE_REPLAYS_PER_MINUTE,
                           f"more than {DCGM_PCIE_REPLAYS_PER_MINUTE} a minute fails (DCGM's limit; a run shorter "
                           "than a minute counts as one)"))
    out.append(_count_rule(counters, "PCIe fatal errors (AER)", "pcie_fatal_errors", lambda d: d > 0,
                           "a new one fails"))
    out.append(_count_rule(counters, "PCIe non-fatal errors (AER)", "pcie_nonfatal_errors", lambda d: d > 0,
                           "a new one fails"))
    out.append(_count_rule(counters, "NVLink replay errors", "nvlink_replay_errors", lambda d: d >= 1,
                           "a new one fails (DCGM's health watch)"))
    out.append(_count_rule(counters, "NVLink recovery errors", "nvlink_recovery_errors", lambda d: d >= 1,
                           "a new one fails (DCGM's health watch)"))
    out.append(_count_rule(counters, "NVLink CRC errors", "nvlink_crc_errors",
                           lambda d: d / seconds >= DCGM_NVLINK_CRC_PER_SECOND,
                           f"{DCGM_NVLINK_CRC_PER_SECOND} a second or more fails (DCGM's limit)"))
    out.append(clock_reasons(benchmarks))
    return out


def clock_reasons(benchmarks):
    """The clock-event reasons NVML gave after the run's benchmarks, and at any sample of a sustained
    load (`clock_event_reasons_any`: the Scheduling feature's sustained-clock runs, accept.py --soak):
    a hardware reason fails."""
    seen, count = 0, {}
    for b in benchmarks:
        r = b.get("clock_event_reasons")
        if isinstance(b.get("clock_event_reasons_any"), (int, float)):
            r = int(b["clock_event_reasons_any"]) | (int(r) if isinstance(r, (int, float)) else 0)
        # An iteration's own sample: an aggregate (--benchmark_repetitions) averages the bit masks.
        if not isinstance(r, (int, float)) or r != int(r) or b.get("run_type") == "aggregate" or \
                b.get("error_occurred") or b.get("skipped"):
            continue
        r = int(r)
        seen |= r
        for bit in (*HW_REASONS, *SW_REASONS):
            if r & bit:
                count[bit] = count.get(bit, 0) + 1
    if not count and not any("clock_event_reasons" in b or "clock_event_reasons_any" in b for b in benchmarks):
        return Finding("clock-event reasons", "skipped", None, "no benchmark of the run sampled them")
    hw = [f"{HW_REASONS[b]} in {count[b]}" for b in HW_REASONS if b in count]
    sw = [f"{SW_REASONS[b]} in {count[b]}" for b in SW_REASONS if b in count]
    words = "; ".join(hw + sw) or "none"
    return Finding("clock-event reasons", "fail" if hw else "pass", len(hw),
                   f"{words} benchmark(s); a hardware reason (HW slowdown, thermal, power brake) fails, the "
                   "software power cap and thermal limit are counted")

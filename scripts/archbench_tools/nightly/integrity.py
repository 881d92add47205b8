"""The integrity group of accept.py: the data-integrity screen's entries (the Integrity feature,
benchmarks/integrity.cpp), judged by rule, not by the fleet:
- a value that read back or computed other than it must fails, named by where it was found: the SM
  and lane, the DRAM or shared-memory byte, the FFMA result or the mma tile element, the bits
  expected and found (the entry's `mismatches_found`; `mismatches` counts them all);
- a per-SM screen (FFMA, mma, shared memory, L1) whose blocks did not run on every SM fails: an SM
  left out was not screened;
- a screen that failed to run fails; one that does not apply to the GPU (mma.sync before sm_80) is
  skipped with its reason.
A run without Integrity entries has no integrity group: the report says it was not screened.
"""
from archbench_tools.nightly.health import Finding
from archbench_tools.results import resultfile

FEATURE = "Integrity"
DEFAULT_SECONDS = 30.0  # the harness's own default (--integrity_seconds): about DCGM level 2's time
# The screens in the order the feature runs them, with what each screens.
SCREENS = {"dram": "DRAM: moving inversions", "ffma": "FFMA: checked load on every SM",
           "mma": "tensor cores: checked mma.sync on every SM", "smem": "shared memory: patterns on every SM",
           "l1": "L1: patterns on every SM"}
PER_SM = ("ffma", "mma", "smem", "l1")
NOT_SCREENED = "integrity: not screened in this run (accept.py --run BINARY --integrity screens it)"
SHOWN = 3  # mismatches named in a check's line (the result file keeps the first 32 of each screen)


def screens(benchmarks):
    """{screen: entry} of a run's Integrity entries; of several repetitions of a screen, the one with
    the most mismatches (one clean repetition never hides another's wrong value)."""
    out = {}
    for b in benchmarks:
        if resultfile.feature(b) == FEATURE and b.get("run_type") != "aggregate":
            parts = resultfile.family_parts(b)
            if len(parts) > 1 and (parts[1] not in out or b.get("mismatches", 0) > out[parts[1]].get("mismatches", 0)):
                out[parts[1]] = b
    return out


def place(screen, m):
    """Where one mismatch was found, in words."""
    if screen == "mma":
        at = f"tile {m.get('tile')}, row {m.get('row')}, column {m.get('column')}"
    elif screen == "ffma":
        at = f"result {m.get('result')}"
    elif screen == "dram":
        at = f"byte {m.get('byte')} (read by SM {m.get('sm')}, lane {m.get('lane')})"
    elif screen == "smem":
        at = f"byte {m.get('byte')} of the block's shared memory"
    else:
        at = f"byte {m.get('byte')} of the L1 screen's buffer"
    who = "" if screen == "dram" else f"SM {m.get('sm')}, lane {m.get('lane')} (warp {m.get('warp')}): "
    return (f"{who}{at}: expected {m.get('expected')}, found {m.get('found')} "
            f"(bits {m.get('flipped_bits')})")


def _rate(screen, b):
    if screen in ("ffma", "mma"):
        return f"{b.get('checked_flop_per_second', 0) / 1e12:.1f} TFLOP/s checked"
    if screen == "dram":
        return (f"{b.get('screened_bytes', 0) / 1e9:.1f} GB at {b.get('bytes_per_second', 0) / 1e12:.2f} TB/s"
                + (f" ({b['pct_of_peak']:.0f} % of the DRAM peak)" if isinstance(b.get("pct_of_peak"), (int, float)) else ""))
    return f"{b.get('checked_bytes_per_second', 0) / 1e12:.2f} TB/s checked"


def judge(benchmarks):
    """The group's findings, or None where the run holds no Integrity entry."""
    found = screens(benchmarks)
    if not found:
        return None
    out = []
    for screen, what in SCREENS.items():
        b = found.get(screen)
        if b is None:
            out.append(Finding(what, "skipped", None, "not in this run"))
            continue
        if not resultfile.measured(b):
            why = resultfile.skip_reason(b)
            if why is not None:
                out.append(Finding(what, "skipped", None, f"does not apply to this GPU: {why}"))
            else:
                out.append(Finding(what, "fail", None, f"the screen failed: {b.get('error_message', '?')}"))
            continue
        n = int(b.get("mismatches", 0))
        seconds = f"{b.get('screen_seconds', 0):.1f} s"
        if n:
            shown = b.get("mismatches_found") or []
            words = "; ".join(place(screen, m) for m in shown[:SHOWN])
            more = f"; {n - min(n, SHOWN)} more" if n > SHOWN else ""
            out.append(Finding(what, "fail", n, f"{n} wrong value(s): {words}{more}"))
        elif screen in PER_SM and b.get("sms_covered", 0) < b.get("sm_count", 0):
            out.append(Finding(what, "fail", 0, f"ran on {b.get('sms_covered'):.0f} of {b.get('sm_count'):.0f} SMs: "
                                               "the others were not screened"))
        else:
            out.append(Finding(what, "pass", 0, f"no wrong value in {seconds}, {_rate(screen, b)}"))
    return out


#!/usr/bin/env python3
"""Compares archbench runs: a contender against a baseline, with the noise the history shows.

Usage: compare.py [--history FILE_OR_DIR ...] [--markdown] [--table FILE.csv] [--top N]
                  [--alpha Q] [--floor PCT] BASELINE CONTENDER

What is compared (docs/regression.md has the whole rule):
- Each benchmark's *declared* primary metrics, read from its JSON label
  (`primary=latency_cycles:lower`, `primary=capacity_bytes:5%`). Files written before the
  declaration existed fall back to LEGACY_RULES. Wall time is never a metric.
- A measured metric (higher/lower) changes when its relative change is at least the minimum
  effect of its kind (MIN_EFFECT_PCT, by the counter's unit) and, where the noise is known,
  significant after Benjamini-Hochberg control of the false-discovery rate over all benchmarks
  (q < --alpha):
    * with --history (earlier runs of the same GPU model): the look-back test, the contender
      against the spread of the history and the baseline (t distribution, n - 1 degrees of
      freedom), and the change must leave the band of 3 standard deviations;
    * else with repetitions on both sides (>= 2): Welch's t-test on the logarithms (scipy);
    * else (single runs, no history) the noise is unknown: the change must exceed --floor;
    * in every case the band is at least 3 standard errors of the difference of the medians
      where a benchmark reports the spread of its own samples (<metric>_sd_pct, _samples), and
      at least the range over CUDA contexts where it reports one (<metric>_context_min/_max).
- An inferred value (capacity, line, banks, ...) changes when it moves by more than its declared
  tolerance: a finding, not noise.
- Per feature, the median change of all its measured metrics with a sign test: a whole feature
  that moved together (a driver, a clock policy, a slower kernel everywhere) is flagged even
  when each benchmark alone is within its noise.

- Method identifiers: each benchmark's label carries one (`| method=...`, fixtures/method_ids.hpp).
  A benchmark whose method differs between the two files is never judged: it is listed under
  "method changed" with the size of its move, and a history is split there (only earlier runs of
  the contender's method give its band). A file written before identifiers existed takes its
  methods from results/method-ledger.json (its commit's kernel code, scripts/method_digest.py);
  one that is not there either has unknown methods, listed and not judged, unless
  --legacy-methods=same says to take them as unchanged.

Output: one screen (per feature: compared, changed, improved, regressed, median shift; the top
movers with metric and unit; the verdict), --markdown for CI, --table for the full table.
Exit codes: 0 no regression, 1 a regression or a changed inferred value, 2 unreadable input.
"""
import argparse
import csv
import glob
import gzip
import json
import math
import os
import re
import statistics
import sys
import warnings as _warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resultfile  # noqa: E402

# Nearly identical repetitions make scipy warn about precision; the p-value is still right.
_warnings.filterwarnings("ignore", category=RuntimeWarning)

try:
    from scipy import stats as _stats
except ImportError:  # the decision still works without a p-value; say so in the report
    _stats = None

# Minimum relative change (%) that counts, by the metric's kind (its unit).
MIN_EFFECT_PCT = {"cycles": 2.0, "per_clk": 2.0, "bytes_per_second": 2.0, "per_second": 2.0, "clock_mhz": 2.0,
                  "ns": 2.0, "energy": 5.0, "other": 5.0}  # ns: launch costs; the host-side ones take their band from history
FEATURE_MIN_SHIFT_PCT = 1.5   # a feature's median shift that counts
FEATURE_ALPHA = 0.01          # sign test, divided among the features (Bonferroni)
BAND_SIGMAS = 3.0
DEFAULT_FLOOR_PCT = 10.0      # single runs with no history: the noise is unknown
# Features whose figures depend on the host (its CPU, memory and driver path, which differ from
# node to node): without a history, a change counts only past this floor. Two H100 nodes of one
# A/A pair differed by up to 28 % there (launch latencies, pageable and small pinned copies).
HOST_FEATURES = ("Launch", "HostLink")
HOST_FLOOR_PCT = 30.0

# For result files written before benchmarks declared their metrics (no primary= label).
LEGACY_RULES = [  # (name prefix, [(counter, kind, tolerance %)]) -- the longest prefix wins
    ("MemLatency/", [("latency_cycles", "lower", 0)]),
    ("Pipeline/latency/", [("latency_cycles", "lower", 0)]),
    ("Pipeline/throughput/", [("inst_per_clk_per_sm", "higher", 0)]),
    ("Bandwidth/", [("bytes_per_clk_per_sm", "higher", 0)]),
    ("Atomics/", [("atomics_per_clk", "higher", 0)]),
    ("Atomics/latency/", [("latency_cycles", "lower", 0)]),
    ("SmemBanks/latency/", [("latency_cycles", "lower", 0)]),
    ("SmemBanks/throughput/", [("cycles_per_access", "lower", 0)]),
    ("SmemBanks/geometry", [("banks", "value", 0), ("bank_width_bytes", "value", 0)]),
    ("Dsm/latency/", [("remote_cycles", "lower", 0)]),
    ("Dsm/bandwidth/", [("bytes_per_clk_per_sm", "higher", 0)]),
    ("Tlb/latency/", [("latency_cycles", "lower", 0)]),
    ("Tlb/geometry/", [("levels", "value", 0), ("page_size_bytes", "value", 0)]),
    ("TensorCore/", [("flop_per_clk_per_sm", "higher", 0)]),
    ("TensorCore/mma_sync/latency/", [("latency_cycles", "lower", 0)]),
    ("TensorCore/wgmma/latency/", [("latency_cycles", "lower", 0)]),
    ("TensorCore/cublas/", [("flops", "higher", 0)]),
    ("Scheduling/timeline/", [("coresident_blocks_per_sm", "value", 0)]),
    ("Scheduling/warp_schedulers/", [("schedulers", "value", 0)]),
    ("Scheduling/sustained_clock/", [("sm_clock_sustained_mhz", "higher", 0)]),
    ("Scheduling/icache/", [("cycles_per_instruction", "lower", 0)]),
    ("Scheduling/icache_geometry/", [("level1_capacity_bytes", "value", 10)]),
    ("Geometry/", [("latency_cycles", "lower", 0)]),
    ("Geometry/l1/capacity/", [("capacity_bytes", "value", 5)]),
    ("Geometry/l1/line", [("line_bytes", "value", 0)]),
    ("Geometry/l1/sets_ways", [("sets", "value", 0), ("ways", "value", 0)]),
    ("Geometry/fill/ld.ca", [("l1_fill_bytes", "value", 0), ("l2_fill_bytes", "value", 0)]),
    ("Geometry/fill/ld.cg", [("l2_fill_bytes", "value", 0)]),
    ("Geometry/fill/ld.ca/stride:", [("latency_cycles", "lower", 0)]),
    ("Geometry/fill/ld.cg/stride:", [("latency_cycles", "lower", 0)]),
    ("Geometry/l2/capacity", [("capacity_bytes", "value", 5), ("near_partition_bytes", "value", 10)]),
    ("Geometry/l2/line", [("line_bytes", "value", 0)]),
    ("Geometry/l2/sm_map", [("near_median_cycles", "lower", 0), ("far_median_cycles", "lower", 0)]),
    ("Geometry/readonly/capacity", [("capacity_bytes", "value", 5)]),
    ("Geometry/readonly/shares_l1", [("shares_storage", "value", 0)]),
    ("Geometry/constant/capacity", [("levels", "value", 0)]),
    ("P2P/", [("gpus", "value", 0)]),
    ("P2P/link/", [("link_peak_bytes_per_second", "value", 0)]),
    ("P2P/copy/", [("bytes_per_second", "higher", 0)]),
    ("P2P/remote_read/", [("bytes_per_second", "higher", 0)]),
    ("P2P/remote_write/", [("bytes_per_second", "higher", 0)]),
    ("P2P/latency/", [("latency_cycles", "lower", 0)]),
    ("P2P/atomics/", [("atomics_per_clk", "higher", 0)]),
]

UNITS = {"cycles": "cycles", "per_clk": "per clk", "bytes_per_second": "B/s", "per_second": "per s", "clock_mhz": "MHz",
         "ns": "ns", "energy": "pJ", "other": ""}


class InputError(Exception):
    pass


def metric_kind(counter):
    """The kind of a counter, from the unit its name carries (DESIGN.md: names carry the unit)."""
    if counter.endswith("_cycles") or counter.startswith("cycles_per_"):
        return "cycles"
    if counter.startswith("pj_per_"):
        return "energy"  # Energy: picojoules per operation, byte or FLOP
    if "per_clk" in counter:
        return "per_clk"
    if counter.endswith("bytes_per_second"):
        return "bytes_per_second"
    if counter == "flops" or counter.endswith("_per_second"):
        return "per_second"
    if counter.endswith("_mhz"):
        return "clock_mhz"
    if counter.endswith("_ns"):
        return "ns"
    return "other"


METHOD_PREFIX = "method="


def label_method(label):
    """The method identifier in a label ('primary=... | method=3f2a9c1b7e40 | note'), or None."""
    if not isinstance(label, str):
        return None
    for part in label.split(" | ")[1:]:
        if part.startswith(METHOD_PREFIX):
            return part[len(METHOD_PREFIX):].strip() or None
    return None


def parse_label(label):
    """'primary=a:lower,b:5% | note' -> ([(a, 'lower', 0), (b, 'value', 5.0)], 'note'); ([], label) if none.
    The method segment ('| method=...') is not part of the note."""
    if not isinstance(label, str) or not label.startswith("primary="):
        return [], label or ""
    decl, _, note = label.partition(" | ")
    note = " | ".join(p for p in note.split(" | ") if not p.startswith(METHOD_PREFIX)) if note else note
    out = []
    for item in decl[len("primary="):].split(","):
        counter, _, how = item.strip().rpartition(":")
        if not counter:
            raise InputError(f"malformed primary declaration '{decl}'")
        if how in ("higher", "lower"):
            out.append((counter, how, 0.0))
        elif how.endswith("%"):
            try:
                out.append((counter, "value", float(how[:-1])))
            except ValueError:
                raise InputError(f"malformed tolerance in '{decl}'")
        else:
            raise InputError(f"malformed primary declaration '{decl}'")
    return out, note


def legacy_primary(name):
    best = None
    for prefix, metrics in LEGACY_RULES:
        if name.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, metrics)
    return list(best[1]) if best else []


_ITERATIONS = re.compile(r"/iterations:\d+")


def benchmark_key(name):
    """A benchmark's name without Google Benchmark's '/iterations:N': a change of the timed
    launches per benchmark (Atomics went from 3 to 5) must not cut a benchmark off its history."""
    return _ITERATIONS.sub("", name)


# Counters renamed since: a file written before is read under the new name, so the history
# carries over the rename. (l2_split_confidence is not here: it held robust separations until
# 2026-11-24 and a probability after, now l2_split_probability; another meaning, not a rename.)
RENAMED = {"inst_per_clk_per_sm": "thread_inst_per_clk_per_sm"}


def feature_of(name):
    return name.split("/", 1)[0]


class Run:
    """One result file: its context, per benchmark the values of each counter (one per
    repetition), its declared primaries, and whether it declared them or fell back."""

    def __init__(self, path, context, values, primary, declared, errors, methods=None, method_source=None,
                 skips=None):
        self.path, self.context, self.values, self.primary = path, context, values, primary
        self.declared, self.errors = declared, errors
        self.skips = skips or set()  # benchmarks skipped as not for this GPU (resultfile.skip_reason)
        # {benchmark: method identifier or None (unknown)}; where they came from: "label" (the
        # file's own), "ledger" (its commit's entry), "assumed" (--legacy-methods=same), "unknown"
        self.methods = methods or {}
        self.method_source = method_source or "unknown"


# results/method-ledger.json beside this script's results/: legacy files' methods by commit.
DEFAULT_LEDGER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results",
                              "method-ledger.json")
UNVERSIONED = "unversioned"  # --legacy-methods=same: a file without identifiers, taken as unchanged


def load_ledger(path):
    """{commit: {feature: method}} from a ledger file; {} when there is none."""
    if not path or not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            commits = json.load(f).get("commits", {})
    except (OSError, ValueError, UnicodeDecodeError, AttributeError) as e:
        raise InputError(f"{path}: not a method ledger ({e})")
    if not isinstance(commits, dict):
        raise InputError(f"{path}: not a method ledger (no 'commits' object)")
    return commits


def ledger_methods(ledger, sha):
    """The ledger's entry for a commit (its short or full sha), or None."""
    if not sha:
        return None
    for key, entry in ledger.items():
        if key.startswith(sha) or sha.startswith(key):
            return entry
    return None


def assign_methods(run, ledger, legacy="ledger"):
    """Fills run.methods for a file without identifiers of its own: from the ledger by its
    commit, else unknown (None), or with legacy='same' the one shared UNVERSIONED method."""
    if run.method_source == "label":
        return run
    entry = ledger_methods(ledger, str(run.context.get("archbench_git_sha", "")))
    if entry is not None:
        run.methods = {name: entry.get(feature_of(name)) for name in run.values}
        run.method_source = "ledger"
    elif legacy == "same":
        run.methods = {name: UNVERSIONED for name in run.values}
        run.method_source = "assumed"
    else:
        run.methods = {name: None for name in run.values}
        run.method_source = "unknown"
    return run


_ledger_cache = {}


def default_ledger():
    if "ledger" not in _ledger_cache:
        _ledger_cache["ledger"] = load_ledger(DEFAULT_LEDGER)
    return _ledger_cache["ledger"]


def load(path, ledger=None, legacy="ledger"):
    """A result file (.json, or .json.gz as large runs are committed): scripts/resultfile.py.
    Its methods come from its labels, else from `ledger` (default: results/method-ledger.json)."""
    run = load_file(path)
    return assign_methods(run, default_ledger() if ledger is None else ledger, legacy)


def load_file(path):
    try:
        doc = resultfile.load(path)
    except resultfile.ResultError as e:
        raise InputError(str(e))
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    values, primary, errors, methods, skips = {}, {}, set(), {}, set()
    declared = 0
    has_ids = context.get("archbench_method_ids") == "label"
    for b in doc["benchmarks"]:
        if not isinstance(b, dict) or b.get("run_type") == "aggregate":
            continue
        name = b.get("run_name") or b.get("name")
        if not isinstance(name, str) or not name:
            continue
        name = benchmark_key(name)
        if resultfile.skip_reason(b) is not None:  # not for this GPU: neither a failure nor a metric
            skips.add(name)
            continue
        if b.get("error_occurred"):
            errors.add(name)
            continue
        try:
            decl, _ = parse_label(b.get("label", ""))
        except InputError as e:
            raise InputError(f"{path}: {name}: {e}")
        if decl:
            declared += 1
        if has_ids:
            methods[name] = label_method(b.get("label", ""))
        primary.setdefault(name, [(RENAMED.get(c, c), how, tol) for c, how, tol in decl or legacy_primary(name)])
        entry = values.setdefault(name, {})
        old_name = {new: old for old, new in RENAMED.items()}
        for counter, _, _ in primary[name]:
            # The metric, the spread of the samples it is the median of (report_sampled), and its
            # range over CUDA contexts.
            for key in (counter, counter + SAMPLE_SD_SUFFIX, counter + SAMPLE_COUNT_SUFFIX,
                        counter + CONTEXT_MIN_SUFFIX, counter + CONTEXT_MAX_SUFFIX):
                v = b.get(key, b.get(key.replace(counter, old_name.get(counter, counter), 1)))
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    entry.setdefault(key, []).append(float(v))
    return Run(path, context, values, primary, declared, errors, methods, "label" if has_ids else None, skips)


def load_history(paths, model, ledger=None, legacy="ledger"):
    """The runs of the history (files, or folders of *.json) of the same GPU model, oldest first
    by their context's date; others are skipped with a note."""
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.json")) + glob.glob(os.path.join(p, "*.json.gz"))) \
            if os.path.isdir(p) else [p]
    runs, notes = [], []
    for f in files:
        try:
            r = load(f, ledger, legacy)
        except InputError as e:
            notes.append(f"history: skipped {e}")
            continue
        if r.context.get("archbench_fault"):
            notes.append(f"history: skipped {f}: a planted-fault run")
            continue
        if model and r.context.get("gpu_name") != model:
            notes.append(f"history: skipped {f}: GPU '{r.context.get('gpu_name')}' is not '{model}'")
            continue
        runs.append(r)
    runs.sort(key=lambda r: str(r.context.get("date", "")))
    return runs, notes


PART = "gpu_board_part_number"


def noise_history(cont, runs):
    """The runs of `runs` whose spread is the contender's noise, and a note on the choice:
    the contender's board's own runs when there are two or more; else those of its board part
    (one part number: on the H200, -000 and -001 boards differ in DRAM latency by 3.7 % and in
    DRAM-bound rates by 2-4 %, more than the runs of one part differ); else none, and the pair
    is judged as without a history (the floor). A contender that names no part keeps the model's
    runs (files written before the part number was recorded)."""
    board, part = cont.context.get("gpu_uuid"), cont.context.get(PART)
    own = [r for r in runs if r.context.get("gpu_uuid") == board]
    if len(own) >= 2:
        return own, None
    if not part:
        return list(runs), ("note: no run of the contender's board in the history and no board part number: the "
                            "model's runs are the history; what differs between boards of the model counts as a change "
                            "(docs/regression.md, section 4)" if runs else None)
    same_part = [r for r in runs if r.context.get(PART) == part]
    if len(same_part) >= 2:
        return same_part, (f"note: history: the {len(same_part)} run(s) of board part {part} (fewer than two of the "
                           "contender's board)")
    if not runs:
        return [], None
    return [], (f"note: no run of the contender's board in the history and fewer than two of its board part {part}: "
                "judged without a history (the floor), since other parts differ by more than their runs do "
                "(docs/regression.md, section 4)")


# --- statistics ------------------------------------------------------------------------------------

def _logs(values):
    return [math.log(v) for v in values if v > 0]


def welch_p(a, b):
    """Two-sided p of Welch's t-test on the logarithms; None when it cannot be computed."""
    la, lb = _logs(a), _logs(b)
    if len(la) < 2 or len(lb) < 2:
        return None
    if statistics.pvariance(la) == 0 and statistics.pvariance(lb) == 0:
        return 1.0 if statistics.mean(la) == statistics.mean(lb) else 0.0
    if _stats is None:
        return None
    return float(_stats.ttest_ind(la, lb, equal_var=False).pvalue)


ROBUST_FROM = 5  # centres from which the band is robust (median absolute deviation)

# A benchmark whose metric is the median of several samples in the run (launches, placements of
# its data) reports their spread beside it: <metric>_sd_pct and <metric>_samples.
SAMPLE_SD_SUFFIX, SAMPLE_COUNT_SUFFIX = "_sd_pct", "_samples"
MEDIAN_EFFICIENCY = 1.2533  # the standard error of a median is ~1.2533 x that of a mean


def sample_sigma_pct(base_entry, cont_entry, counter):
    """The standard error (%) of the difference of the two sides' medians, from the spread of each
    side's own samples; None when a side did not report one. It is a lower bound of the noise: a
    spread that only shows between runs (another board, another allocation) is not in it."""
    parts = []
    for entry in (base_entry, cont_entry):
        sd, n = entry.get(counter + SAMPLE_SD_SUFFIX), entry.get(counter + SAMPLE_COUNT_SUFFIX)
        if not sd or not n or statistics.median(n) < 2:
            return None
        parts.append((MEDIAN_EFFICIENCY * statistics.median(sd)) ** 2 / statistics.median(n))
    return math.sqrt(sum(parts))


# A benchmark whose metric depends on the CUDA context (Sync: GPU- and system-scope fences)
# reports the range over several contexts beside it:
# <metric>_context_min and _context_max. A run in another process may read anywhere in that range.
CONTEXT_MIN_SUFFIX, CONTEXT_MAX_SUFFIX = "_context_min", "_context_max"


def context_range_pct(base_entry, cont_entry, counter):
    """The wider of the two sides' context ranges, in % of the side's metric; None when neither
    side reported one."""
    widths = []
    for entry in (base_entry, cont_entry):
        lo, hi, v = entry.get(counter + CONTEXT_MIN_SUFFIX), entry.get(counter + CONTEXT_MAX_SUFFIX), entry.get(counter)
        if lo and hi and v and statistics.median(v):
            widths.append(100 * (statistics.median(hi) - statistics.median(lo)) / abs(statistics.median(v)))
    return max(widths) if widths else None


def lookback(centres, value):
    """The look-back test: `value` against earlier centres (>= 3). From ROBUST_FROM centres on,
    robustly: the median and 1.4826 x the median absolute deviation of their logarithms, so a
    step already in the history, or one odd night, does not widen the band. With fewer, the
    median absolute deviation says nothing (one odd night of three makes it 0): the standard
    deviation is used. Returns (p, sigma as a relative fraction), p from the t distribution with
    n - 1 degrees of freedom."""
    logs = _logs(centres)
    if len(logs) < 3 or value <= 0:
        return None, None
    n = len(logs)
    centre = statistics.median(logs)
    if n >= ROBUST_FROM:
        sd = 1.4826 * statistics.median(abs(x - centre) for x in logs)
    else:
        sd = statistics.stdev(logs)
    if sd == 0:
        return (1.0 if math.log(value) == centre else 0.0), 0.0
    t = (math.log(value) - centre) / (sd * math.sqrt(1 + 1 / n))
    p = float(2 * _stats.t.sf(abs(t), n - 1)) if _stats else None
    return p, math.expm1(sd)


def benjamini_hochberg(ps):
    """q-values for a list of p-values (None stays None)."""
    idx = [i for i, p in enumerate(ps) if p is not None]
    q = [None] * len(ps)
    if not idx:
        return q
    if _stats is not None and hasattr(_stats, "false_discovery_control"):
        adj = _stats.false_discovery_control([ps[i] for i in idx], method="bh")
        for i, v in zip(idx, adj):
            q[i] = float(v)
        return q
    m = len(idx)
    order = sorted(idx, key=lambda i: ps[i])
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        q[i] = running
    return q


def sign_test_p(worse, better):
    n = worse + better
    if n == 0:
        return 1.0
    if _stats is not None:
        return float(_stats.binomtest(worse, n, 0.5).pvalue)
    k = max(worse, better)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


# --- the comparison --------------------------------------------------------------------------------

# The axes along which a cache edge moves a point (neighbour_steps): footprint, stride.
_AXES = (re.compile(r"/(footprint):(\d+)"), re.compile(r"/(stride):(\d+)"))


def neighbour_steps(run):
    """For each benchmark with a footprint or a stride in its name and each of its counters: the
    change (%) between its two neighbours along that axis in the same series, relative to its own
    value, the larger of the two axes (a point between them can move anywhere between them when
    the edge shifts: a cache's capacity along the footprint, its sets' conflicts along the stride)."""
    steps = {}
    for axis in _AXES:
        series = {}
        for name, values in run.values.items():
            m = axis.search(name)
            # Along the stride, only a chase over a footprint: its working set is footprint /
            # stride lines (elsewhere a stride sets a conflict degree, not a cache edge).
            if m and (axis is _AXES[0] or _AXES[0].search(name)):
                series.setdefault(axis.sub(f"/{m.group(1)}:*", name), []).append((int(m.group(2)), name, values))
        for points in series.values():
            points.sort(key=lambda p: p[0])
            for i in range(1, len(points) - 1):
                name, values = points[i][1], points[i][2]
                for counter, v in values.items():
                    lo, hi = points[i - 1][2].get(counter), points[i + 1][2].get(counter)
                    if not (v and lo and hi and statistics.median(v)):
                        continue
                    c, l, h = statistics.median(v), statistics.median(lo), statistics.median(hi)
                    # Strides are octaves apart: a point beside an edge stays on its plateau, and
                    # only one between the two, off both, moves with the edge.
                    if axis is _AXES[1] and min(abs(c - l), abs(c - h)) < 0.1 * abs(h - l):
                        continue
                    steps[(name, counter)] = max(100 * abs(h - l) / abs(c), steps.get((name, counter), 0.0))
    return steps


def transition_step_pct(steps, name, counter):
    return steps.get((name, counter))


BOARD_DRAM = "archbench_board_dram_latency_cycles"
BOARD_GRID = "archbench_board_grid_barrier_cycles"
BOARD_MIN_PCT = 0.5  # fingerprints closer than this are one board class


# The board's fingerprint (docs/regression.md, section 6): uncore latencies the run measures once
# at start-up, each with the rows it explains. A row that contains such an access moves by that
# many cycles on another board, and that move is the board's, not a change.
#   context key: (what it is, which rows: (name, kind, how, ref, fingerprint) -> bool)
BOARD_FINGERPRINTS = {
    BOARD_DRAM: ("DRAM latency",
                 lambda name, kind, how, ref, fp: kind == "cycles" and how == "lower" and ref >= 0.9 * fp),
    BOARD_GRID: ("grid barrier",
                 lambda name, kind, how, ref, fp: name.startswith("Sync/grid/") and kind == "cycles" and how == "lower"),
}


def board_value(run, key):
    try:
        v = float(run.context.get(key, ""))
        return v if v > 0 else None
    except ValueError:
        return None


def board_steps(base, cont):
    """{context key: (baseline, contender)} of each fingerprint that differs between two boards."""
    if base.context.get("gpu_uuid") == cont.context.get("gpu_uuid"):
        return {}
    out = {}
    for key in BOARD_FINGERPRINTS:
        a, b = board_value(base, key), board_value(cont, key)
        if a is not None and b is not None and abs(b / a - 1) * 100 >= BOARD_MIN_PCT:
            out[key] = (a, b)
    return out


def compare(base, cont, history=(), alpha=0.05, floor_pct=DEFAULT_FLOOR_PCT):
    """Rows, one per benchmark x primary metric present on both sides, and feature summaries."""
    rows = []
    steps = neighbour_steps(base)
    other_node = base.context.get("gpu_uuid") != cont.context.get("gpu_uuid")
    # Another board whose fingerprint differs: a latency that contains such an access moves by
    # that many cycles on it, and that move is the board's, not a change.
    boards = board_steps(base, cont)
    for name in sorted(set(base.values) & set(cont.values)):
        method = cont.methods.get(name)
        method_moved = method is None or base.methods.get(name) != method
        for counter, how, tol in cont.primary.get(name, []):
            a, b = base.values[name].get(counter), cont.values[name].get(counter)
            if not a or not b:
                continue
            ma, mb = statistics.median(a), statistics.median(b)
            if method_moved:
                # Another method (or one not known): its move is listed with its size, never judged.
                rows.append({"feature": feature_of(name), "name": name, "counter": counter, "how": how, "base": ma,
                             "ref": ma, "cont": mb, "kind": metric_kind(counter), "p": None, "q": None,
                             "sigma_pct": None, "threshold_pct": math.inf,
                             "noise": "method unknown" if method is None or base.methods.get(name) is None
                             else "method changed",
                             "status": "method changed",
                             "change_pct": (0.0 if mb == ma else math.inf) if ma == 0 else 100 * (mb - ma) / abs(ma),
                             "base_method": base.methods.get(name), "cont_method": method})
                continue
            # With a history, the reference is the median of its centres and the baseline's, so
            # one odd baseline does not make every later run look changed (look-back). Only runs
            # of the contender's method count: a history is split at a method change.
            centres = [statistics.median(h.values[name][counter]) for h in history
                       if counter in h.values.get(name, {}) and h.methods.get(name) == method]
            ref = statistics.median(centres + [ma]) if len(centres) >= 2 else ma
            row = {"feature": feature_of(name), "name": name, "counter": counter, "how": how, "base": ma,
                   "ref": ref, "cont": mb, "kind": metric_kind(counter), "p": None, "q": None, "sigma_pct": None,
                   "noise": "none", "status": "same", "base_method": base.methods.get(name), "cont_method": method}
            if ref == 0:
                row["change_pct"] = 0.0 if mb == 0 else math.inf
            else:
                row["change_pct"] = 100 * (mb - ref) / abs(ref)
            rows.append(row)
            if how == "value":
                row["threshold_pct"] = tol
                if abs(row["change_pct"]) > tol + 1e-9:
                    row["status"] = "value changed"
                continue
            # Worse is positive: a cost that grew, a rate that fell.
            row["worse_pct"] = row["change_pct"] if how == "lower" else -row["change_pct"]
            threshold = MIN_EFFECT_PCT[row["kind"]]
            if len(centres) + 1 >= 3:
                p, sigma = lookback(centres + [ma], mb)
                row.update(p=p, noise=f"history of {len(centres) + 1}")
                if sigma is not None:
                    row["sigma_pct"] = 100 * sigma
                    threshold = max(threshold, BAND_SIGMAS * 100 * sigma)
            elif len(a) >= 2 and len(b) >= 2:
                row.update(p=welch_p(a, b), noise=f"repetitions {len(a)}+{len(b)}")
                spread = max(statistics.stdev(a) / abs(statistics.mean(a)) if statistics.mean(a) else 0,
                             statistics.stdev(b) / abs(statistics.mean(b)) if statistics.mean(b) else 0)
                row["sigma_pct"] = 100 * spread
                threshold = max(threshold, BAND_SIGMAS * 100 * spread)
            else:
                threshold = max(threshold, HOST_FLOOR_PCT if row["feature"] in HOST_FEATURES else floor_pct)
            if row["feature"] in HOST_FEATURES and other_node and len(centres) < 2:
                # Another node and no history of this one: its host is not the baseline's.
                row.update(threshold_pct=math.inf, noise="another node: host-dependent, not judged")
                continue
            # A point on a transition (its neighbours in footprint differ by far more than the
            # band: a TLB or cache edge) moves with any sub-% shift of the edge: its band is the
            # step between its neighbours.
            step = transition_step_pct(steps, name, counter)
            if step is not None and step > threshold:
                threshold = step
                row["noise"] += ", transition"
            # Never tighter than the benchmark's own samples allow.
            within = sample_sigma_pct(base.values[name], cont.values[name], counter)
            if within is not None and BAND_SIGMAS * within > threshold:
                threshold = BAND_SIGMAS * within
                row["sigma_pct"] = max(row["sigma_pct"] or 0.0, within)
                row["noise"] += ", samples"
            # Nor than the spread between CUDA contexts, where the benchmark measured one.
            contexts = context_range_pct(base.values[name], cont.values[name], counter)
            if contexts is not None and contexts > threshold:
                threshold = contexts
                row["noise"] += ", contexts"
            row["threshold_pct"] = threshold
            for key, (fa, fb) in boards.items():
                if BOARD_FINGERPRINTS[key][1](name, row["kind"], how, ref, fa):
                    row["board_pct"], row["board_key"] = 100 * (fb - fa) / ref, key
                    break
    qs = benjamini_hochberg([r["p"] for r in rows])
    for r, q in zip(rows, qs):
        r["q"] = q
        if r["how"] == "value" or r["status"] == "method changed":
            continue
        big = abs(r["worse_pct"]) >= r["threshold_pct"]
        significant = q is None or q < alpha
        if big and significant:
            r["status"] = "regressed" if r["worse_pct"] > 0 else "improved"
            if "board_pct" in r and abs(r["change_pct"] - r["board_pct"]) < r["threshold_pct"]:
                r["status"] = "another board"  # the move is the boards' fingerprint's
    return rows, feature_shifts(rows)


def feature_shifts(rows):
    """Per feature: the median worse-% of its measured metrics and a sign test over them."""
    by_feature = {}
    for r in rows:
        by_feature.setdefault(r["feature"], []).append(r)
    features = {}
    n_features = max(1, len(by_feature))
    for feat, rs in sorted(by_feature.items()):
        measured = [r["worse_pct"] for r in rs if "worse_pct" in r and math.isfinite(r["worse_pct"])
                    and math.isfinite(r.get("threshold_pct", 0.0))]  # not the rows not judged
        f = {"compared": len(rs),
             "changed": sum(r["status"] not in ("same", "method changed", "another board") for r in rs),
             "another_board": sum(r["status"] == "another board" for r in rs),
             "method_changed": sum(r["status"] == "method changed" for r in rs),
             "improved": sum(r["status"] == "improved" for r in rs),
             "regressed": sum(r["status"] == "regressed" for r in rs),
             "values_changed": sum(r["status"] == "value changed" for r in rs),
             "shift_pct": statistics.median(measured) if measured else 0.0, "shift": "none", "shift_p": 1.0}
        worse = sum(w > 0.1 for w in measured)
        better = sum(w < -0.1 for w in measured)
        f["shift_p"] = sign_test_p(worse, better)
        f["worse"], f["better"] = worse, better
        if len(measured) >= 5 and abs(f["shift_pct"]) >= FEATURE_MIN_SHIFT_PCT and \
                f["shift_p"] < FEATURE_ALPHA / n_features:
            f["shift"] = "worse" if f["shift_pct"] > 0 else "better"
        features[feat] = f
    return features


def feature_reasons(f, improvements=False):
    """Why a feature's summary is flagged: regressions, changed values and a worse shift; with
    `improvements`, what got better too (for a planted-fault table, where any flag counts)."""
    why = []
    if f["regressed"]:
        why.append(f"{f['regressed']} regressed")
    if improvements and f["improved"]:
        why.append(f"{f['improved']} improved")
    if f["values_changed"]:
        why.append(f"{f['values_changed']} inferred value(s) changed")
    if f["shift"] == "worse" or (improvements and f["shift"] != "none"):
        why.append(f"the whole feature {f['shift_pct']:+.2f} % {f['shift']}")
    return why


def verdict(features):
    return [f"{feat} ({', '.join(why)})" for feat, f in features.items() if (why := feature_reasons(f))]


# --- output ----------------------------------------------------------------------------------------

def fmt_value(v, kind):
    if kind == "bytes_per_second":
        return f"{v / 1e9:.4g} GB/s"
    unit = UNITS.get(kind, "")
    return f"{v:.5g}{(' ' + unit) if unit else ''}"


def short(name):
    """The name without Google Benchmark's '/iterations:N/manual_time' tail."""
    return name.split("/iterations:")[0].replace("/manual_time", "")


def describe(run):
    c = run.context
    bits = [c.get("gpu_name", "?"), "uuid " + str(c.get("gpu_uuid", "?"))[:12], "sha " + str(c.get("archbench_git_sha", "?")),
            str(c.get("date", "?"))[:16]]
    if c.get("archbench_fault"):
        bits.append("PLANTED " + c["archbench_fault"])
    return ", ".join(bits)


def summary(base, cont, rows, features, history_n, top, markdown, notes=()):
    out = []
    h = "## " if markdown else ""
    out.append(f"{h}archbench compare")
    out.append(f"- baseline:  `{base.path}` ({describe(base)})" if markdown else f"baseline:  {base.path} ({describe(base)})")
    out.append(f"- contender: `{cont.path}` ({describe(cont)})" if markdown else f"contender: {cont.path} ({describe(cont)})")
    noise = f"history of {history_n} earlier run(s) and the baseline" if history_n >= 2 else \
        "repetitions where both sides have them, else unknown (single runs: the floor decides)"
    sampled = sum(1 for r in rows if r["noise"].endswith("samples"))
    if sampled:
        noise += f"; {sampled} band(s) widened to the benchmark's own samples"
    out.append(("- " if markdown else "") + f"noise: {noise}; FDR (Benjamini-Hochberg) over {len(rows)} metrics")
    for n in notes:
        out.append(("- " if markdown else "") + n)
    out.append("")
    header = ["feature", "compared", "changed", "improved", "regressed", "values changed", "method changed",
              "median shift"]
    table = []
    for feat, f in features.items():
        shift = f"{f['shift_pct']:+.2f} %" + (f" ({f['shift'].upper()})" if f["shift"] != "none" else "")
        table.append([feat, f["compared"], f["changed"], f["improved"], f["regressed"], f["values_changed"],
                      f["method_changed"], shift])
    total = ["total"] + [sum(f[k] for f in features.values()) for k in
                         ("compared", "changed", "improved", "regressed", "values_changed", "method_changed")] + [""]
    table.append(total)
    if markdown:
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        out += ["| " + " | ".join(str(c) for c in row) + " |" for row in table]
    else:
        widths = [max(len(str(r[i])) for r in table + [header]) for i in range(len(header))]
        out.append("  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(header, widths))))
        out += ["  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
                for row in table]
    out += method_section(rows, top, markdown)
    out += board_section(base, cont, rows, top, markdown)
    movers = sorted((r for r in rows if r["status"] not in ("same", "method changed", "another board")),
                    key=lambda r: (r["status"] == "improved", -abs(r["change_pct"]) if math.isfinite(r["change_pct"]) else -1e30))
    out.append("")
    out.append(f"{h}Top movers ({min(top, len(movers))} of {len(movers)} changed)" if movers else "No benchmark changed.")
    for r in movers[:top]:
        q = "" if r["q"] is None else f"; q {r['q']:.2g}"
        band = f"tolerance {r['threshold_pct']:g} %" if r["how"] == "value" else f"threshold {r['threshold_pct']:.2g} %"
        line = (f"{r['status'].upper():13s} {short(r['name'])}  {r['counter']}: {fmt_value(r['ref'], r['kind'])} -> "
                f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %; {band}{q})")
        out.append(("- " + line) if markdown else "  " + line)
    shifted = [(f, s) for f, s in features.items() if s["shift"] != "none"]
    if shifted:
        out.append("")
        for feat, s in shifted:
            out.append(("- " if markdown else "") + f"Feature shift: {feat} {s['shift']} by {abs(s['shift_pct']):.2f} % "
                       f"(median of {s['worse'] + s['better']} moving metrics: {s['worse']} worse, {s['better']} better; "
                       f"sign test p {s['shift_p']:.2g})")
    only_b = sorted(set(base.values) - set(cont.values))
    only_c = sorted(set(cont.values) - set(base.values))
    failed = sorted(cont.errors - base.errors)
    out.append("")
    skipped = sorted(cont.skips - base.skips)
    out.append(f"{len(only_b)} benchmark(s) only in the baseline, {len(only_c)} only in the contender, "
               f"{len(failed)} failed in the contender only"
               + (f", {len(skipped)} skipped in the contender only (not for this GPU)" if skipped else ""))
    for n in failed[:10]:
        out.append(f"  failed in the contender: {n}")
    out.append(("**Verdict:** " if markdown else "Verdict: ") + verdict_line(rows, features))
    return out


def verdict_line(rows, features):
    """The verdict after 'Verdict: ' (the one wording compare, nightly and the dashboard show)."""
    bad = verdict(features)
    n_method = sum(r["status"] == "method changed" for r in rows)
    n_board = sum(r["status"] == "another board" for r in rows)
    judged = len(rows) - n_method
    tail = ", ".join(x for x in (f"{n_method} metric(s) of another method" if n_method else "",
                                 f"{n_board} moved as the other board's fingerprint" if n_board else "") if x)
    tail = f" ({tail}: listed above, not judged)" if tail else ""
    if judged == 0:
        return "NOTHING JUDGED: no metric of the same method in both files" + tail
    return ("REGRESSION in " + "; ".join(bad) if bad else "no regression") + tail


def method_section(rows, top, markdown):
    """The benchmarks whose method differs (or is not known) between the files: not judged; per
    feature how many and how far they moved, then the largest moves."""
    moved = [r for r in rows if r["status"] == "method changed"]
    if not moved:
        return []
    h = "## " if markdown else ""
    out = ["", f"{h}Method changed: {len(moved)} metric(s), not judged (docs/regression.md, method identifiers)"]
    by_feature = {}
    for r in moved:
        by_feature.setdefault(r["feature"], []).append(r)
    for feat, rs in sorted(by_feature.items()):
        finite = [abs(r["change_pct"]) for r in rs if math.isfinite(r["change_pct"])]
        unknown = sum(r["noise"] == "method unknown" for r in rs)
        what = f"{unknown} of them of unknown method" if unknown else \
            f"method {rs[0]['base_method']} -> {rs[0]['cont_method']}" if len({(r['base_method'], r['cont_method'])
                                                                          for r in rs}) == 1 else "several methods"
        size = f"median move {statistics.median(finite):.2f} %, largest {max(finite):.2f} %" if finite else "no finite move"
        out.append(("- " if markdown else "  ") + f"{feat}: {len(rs)} metric(s), {size} ({what})")
    biggest = sorted(moved, key=lambda r: -abs(r["change_pct"]) if math.isfinite(r["change_pct"]) else -1e30)
    for r in biggest[:top]:
        line = (f"METHOD        {short(r['name'])}  {r['counter']}: {fmt_value(r['base'], r['kind'])} -> "
                f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %)")
        out.append(("- " + line) if markdown else "  " + line)
    return out


def board_section(base, cont, rows, top, markdown):
    """The metrics that moved as the two boards' fingerprints differ: listed, not judged."""
    steps = board_steps(base, cont)
    h = "## " if markdown else ""
    out = []
    for key, (a, b) in steps.items():
        moved = [r for r in rows if r["status"] == "another board" and r.get("board_key") == key]
        out += ["", f"{h}Another board: {BOARD_FINGERPRINTS[key][0]} {a:.1f} -> {b:.1f} cycles "
                    f"({100 * (b / a - 1):+.1f} %, the runs' {key}); {len(moved)} metric(s) moved by that much, not judged"]
        for r in sorted(moved, key=lambda r: -abs(r["change_pct"]))[:top]:
            line = (f"BOARD         {short(r['name'])}  {r['counter']}: {fmt_value(r['ref'], r['kind'])} -> "
                    f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %; the board's {r['board_pct']:+.2f} %)")
            out.append(("- " + line) if markdown else "  " + line)
    return out


def write_table(path, rows):
    fields = ["feature", "name", "counter", "how", "kind", "base", "ref", "cont", "change_pct", "threshold_pct", "sigma_pct",
              "noise", "p", "q", "status", "base_method", "cont_method"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def warnings(base, cont):
    out = []
    for key in ("gpu_name", "gpu_cuda_driver_api_version", "gpu_driver_version"):
        if base.context.get(key) != cont.context.get(key):
            out.append(f"WARNING: {key} differs: '{base.context.get(key)}' vs '{cont.context.get(key)}': "
                       "the files may not be comparable")
    if base.context.get("gpu_uuid") != cont.context.get("gpu_uuid"):
        parts = [base.context.get("gpu_board_part_number"), cont.context.get("gpu_board_part_number")]
        what = [f"{BOARD_FINGERPRINTS[key][0]} differs by {100 * (b / a - 1):+.1f} % ({a:.1f} -> {b:.1f} cycles, {key})"
                for key, (a, b) in board_steps(base, cont).items()]
        if all(parts) and parts[0] != parts[1]:  # H200: -000 and -001 boards differ in DRAM latency
            what.append(f"another board part number ({parts[0]} -> {parts[1]})")
        out.append("note: another board of the model (gpu_uuid differs)" + (": " + "; ".join(what) if what else ""))
    for r, side in ((base, "baseline"), (cont, "contender")):
        if r.method_source == "ledger":
            out.append(f"note: the {side} carries no method identifiers (written before they existed): its methods "
                       f"come from the ledger entry of its commit {r.context.get('archbench_git_sha')}")
        elif r.method_source == "assumed":
            out.append(f"note: the {side} carries no method identifiers and its commit is not in the ledger: taken as "
                       "the same method as the other side (--legacy-methods=same)")
        elif r.method_source == "unknown":
            out.append(f"note: the {side} carries no method identifiers and its commit is not in the ledger: its "
                       "methods are unknown and nothing of it is judged (--legacy-methods=same takes them as unchanged)")
        if r.values and not r.declared:
            out.append(f"note: the {side} declares no primary metrics (written before they existed): "
                       "compare.py's legacy rules apply")
        if r.context.get("archbench_fault"):
            out.append(f"note: the {side} is a PLANTED-fault run ({r.context['archbench_fault']})")
    if _stats is None:
        out.append("WARNING: scipy is missing (pip install scipy): no p-values; thresholds alone decide")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baseline")
    ap.add_argument("contender")
    ap.add_argument("--history", nargs="*", default=[], help="earlier runs (files or folders) of the same GPU model")
    ap.add_argument("--alpha", type=float, default=0.05, help="false-discovery rate (default 0.05)")
    ap.add_argument("--floor", type=float, default=DEFAULT_FLOOR_PCT,
                    help="minimum change (%%) when neither history nor repetitions give the noise (default 10)")
    ap.add_argument("--top", type=int, default=12, help="top movers shown (default 12)")
    ap.add_argument("--markdown", action="store_true", help="Markdown (for CI) instead of plain text")
    ap.add_argument("--table", help="write the full table (every benchmark x metric) to this CSV file")
    ap.add_argument("--features", help="compare these features only (comma-separated), e.g. the ones a run measured")
    ap.add_argument("--ledger", default=DEFAULT_LEDGER,
                    help="methods of files written before method identifiers, by commit (default results/method-ledger.json)")
    ap.add_argument("--legacy-methods", choices=("ledger", "same"), default="ledger",
                    help="a file with no identifiers and no ledger entry: its methods unknown (ledger, the default) "
                         "or taken as unchanged (same)")
    args = ap.parse_args(argv)
    try:
        ledger = load_ledger(args.ledger)
        base, cont = load(args.baseline, ledger, args.legacy_methods), load(args.contender, ledger, args.legacy_methods)
        hist_paths = [p for p in args.history if os.path.abspath(p) not in
                      (os.path.abspath(args.baseline), os.path.abspath(args.contender))]
        history, notes = load_history(hist_paths, cont.context.get("gpu_name"), ledger, args.legacy_methods)
        history = [h for h in history if os.path.abspath(h.path) not in
                   (os.path.abspath(args.baseline), os.path.abspath(args.contender))]
        history, note = noise_history(cont, history)
        notes += [note] if note else []
    except InputError as e:
        print(f"compare: error: {e}", file=sys.stderr)
        return 2
    if args.features:
        keep = {f.strip() for f in args.features.split(",") if f.strip()}
        for r in [base, cont] + history:
            r.values = {n: v for n, v in r.values.items() if feature_of(n) in keep}
            r.errors = {n for n in r.errors if feature_of(n) in keep}
            r.skips = {n for n in r.skips if feature_of(n) in keep}
    rows, features = compare(base, cont, history, args.alpha, args.floor)
    if not rows:
        print(f"compare: error: nothing compared: no benchmark with a declared metric in both {args.baseline} and "
              f"{args.contender}" + (f" (features {args.features})" if args.features else ""), file=sys.stderr)
        return 2
    out = warnings(base, cont) + notes
    out += summary(base, cont, rows, features, len(history), args.top, args.markdown)
    if args.table:
        try:
            write_table(args.table, rows)
        except OSError as e:
            print(f"compare: error: cannot write {args.table}: {e.strerror}", file=sys.stderr)
            return 2
        out.append(f"Full table: {args.table}")
    print("\n".join(out))
    return 1 if verdict(features) else 0


if __name__ == "__main__":
    sys.exit(main())

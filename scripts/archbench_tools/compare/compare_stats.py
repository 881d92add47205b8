#!/usr/bin/env python3
"""The statistics of compare.py: what counts as a change, with the noise the history, the
repetitions or a benchmark's own samples show, per benchmark and per feature (docs/regression.md).
compare.py loads the files and is the command; compare_report.py writes what this decides.
"""
import math
import statistics
import warnings as _warnings

from archbench_tools.results import resultfile

# Nearly identical repetitions make scipy warn about precision; the p-value is still right.
_warnings.filterwarnings("ignore", category=RuntimeWarning)

_SCIPY = []  # [scipy.stats or None], filled on first use


def scipy_stats():
    """scipy.stats, imported on first use (0.8 s: every script that imports compare paid it, the
    ones that never test a hypothesis too), or None without scipy: the decision still works
    without a p-value, and the report says so."""
    if not _SCIPY:
        try:
            from scipy import stats
        except ImportError:
            stats = None
        _SCIPY.append(stats)
    return _SCIPY[0]

# Minimum relative change (%) that counts, by the metric's kind (its unit).
MIN_EFFECT_PCT = {"cycles": 2.0, "per_clk": 2.0, "bytes_per_second": 2.0, "per_second": 2.0, "clock_mhz": 2.0,
                  "ns": 2.0, "energy": 5.0, "other": 5.0}  # ns: launch costs; the host-side ones take their band from history
FEATURE_MIN_SHIFT_PCT = 1.5   # a feature's median shift that counts
FEATURE_MIN_METRICS = 5       # a feature's shift is a median over at least this many metrics
FEATURE_ALPHA = 0.01          # sign test, divided among the features (Bonferroni)
BAND_SIGMAS = 3.0
DEFAULT_FLOOR_PCT = 10.0      # single runs with no history: the noise is unknown
# Features whose figures depend on the host (its CPU, memory and driver path, which differ from
# node to node): without a history, a change counts only past this floor. Two H100 nodes of one
# A/A pair differed by up to 28 % there (launch latencies, pageable and small pinned copies).
HOST_FEATURES = ("Launch", "HostLink")
HOST_FLOOR_PCT = 30.0
# A host copy far below the link's peak is bound by the per-copy cost of the host, the driver and
# the copy engines (and a managed copy by its page migration), not by the link. Those move between
# processes on one board: over 29 H200 runs, every copy under 30 % of the link's peak spread by
# 1.13-2.72x (max/min; two streams' small copies overlap fully in some processes and hardly in
# others), every copy above 40 % by at most 1.13x. Without a history of the node, such a copy is
# listed, not judged, unless it moved by more than any spread seen (3x either way); with a history,
# its own band judges it.
OVERHEAD_BOUND_PCT_OF_PEAK = 30.0
OVERHEAD_BOUND_MAX_RATIO = 3.0
LINK_SHARE_COUNTER = resultfile.LINK_SHARE_COUNTER


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


def feature_of(name):
    return resultfile.feature_of_name(name)


def noise_history(cont, runs):
    """The runs of `runs` whose spread is the contender's noise, and a note on the choice:
    the contender's board's own runs when there are two or more; else those of its board part
    (one part number: on the H200, -000 and -001 boards differ in DRAM latency by 3.7 % and in
    DRAM-bound rates by 2-4 %, more than the runs of one part differ); else none, and the pair
    is judged as without a history (the floor). A contender that names no part keeps the model's
    runs (files written before the part number was recorded)."""
    board, part = cont.context.get("gpu_uuid"), resultfile.board_group(cont.context)
    own = [r for r in runs if r.context.get("gpu_uuid") == board]
    if len(own) >= 2:
        return own, None
    if not part:
        return list(runs), ("note: no run of the contender's board in the history and no board part number: the "
                            "model's runs are the history; what differs between boards of the model counts as a change "
                            "(docs/regression.md, section 4)" if runs else None)
    same_part = [r for r in runs if resultfile.board_group(r.context) == part]
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
    if scipy_stats() is None:
        return None
    return float(scipy_stats().ttest_ind(la, lb, equal_var=False).pvalue)


ROBUST_FROM = 5  # centres from which the band is robust (median absolute deviation)

# A benchmark whose metric is the median of several samples in the run (launches, placements of
# its data) reports their spread beside it: <metric>_sd_pct and <metric>_samples.
SAMPLE_SD_SUFFIX, SAMPLE_COUNT_SUFFIX = resultfile.SAMPLE_SD_SUFFIX, resultfile.SAMPLE_COUNT_SUFFIX
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
CONTEXT_MIN_SUFFIX, CONTEXT_MAX_SUFFIX = resultfile.CONTEXT_MIN_SUFFIX, resultfile.CONTEXT_MAX_SUFFIX


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
    p = float(2 * scipy_stats().t.sf(abs(t), n - 1)) if scipy_stats() else None
    return p, math.expm1(sd)


def benjamini_hochberg(ps):
    """q-values for a list of p-values (None stays None)."""
    idx = [i for i, p in enumerate(ps) if p is not None]
    q = [None] * len(ps)
    if not idx:
        return q
    if scipy_stats() is not None and hasattr(scipy_stats(), "false_discovery_control"):
        adj = scipy_stats().false_discovery_control([ps[i] for i in idx], method="bh")
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
    if scipy_stats() is not None:
        return float(scipy_stats().binomtest(worse, n, 0.5).pvalue)
    k = max(worse, better)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


# --- the comparison --------------------------------------------------------------------------------

# The axes along which a cache edge moves a point (neighbour_steps): footprint, stride.
_AXES = ("footprint", "stride")


def neighbour_steps(run):
    """For each benchmark with a footprint or a stride among its axes and each of its counters: the
    change (%) between its two neighbours along that axis in the same series, relative to its own
    value, the larger of the two axes (a point between them can move anywhere between them when
    the edge shifts: a cache's capacity along the footprint, its sets' conflicts along the stride)."""
    steps = {}
    for axis in _AXES:
        series = {}
        for name, values in run.values.items():
            axes = resultfile.axes_of_name(name)
            # Along the stride, only a chase over a footprint: its working set is footprint /
            # stride lines (elsewhere a stride sets a conflict degree, not a cache edge).
            if axis in axes and axes[axis].isdigit() and "footprint" in axes:
                # the series: the same family and every other axis, this one's place held
                key = (resultfile.family_of_name(name), tuple((k, "*" if k == axis else v) for k, v in axes.items()))
                series.setdefault(key, []).append((int(axes[axis]), name, values))
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
                 lambda name, kind, how, ref, fp: resultfile.is_under(resultfile.family_of_name(name), "Sync/grid")
                 and kind == "cycles" and how == "lower"),
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


# A new board's band: the two-sided prediction interval of one board's value at FLEET_ALPHA, from a
# spread estimated with few degrees of freedom (Student's t), so that a model of ten boards does not
# claim the certainty of a model of a hundred.
FLEET_ALPHA = 1e-3


def prediction_quantile(df, alpha=FLEET_ALPHA):
    """t quantile at 1 - alpha / 2 with df degrees of freedom (scipy; else the Cornish-Fisher
    expansion, within 2 % from 4 degrees of freedom on)."""
    if scipy_stats() is not None:
        return float(scipy_stats().t.ppf(1 - alpha / 2, df))
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def model_spreads(row, use_part=True):
    """A fleet-model row's spreads (log-sd) as {"process", "board", "board_df", "part", "words"}:
    where the row's own method cannot show a spread, an earlier method's (fleet_model.stand_in)
    stands in, and "words" say which (the part's only where `use_part`: a board whose part has a
    median does not use it); None where neither can."""
    out = {k: row.get(k) for k in ("process", "board", "board_df", "part")}
    before, notes = row.get("stand_in") or {}, []
    if out["process"] is None and before.get("process"):
        out["process"] = before["process"][0]
        notes.append("process")
    if out["board"] is None and before.get("board"):
        out["board"], out["board_df"] = before["board"][0], before["board"][1]
        raised = ", raised to what this method's own boards show" if before["board"][4:] == ["seen"] else ""
        notes.append(f"board ({before['board'][3]} boards{raised})")
    # An earlier method's parts' spread where it saw more part numbers (fleet_model.stand_in).
    if before.get("part") and (out["part"] is None or before["part"][0] > out["part"]):
        out["part"] = before["part"][0]
        if use_part:
            notes.append("part")
    out["words"] = (f" (an earlier method's {', '.join(notes)} spread stands in: this method's runs cannot show it yet)"
                    if notes else "")
    return out


def fleet_band(model_row, base, cont):
    """The band (%) the fleet model gives a pair of runs, and the words for it: the same board's
    process spread when both are one board's; else the prediction interval of a board of the part
    (process, board and a timer's step; the parts' spread too for a part without a median), plus
    the difference between the parts' medians when the parts differ. (None, why) where the model
    cannot tell (a spread it calls unknown, with no earlier method's to stand in)."""
    pa, pb = resultfile.board_group(base.context), resultfile.board_group(cont.context)
    parts = model_row.get("parts") or {}
    known = pa in parts and pb in parts
    if base.context.get("gpu_uuid") == cont.context.get("gpu_uuid"):
        spreads = model_spreads(model_row, use_part=False)
        proc = spreads["process"]
        if proc is None:
            return None, "the process spread is unknown"
        return 100 * math.expm1(BAND_SIGMAS * math.sqrt(2) * proc), \
            f"the same board: within 3 sd of the {100 * proc:.2f} % that processes on one board spread{spreads['words']}"
    stand_in = model_spreads(model_row, use_part=not (pa == pb or known))["words"]
    sigma, df = model_row_sigma(model_row, same_part=pa == pb or known)
    if sigma is None:
        return None, "the board spread is unknown"
    q = prediction_quantile(df)
    offset = abs(math.log(parts[pb] / parts[pa])) if known and pa != pb else 0.0
    if pa == pb:
        words = f"another board of part {pb or 'unknown'}: boards spread {100 * sigma:.2f} % ({df} df)"
    elif known:
        words = (f"another board part ({pa} -> {pb}): the parts' medians differ by {100 * math.expm1(offset):.2f} %, "
                 f"boards spread {100 * sigma:.2f} % ({df} df)")
    else:
        words = f"another board part: boards and parts spread {100 * sigma:.2f} % ({df} df)"
    return 100 * math.expm1(q * math.sqrt(2) * sigma + offset), words + stand_in


def model_row_sigma(row, same_part=True):
    """The spread (log-sd) of one board's value about its part's median in a fleet-model row
    (scripts/fleet_model.py), and the degrees of freedom it rests on: process and board spread,
    the counter's quantum, and the parts' spread for a board whose part has no median (each an
    earlier method's where the row's own cannot show it: model_spreads); (None, 0) where the board
    spread is unknown. compare's bands and accept.py's checks both take it from here."""
    spreads = model_spreads(row, use_part=not same_part)
    if spreads["board"] is None:
        return None, 0
    var = (spreads["process"] or 0.0) ** 2 + spreads["board"] ** 2
    if row.get("quantum") and row["median"]:
        var += (row["quantum"] / row["median"]) ** 2 / 12
    if not same_part and spreads["part"]:
        var += spreads["part"] ** 2
    return math.sqrt(var), spreads["board_df"]


def sits_with_odd(model_row, part_group, value):
    """(offset %, words) where a board the model has not seen, reading `value`, sits with the row's
    odd boards: off its part's median on their side by within half their own offset (the H200's
    L2-edge writes: two boards 5-6.7 % slow; a new board 5.5 % slow is one of them, one 2 % slow is
    not). None where it does not, or the row has no odd boards."""
    odd = model_row.get("odd") or {}
    centre = (model_row.get("parts") or {}).get(part_group, model_row.get("median"))
    if not odd or not centre or not value:
        return None
    off = 100 * (value / centre - 1)
    near = [(b, p) for b, p in odd.items() if p * off > 0 and abs(off - p) <= abs(p) / 2]
    if not near:
        return None
    return off, (f"sits with the fleet's odd boards of this metric ({off:+.2f} % from its part; "
                 + ", ".join(f"{b[:12]} {p:+.2f} %" for b, p in near) + ")")


def odd_group(model_row, base, cont, against_history=False, cont_value=None, seen_boards=None):
    """(the % a move between these two boards is expected to be, words) where one of them is among
    the fleet model's odd boards of the metric (fleet_model.odd_boards: beyond the band the other
    boards of its part set, a group of its own, such as the H200's two slow boards at the L2-edge
    writes), or where the contender, a board the model has not seen, sits with such a group (its
    value `cont_value`: sits_with_odd; `seen_boards`: the model's boards, None for a model that does
    not list them); None where neither. `against_history`: the move is measured from the history's
    median (compare's look-back reference), not from the baseline's board, whose offset then does not
    count."""
    odd = model_row.get("odd") or {}
    ob = None if against_history else odd.get(base.context.get("gpu_uuid"))
    oc = odd.get(cont.context.get("gpu_uuid"))
    words = [f"{uuid[:12]} is one of the fleet's odd boards of this metric ({pct:+.2f} % from the other "
             f"boards of its part)" for uuid, pct in ((base.context.get("gpu_uuid"), ob),
                                                      (cont.context.get("gpu_uuid"), oc)) if pct is not None]
    if oc is None and cont_value and seen_boards is not None and cont.context.get("gpu_uuid") not in seen_boards:
        from archbench_tools.results import resultfile
        sits = sits_with_odd(model_row, resultfile.board_group(cont.context), cont_value)
        if sits:
            oc = sits[0]
            words.append(f"{cont.context.get('gpu_uuid', '?')[:12]}, a board the model has not seen, {sits[1]}")
    if ob is None and oc is None:
        return None
    return 100 * ((1 + (oc or 0.0) / 100) / (1 + (ob or 0.0) / 100) - 1), "; ".join(words)


def compare(base, cont, history=(), alpha=0.05, floor_pct=DEFAULT_FLOOR_PCT, model=None):
    """Rows, one per benchmark x primary metric present on both sides, and feature summaries.
    `model` (fleet_model.Model): the fleet's spreads, below which no band is set (fleet_band)."""
    rows = []
    steps = neighbour_steps(base)
    other_node = base.context.get("gpu_uuid") != cont.context.get("gpu_uuid")
    # Another board whose fingerprint differs: a latency that contains such an access moves by
    # that many cycles on it, and that move is the board's, not a change.
    boards = board_steps(base, cont)
    # The benchmarks that play a role (results/roles.py: the acceptance checks and the headlines) are
    # judged whatever group a board is in, as accept.py judges them; a group only names the others.
    from archbench_tools.results import roles
    judged_always = {k for k in roles.resolve(list(cont.values), cont.context).values() if k}
    seen_boards = set(model.doc["board_ids"]) if model is not None and "board_ids" in getattr(model, "doc", {}) else None
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
            fleet = model.row(name, counter, method) if model is not None else None
            band, band_words = fleet_band(fleet, base, cont) if fleet else (None, None)
            group = odd_group(fleet, base, cont, against_history=len(centres) >= 2, cont_value=mb,
                              seen_boards=seen_boards) \
                if fleet and other_node and name not in judged_always else None
            if group is not None:
                row["group_pct"], row["group"] = group
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
            elif band is not None:
                # Single runs without a history: what the fleet model knows of this pair (the same
                # board's process spread, else the spread between boards) is the noise, not a blanket floor.
                threshold = max(threshold, band)
                row["noise"] = f"fleet: {band_words}"
                row["fleet"] = band_words
            else:
                threshold = max(threshold, HOST_FLOOR_PCT if row["feature"] in HOST_FEATURES else floor_pct)
            if band is not None:
                row["fleet_band_pct"] = band
            if band is not None and band > threshold:
                # The fleet's spread for this pair: a history of other boards never narrows it.
                threshold = band
                row["noise"] += f", fleet: {band_words}"
                row["fleet"] = band_words
            if row["feature"] in HOST_FEATURES and other_node and len(centres) < 2 and band is None:
                # Another node and no history of this one: its host is not the baseline's.
                row.update(threshold_pct=math.inf, noise="another node: host-dependent, not judged")
                continue
            share = base.values[name].get(LINK_SHARE_COUNTER)
            within_spread = ref > 0 and mb > 0 and 1 / OVERHEAD_BOUND_MAX_RATIO <= mb / ref <= OVERHEAD_BOUND_MAX_RATIO
            if row["feature"] in HOST_FEATURES and len(centres) < 2 and share and within_spread and band is None and \
                    statistics.median(share) < OVERHEAD_BOUND_PCT_OF_PEAK:
                row.update(threshold_pct=math.inf,
                           noise=f"{statistics.median(share):.0f} % of the link's peak: per-copy costs, "
                                 "which move between processes; not judged without a history")
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
            elif "group_pct" in r and abs(r["change_pct"] - r["group_pct"]) < r["threshold_pct"]:
                r["status"] = "board group"  # a board the fleet model knows apart: named, not judged
    shift_bands = {}
    if model is not None:
        # A whole feature's move, judged by how far processes (one board) or boards move it whole.
        for feat, frow in getattr(model, "features", {}).items():
            band, words = fleet_band(frow, base, cont)
            if band is not None:
                shift_bands[feat] = (band, words)
    return rows, feature_shifts(rows, shift_bands)


def feature_shifts(rows, shift_bands=None):
    """Per feature: the median worse-% of its measured metrics and a sign test over them.
    `shift_bands` {feature: (band %, words)}: the fleet model's band for the feature's shift as a
    whole between these two boards (fleet_model.feature_rows), which then sets the least shift that
    counts; without it, the median of its benchmarks' fleet bands does."""
    by_feature = {}
    for r in rows:
        by_feature.setdefault(r["feature"], []).append(r)
    features = {}
    n_features = max(1, len(by_feature))
    for feat, rs in sorted(by_feature.items()):
        measured = [r["worse_pct"] for r in rs if "worse_pct" in r and math.isfinite(r["worse_pct"])
                    and math.isfinite(r.get("threshold_pct", 0.0))]  # not the rows not judged
        f = {"compared": len(rs),
             "changed": sum(r["status"] not in ("same", "method changed", "another board", "board group") for r in rs),
             "another_board": sum(r["status"] in ("another board", "board group") for r in rs),
             "method_changed": sum(r["status"] == "method changed" for r in rs),
             "improved": sum(r["status"] == "improved" for r in rs),
             "regressed": sum(r["status"] == "regressed" for r in rs),
             "values_changed": sum(r["status"] == "value changed" for r in rs),
             "shift_pct": statistics.median(measured) if measured else 0.0, "shift": "none", "shift_p": 1.0}
        worse = sum(w > 0.1 for w in measured)
        better = sum(w < -0.1 for w in measured)
        f["shift_p"] = sign_test_p(worse, better)
        f["worse"], f["better"] = worse, better
        # Across boards, a feature that moved together by less than its benchmarks' boards spread
        # (the fleet model's bands, their median) moved as boards and nodes do, not as code does.
        bands = [r["fleet_band_pct"] for r in rs if "fleet_band_pct" in r]
        if shift_bands and feat in shift_bands:
            least = max(FEATURE_MIN_SHIFT_PCT, shift_bands[feat][0])
            f["shift_basis"] = f"the feature as a whole: {shift_bands[feat][1]}"
        else:
            least = max(FEATURE_MIN_SHIFT_PCT, statistics.median(bands) if len(bands) * 2 >= len(measured) > 0 else 0.0)
        f["shift_threshold_pct"] = least
        if len(measured) >= FEATURE_MIN_METRICS and abs(f["shift_pct"]) >= least and \
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

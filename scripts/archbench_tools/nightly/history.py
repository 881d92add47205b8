"""A board's history as series: change points that date each change to its night and commit, tell
a step from a drift and keep two close changes apart; the software stack beside them; and the
smallest loss a check can see (docs/regression.md, section 4c).

Change points: PELT (Killick, Fearnhead & Eckley 2012) from the maintained `ruptures` library,
with the piecewise-linear cost (`model="linear"`: each segment a level and a slope, so a drift is one
segment that slopes, not a staircase of steps), at least MIN_SEGMENT nights a segment, on ln(value)
divided by the series' noise, with the penalty PENALTY. The noise of a series is the larger of the
fleet model's process spread for the metric (what processes on one board spread it by, with a
timer's step) and 1.4826 x the median absolute deviation of its night-to-night differences / sqrt 2
(robust to a step or a drift). PENALTY was set on Gaussian series of 30 nights: 0 false change
points in 2,000 (at 20: 1 in 1,000), against the issue's budget of one per 1,000 metrics per 30 nights.
A cheap screen leaves out a series whose best single split, or straight line, removes less than a
third of the penalty in the same units (a heuristic: piecewise lines can gain more than either; of
400 series of 30 nights with a random step of 0-6 noise and a random drift, the 165 that PELT
segments without the screen it segments with it too), so that a whole suite's 10,000 series take
seconds.

A change point at night k is a step where the two segments' lines are more than STEP_SIGMAS noise
apart at k, and more than three nights of the new segment's slope; else a drift (the slope changed
there: a drift begins at k). Each is confirmed robustly: a step moves the two segments' medians by
STEP_SIGMAS noise or more, a drift moves its segment by twice that, so that one odd night (a first
night, a blip) inside a segment makes no change point.
"""
import math
import os
import statistics

from archbench_tools.compare import compare_stats

PENALTY = 30.0
MIN_SEGMENT = 3
STEP_SIGMAS = 3.0
REPORTED_FRACTION = 0.5  # a change point is reported from half the metric kind's least effect (compare_stats)
SCREEN_GAIN = PENALTY / 3  # a series whose best single split or line gains less is not segmented
STACK_KEYS = (("gpu_driver_version", "driver"), ("gpu_cuda_runtime_version", "CUDA runtime"),
              ("gpu_cuda_driver_api_version", "CUDA driver API"), ("gpu_vbios_version", "VBIOS"))
METHOD_NOTE = ("PELT (ruptures.Pelt, model='linear', min_size=3, jump=1), penalty 30 on ln(value) / noise; noise: "
               "the larger of the fleet's process spread and 1.4826 x MAD(night-to-night differences) / sqrt 2; confirmed by the "
               "segments' medians; reported from half the metric kind's least effect")

_RUPTURES = []


def ruptures():
    """The ruptures module, or None where it is not installed (the report then says so)."""
    if not _RUPTURES:
        try:
            import ruptures as rpt
        except ImportError:
            # Where pip may not install into the system's Python (PEP 668), setup.sh puts the wheel in
            # build/python-extras, beside it.
            from archbench_tools import paths
            folder = paths.in_root("build", "python-extras", "ruptures", required=False)
            rpt = _load_package(folder) if folder else None
        _RUPTURES.append(rpt)
    return _RUPTURES[0]


def _load_package(folder):
    """A package from its folder, without touching the import path (the package's own absolute imports
    find it registered under its name); None where it is not there or does not load."""
    import importlib.util
    import sys
    init = os.path.join(folder, "__init__.py")
    if not os.path.exists(init):
        return None
    name = os.path.basename(folder)
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[folder])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception:
        del sys.modules[name]
        return None
    return module


def series(runs, name, counter):
    """The metric's values over the nights of its newest method (a method change starts a new series),
    as (nights' indices into runs, values)."""
    idx, vals, method = [], [], None
    for i in range(len(runs) - 1, -1, -1):
        r = runs[i]
        v = r.values.get(name, {}).get(counter)
        if not v:
            continue
        m = r.methods.get(name)
        if method is None:
            method = m
        elif m != method:
            break
        idx.append(i)
        vals.append(statistics.median(v))
    return idx[::-1], vals[::-1]


def process_noise(row):
    """The fleet model's process spread of a metric (log-sd), with its counter's timer step; 0 where
    the model does not know it."""
    if row is None:
        return 0.0
    proc = compare_stats.model_spreads(row, use_part=False)["process"] or 0.0
    if row.get("quantum") and row.get("median"):
        proc = math.sqrt(proc ** 2 + (row["quantum"] / row["median"]) ** 2 / 12)
    return proc


def noise(logs, row=None):
    """The series' noise (log-sd): the larger of the fleet's process spread (process_noise) and the
    robust night-to-night estimate."""
    diffs = [b - a for a, b in zip(logs, logs[1:])]
    est = 0.0
    if len(diffs) >= 3:
        centre = statistics.median(diffs)
        est = 1.4826 * statistics.median(abs(d - centre) for d in diffs) / math.sqrt(2)
    return max(est, process_noise(row), 1e-5)


def _gain_screen(z):
    """The best single split's and a straight line's gain (residual sum of squares removed), in noise units."""
    n = len(z)
    mean = sum(z) / n
    total = sum((v - mean) ** 2 for v in z)
    best, left = 0.0, 0.0
    for k in range(1, n):
        left += z[k - 1]
        ml, mr = left / k, (n * mean - left) / (n - k)
        best = max(best, k * (n - k) / n * (ml - mr) ** 2)
    tbar = (n - 1) / 2
    stt = sum((t - tbar) ** 2 for t in range(n))
    slope = sum((t - tbar) * (v - mean) for t, v in enumerate(z)) / stt if stt else 0.0
    return max(best, slope ** 2 * stt) if total > 0 else 0.0


def _line(ts, zs):
    n = len(ts)
    tbar, zbar = sum(ts) / n, sum(zs) / n
    stt = sum((t - tbar) ** 2 for t in ts)
    b = sum((t - tbar) * (z - zbar) for t, z in zip(ts, zs)) / stt if stt else 0.0
    return zbar - b * tbar, b


def change_points(logs, sigma):
    """[(k, kind, size, slope_after)] for a series of ln(values) with noise `sigma`: k the index of
    the first night of the new segment, kind "step" or "drift", size the step (log) at k, slope_after
    the new segment's slope (log per night)."""
    rpt = ruptures()
    n = len(logs)
    if rpt is None or n < 2 * MIN_SEGMENT:
        return []
    z = [v / sigma for v in logs]
    if _gain_screen(z) < SCREEN_GAIN:
        return []
    import numpy as np
    t = np.arange(n, dtype=float)
    signal = np.column_stack([np.asarray(z), t, np.ones(n)])
    try:
        bkps = rpt.Pelt(model="linear", min_size=MIN_SEGMENT, jump=1).fit(signal).predict(pen=PENALTY)[:-1]
    except Exception:  # ruptures refuses a series it cannot segment: no change point, said as none
        return []
    bounds = [0] + list(bkps) + [n]
    fits = [_line(list(range(a, b)), z[a:b]) for a, b in zip(bounds, bounds[1:])]
    out = []
    for j, k in enumerate(bkps):
        (a1, b1), (a2, b2) = fits[j], fits[j + 1]
        jump = (a2 + b2 * k) - (a1 + b1 * k)
        # A drift's first night already shows one night's worth of its slope: a step is a jump beyond
        # the noise and beyond what the new slope explains.
        kind = "step" if abs(jump) >= STEP_SIGMAS and abs(jump) >= 3 * abs(b2) else "drift"
        # Confirmed robustly, so that one odd night inside a segment (a first night, a blip) does not
        # make a change: a step moves the segments' medians by more than the noise's band, a drift
        # moves its segment by more than twice that along its length.
        left, right = z[bounds[j]:k], z[k:bounds[j + 2]]
        if kind == "step" and abs(statistics.median(right) - statistics.median(left)) < STEP_SIGMAS:
            continue
        if kind == "drift" and abs(b2) * (len(right) - 1) < 2 * STEP_SIGMAS:
            continue
        out.append((k, kind, jump * sigma, b2 * sigma))
    return out


def stack(run):
    """{what: version} of the run's software stack and firmware."""
    return {what: str(run.context.get(key)) for key, what in STACK_KEYS if run.context.get(key) not in (None, "")}


def stack_changes(before, after):
    """["driver 580.95 -> 580.159", ...] between two runs."""
    a, b = stack(before), stack(after)
    return [f"{what} {a.get(what, '?')} -> {b.get(what, '?')}" for what in sorted(set(a) | set(b)) if a.get(what) != b.get(what)]


def commit(run):
    return str(run.context.get("archbench_git_sha", "") or "?")[:12]


def night_label(run):
    return str(run.context.get("date", "?"))[:16]


def analyse(runs, keys, model=None):
    """Change points of every (name, counter, how) of `keys` over the board's `runs` (oldest first):
    a list of dicts with the night, its commit range, the kind, the size in %, the direction (worse
    or better) and what in the stack changed there."""
    found = []
    for name, counter, how in keys:
        if how not in ("higher", "lower"):
            continue
        idx, vals = series(runs, name, counter)
        if len(vals) < 2 * MIN_SEGMENT or min(vals) <= 0:
            continue
        logs = [math.log(v) for v in vals]
        method = runs[idx[-1]].methods.get(name)
        row = model.row(name, counter, method) if model is not None else None
        sigma = noise(logs, row)
        least = compare_stats.MIN_EFFECT_PCT[compare_stats.metric_kind(counter)] * REPORTED_FRACTION
        for k, kind, jump, slope in change_points(logs, sigma):
            at, prev = runs[idx[k]], runs[idx[k - 1]]
            size = 100 * math.expm1(jump if kind == "step" else slope)
            # A change too small to matter (a step, or a drift over its nights so far, under half the
            # metric kind's least effect) is not reported: noise estimated from a few nights is small.
            if abs(size) * (1 if kind == "step" else len(vals) - k) < least:
                continue
            worse = (size < 0) if how == "higher" else (size > 0)
            found.append({"name": name, "counter": counter, "kind": kind, "night": idx[k], "date": night_label(at),
                          "commits": (commit(prev), commit(at)), "size_pct": size, "worse": worse,
                          "sigma_pct": 100 * sigma, "stack": stack_changes(prev, at)})
    found.sort(key=lambda c: (c["night"], -abs(c["size_pct"])))
    return found


CSV_FIELDS = ("name", "counter", "kind", "night", "date", "commit_before", "commit_at", "size_pct", "worse", "sigma_pct",
              "stack")


def write_csv(path, points):
    """The change points, one row each (the night is 1-based, as the report counts)."""
    import csv
    with open(path + ".part", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for c in points:
            w.writerow([c["name"], c["counter"], c["kind"], c["night"] + 1, c["date"], c["commits"][0], c["commits"][1],
                        f"{c['size_pct']:.4f}", int(c["worse"]), f"{c['sigma_pct']:.4f}", "; ".join(c["stack"])])
    os.replace(path + ".part", path)


def describe(c):
    """One line for a change point."""
    what = (f"a step of {c['size_pct']:+.2f} %" if c["kind"] == "step"
            else f"a drift of {c['size_pct']:+.3f} % a night")
    a, b = c["commits"]
    where = f"commit {b}" if a == b else f"commits {a}..{b}"
    stack_words = f"; the stack changed there: {', '.join(c['stack'])}" if c["stack"] else \
        ("; same commit and stack: the board or its host changed" if a == b else "")
    return (f"{c['date']} (night {c['night'] + 1}, {where}): {what} ({'worse' if c['worse'] else 'better'}; noise "
            f"{c['sigma_pct']:.3f} %){stack_words}")


# --- what a check can see ---------------------------------------------------------------------------

def detectable(row, kind, nights=30):
    """(smallest step %, smallest drift % a night) that nightly flags on one board within `nights`
    nights, from the fleet model's process spread: a step against the previous night or the anchor
    must leave the same board's band (3 sd x sqrt 2 of the process spread, never less than the
    metric kind's least effect); a drift is flagged once its cumulative loss leaves the anchor's band.
    (None, None) where the process spread is unknown."""
    proc = compare_stats.model_spreads(row, use_part=False)["process"] if row else None
    if proc is None:
        return None, None
    band = max(100 * math.expm1(compare_stats.BAND_SIGMAS * math.sqrt(2) * proc), compare_stats.MIN_EFFECT_PCT[kind])
    return band, band / nights

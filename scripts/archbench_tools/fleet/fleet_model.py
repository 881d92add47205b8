#!/usr/bin/env python3
"""The fleet model of a GPU model: what a healthy GPU of that model reads, and how far processes,
boards, board parts and nodes spread, learned from a folder of runs (docs/regression.md, section 5).

Usage:
    fleet_model.py RUNS... [--out-dir DIR] [--include-quick] [--exclude GLOB ...]
        RUNS: result files or folders (searched recursively) of one or more GPU models. Writes
        DIR/<gpu-slug>.json.xz per model (default results/reference/expected), which compare.py,
        nightly.py, the dashboard and accept.py read. --exclude leaves out the files whose name
        matches (a model that has never seen a board, to judge that board's run by).
    fleet_model.py --show MODEL.json.xz [BENCHMARK_REGEX]      the model's rows, readable
    fleet_model.py --links P2P.json... [--out-dir DIR]         the links model of a GPU model from nodes'
        P2P runs (run_node.py's p2p.json): DIR/<gpu-slug>-links.json, which accept.py --node reads

For every benchmark's primary metric (and inferred value), under the method of its newest run:
  median      the median over boards of each board's mean (per board part too, `parts`)
  sample      the spread of the samples inside one run (its reported sd, or its repetitions)
  process     between processes on one board: pooled over the boards with two or more runs
  board       between boards of one part: the board means' pooled spread about their part's,
              less what the process spread puts into a mean
  part        between the board parts' medians
  node        what the host adds (HostLink, Launch, P2P): every board here ran in its own node (one
              machine per board), so no run separates the node from the board: unknown, and the
              board spread of those features holds the node's
  fingerprint where the board's start-up fingerprint (DRAM latency, grid barrier) explains the
              board spread: the slope of log(metric) on log(fingerprint) and its r^2
  quantum     the step of a counter read from a timer (every value a multiple of it), else null
Spreads are standard deviations of the natural logarithm (a relative spread, 0.01 = ~1 %); each
comes with its degrees of freedom, and is null ("unknown") where the runs cannot show it (no board
with two runs; fewer than BOARD_MIN_DF degrees of freedom among the boards of its parts). A centre rebuilds
its model from its own fleet with the same command. Exit codes: 0 written, 2 bad input.
"""
import argparse
import datetime
import fnmatch
import glob
import gzip
import json
import lzma
import math
import os
import re
import statistics
import sys
from collections import defaultdict
from archbench_tools import paths
from archbench_tools.compare import compare_stats  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402

ROOT = paths.root(required=False)  # None outside a checkout: no committed model or baseline
DEFAULT_DIR = os.path.join(ROOT, "results", "reference", "expected") if ROOT else None
HOST_FEATURES = ("HostLink", "Launch", "P2P")
FINGERPRINTS = {"dram": "archbench_board_dram_latency_cycles", "grid": "archbench_board_grid_barrier_cycles"}
FINGERPRINT_MIN_BOARDS = 6
FINGERPRINT_MIN_R2 = 0.6
BOARD_MIN_DF = 4  # a board spread from fewer degrees of freedom is unknown: its own error is too large
COLUMNS = ["method", "counter", "how", "median", "runs", "boards", "sample", "process", "process_df", "board",
           "board_df", "part", "parts", "fingerprint", "quantum", "stand_in", "odd"]
NODE_NOTE = ("every board of these runs ran in its own node (one machine per board): no run separates the node "
             "from the board, so the node spread is unknown and the board spread of HostLink, Launch and P2P holds it")


def model_path(gpu_name, directory=DEFAULT_DIR):
    """Where a GPU model's fleet model is in `directory` (None: outside a checkout, none committed)."""
    return os.path.join(directory, resultfile.slug(gpu_name) + ".json.xz") if directory else None


# --- Links between the GPUs of a node ----------------------------------------------------------------
# What a healthy link between two GPUs of a model reads, per figure: the P2P feature's 256 MiB copies
# as a share of the link's computed peak (P2P's pct_of_peak: NVML's link speeds, or the PCIe lane
# rate x width), and its remote-load latencies. Every ordered pair of GPUs (i != j) of every node
# given is one value; the spread is over all of them (nodes and pairs).
# key: (what, with {i} {j}, the benchmarks (run.select's arguments; the pair from their axes:
# resultfile.pair_of), counter, better, metric kind)
LINK_FIGURES = {
    "copy_uni": ("copy {i} -> {j}, 256 MiB", dict(family="P2P/copy", dir="uni", size=256 << 20),
                 "pct_of_peak", "higher", "bytes_per_second"),
    "copy_bi": ("copy {i} <-> {j} both ways, 256 MiB", dict(family="P2P/copy", dir="bi", size=256 << 20),
                "pct_of_peak", "higher", "bytes_per_second"),
    "latency_peer_l2": ("latency {i} -> {j}'s L2", dict(family="P2P/latency", level="peer_l2"),
                        "latency_ns", "lower", "ns"),
    "latency_peer_dram": ("latency {i} -> {j}'s DRAM", dict(family="P2P/latency", level="peer_dram"),
                          "latency_ns", "lower", "ns"),
}


def links_path(gpu_name, directory=DEFAULT_DIR):
    return os.path.join(directory, resultfile.slug(gpu_name) + "-links.json") if directory else None


def link_values(doc):
    """{(figure, i, j): (value, the benchmark's entry)} of one P2P run, pairs i != j."""
    out, run = {}, run_model.Run(doc)
    for key, (_, which, counter, _, _) in LINK_FIGURES.items():
        for _, b in run.select(counter=counter, **which):
            pair = resultfile.pair_of(b)
            if pair and pair[0] != pair[1]:
                out[(key, *pair)] = (float(b[counter]), b)
    return out


def build_links(paths):
    """The links model of one GPU model from P2P runs: {gpu_name, nodes, figures: {key: median, n,
    sd (of the logarithm), min, max}}. Raises InputError on a file that is not one, or mixed models."""
    gpu, nodes, values = None, [], defaultdict(list)
    for path in paths:
        try:
            doc = resultfile.load(path)
        except resultfile.ResultError as e:
            raise run_model.InputError(str(e))
        name = doc.get("context", {}).get("gpu_name")
        if gpu not in (None, name):
            raise run_model.InputError(f"{path}: {name}, where the others are {gpu}: one GPU model per links model")
        gpu = name
        found = link_values(doc)
        if not found:
            raise run_model.InputError(f"{path}: no P2P copy or latency between two GPUs")
        ctx = doc.get("context", {})
        # Where the run is kept: its results/... path (in the tree, or in the archive that
        # scripts/results_archive.py restores it from, which keeps the same path).
        keep = path[path.rfind("results" + os.sep):] if ("results" + os.sep) in path else os.path.basename(path)
        nodes.append({"file": keep,
                      "commit": str(ctx.get("archbench_git_sha", ""))[:12], "pairs": len({(i, j) for _, i, j in found})})
        for (key, _, _), (v, _) in found.items():
            values[key].append(v)
    figures = {}
    for key, vs in values.items():
        logs = [math.log(v) for v in vs if v > 0]
        figures[key] = {"median": statistics.median(vs), "n": len(vs), "min": min(vs), "max": max(vs),
                        "sd": statistics.stdev(logs) if len(logs) >= 2 else None}
    return {"about": "What a healthy link between two GPUs of this model reads (scripts/fleet_model.py --links): "
                     "per figure the median over every ordered pair of every node's P2P run, and the spread (sd of "
                     "the natural logarithm) over them. accept.py --node judges each pair's figure by it.",
            "gpu_name": gpu, "nodes": nodes, "figures": figures}


def links_model_for(gpu_name, directory=DEFAULT_DIR):
    """The committed links model of a GPU model, or None."""
    path = links_path(gpu_name, directory) if gpu_name else None
    return load_links(path) if path and os.path.exists(path) else None


def load_links(path):
    """A links model file; InputError in one line where it is not one."""
    try:
        with open(path) as f:
            doc = json.load(f)
        if not isinstance(doc.get("figures"), dict):
            raise ValueError("no 'figures'")
        return doc
    except FileNotFoundError:
        raise run_model.InputError(f"{path}: no such links model")
    except (OSError, ValueError, AttributeError) as e:
        raise run_model.InputError(f"{path}: not a links model ({e})")


def run_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(glob.glob(os.path.join(p, "**", "*.json"), recursive=True) +
                          glob.glob(os.path.join(p, "**", "*.json.gz"), recursive=True))
        elif os.path.exists(p):
            out.append(p)
        else:
            raise run_model.InputError(f"{p}: no such file or folder")
    return out


def load_runs(paths, include_quick=False, exclude=()):
    """The usable runs by GPU model: archbench results, not planted faults, not quick runs (a quick
    sweep's points are timed for less), with a board. Returns ({model: [Run]}, notes)."""
    by_model, notes = defaultdict(list), []
    for f in run_files(paths):
        if any(fnmatch.fnmatch(os.path.basename(f), g) for g in exclude):
            notes.append(f"skipped {f}: excluded")
            continue
        try:
            r = run_model.load_metrics(f)
        except run_model.InputError as e:
            notes.append(f"skipped {e}")
            continue
        ctx = r.context
        why = ("a planted-fault run" if ctx.get("archbench_fault") else
               "a quick run" if str(ctx.get("archbench_quick", "")).lower() == "true" and not include_quick else
               "no gpu_uuid" if not ctx.get("gpu_uuid") else None)
        if why:
            notes.append(f"skipped {f}: {why}")
            continue
        by_model[ctx.get("gpu_name", "?")].append(r)
    return by_model, notes


def _mean(xs):
    return sum(xs) / len(xs)


def pooled(groups):
    """The pooled variance of groups (lists of numbers) about their own means, and its degrees of
    freedom; (None, 0) without a group of two."""
    ss, df = 0.0, 0
    for g in groups:
        if len(g) >= 2:
            m = _mean(g)
            ss += sum((x - m) ** 2 for x in g)
            df += len(g) - 1
    return (ss / df, df) if df else (None, 0)


def sample_spread(run, name, counter):
    """A run's spread of samples for one metric, as a log-sd: its reported <metric>_sd_pct, else the
    spread of its repetitions; None when it has neither."""
    entry = run.values[name]
    sd = entry.get(counter + resultfile.SAMPLE_SD_SUFFIX)
    if sd:
        return statistics.median(sd) / 100
    v = [x for x in entry.get(counter, []) if x > 0]
    if len(v) >= 2:
        return statistics.stdev(math.log(x) for x in v)
    return None


def _fit(xs, ys):
    """Least-squares slope and r^2 of ys on xs."""
    mx, my = _mean(xs), _mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None, 0.0
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / sxx, sxy * sxy / (sxx * syy)


def _r(x, digits=4):
    return None if x is None else float(f"{x:.{digits}g}")


def counter_quanta(runs):
    """{(feature, counter): q} for counters whose every value in every run is a whole multiple of
    one step q > 1 (a timer's tick: the GPU's global timer counts in steps of its resolution), found
    as the greatest common divisor of the values. A value known to a step spreads by at least
    q / sqrt(12) however steady the board is."""
    seen = defaultdict(int)
    for r in runs:
        for name, values in r.values.items():
            for counter, _, _ in r.primary.get(name, []):
                for v in values.get(counter, []):
                    key = (resultfile.feature_of_name(name), counter)
                    if seen.get(key, 0) is None:
                        continue
                    if v <= 0 or abs(v - round(v)) > 1e-6:
                        seen[key] = None
                    else:
                        seen[key] = math.gcd(seen[key], int(round(v)))
    return {k: q for k, q in seen.items() if q and q > 1}


# A board beyond this two-sided prediction band of the other boards of its part (about 5 sd) does not
# set how far boards spread: see odd_boards.
ODD_BOARD_ALPHA = 1e-6
ODD_BOARDS_MAX = 2
# A board is odd only where it is also off by this much: half the least effect any verdict counts
# (compare_stats.MIN_EFFECT_PCT, 2 %). Metrics whose boards read alike to 0.01 % (exact pipeline
# rates) made boards 0.0 % off "odd" by a t-test alone: names that no verdict could ever need.
ODD_BOARD_MIN_PCT = 0.5 * min(compare_stats.MIN_EFFECT_PCT.values())


def odd_boards(means, by_part):
    """The boards (at most ODD_BOARDS_MAX, the farthest first) whose mean lies beyond the
    ODD_BOARD_ALPHA prediction band that the other boards of their part set: they do not count in
    the board spread. One odd board widened its part's spread enough to pass itself: GPU-01570796's
    host-to-device copies, 6.6 % below 11 boards of its part that spread 0.6 %, read "healthy" on
    the dashboard's front page from a model that held its run, and NOT HEALTHY from one without it.
    The band is far wider than a verdict's (FLEET_ALPHA), so that a healthy board in the tail of
    many stays in: such a board passes this test with probability 1 - 1e-6; and it must be off by
    ODD_BOARD_MIN_PCT. `means`: {board: mean log}; `by_part`: {part: [boards]}."""
    # Rosner's generalized ESD: the farthest board is taken out ODD_BOARDS_MAX times whatever each
    # test says, and the odd ones are the most taken out whose last one still lay beyond the band.
    # Stopping at the first board inside it let two odd boards mask each other: GPU-260c4f31 and
    # GPU-c4447e9c write 5-6.7 % slower at the L2's edge than 31 boards of their part, and each,
    # tested with the other among its peers, lay inside a band the other had widened.
    removed, odd = [], set()
    for _ in range(ODD_BOARDS_MAX):
        groups = [[b for b in bs if b not in removed] for bs in by_part.values()]
        worst, worst_dev, home = None, 0.0, None
        for i, bs in enumerate(groups):
            if len(bs) >= 3:
                m = _mean([means[b] for b in bs])
                for b in bs:
                    if abs(means[b] - m) > worst_dev:
                        worst, worst_dev, home = b, abs(means[b] - m), i
        if worst is None:
            break
        rest = [[b for b in bs if b != worst] for bs in groups]
        var, df = pooled([[means[b] for b in bs] for bs in rest])
        if var is None or var <= 0 or df < BOARD_MIN_DF:
            break
        peers = rest[home]
        centre = _mean([means[b] for b in peers])
        z = abs(means[worst] - centre) / math.sqrt(var * (1 + 1 / len(peers)))
        removed.append(worst)
        off_pct = 100 * math.expm1(abs(means[worst] - centre))
        if z > compare_stats.prediction_quantile(df, ODD_BOARD_ALPHA) and off_pct >= ODD_BOARD_MIN_PCT:
            odd = set(removed)
    return odd


def board_variance(logs_by_board, by_part, odd, var_proc, min_df):
    """(variance, degrees of freedom) between boards (of log values), from the boards' means within
    their parts less the process variance a mean still holds; the variance is None below `min_df`."""
    means = {b: _mean(xs) for b, xs in logs_by_board.items()}
    var_means, df_board = pooled([[means[b] for b in bs if b not in odd] for bs in by_part.values()])
    if df_board < max(1, min_df) or var_means is None:
        return None, df_board
    # A board's mean holds 1/n of the process variance: what is left is the boards'.
    inside = (var_proc or 0.0) * _mean([1 / len(logs_by_board[b]) for b in means])
    return max(0.0, var_means - inside), df_board


def seen_board_sd(obs):
    """(sd, df): the spread between boards that a method's own runs already show, from however few
    degrees of freedom (at least one): too uncertain to be the band, but evidence against a stand-in
    that is narrower; None below one degree of freedom."""
    logs_by_board, part_of = defaultdict(list), {}
    for _, board, part, v, _, _ in obs:
        logs_by_board[board].append(math.log(v))
        part_of[board] = part
    by_part = defaultdict(list)
    for b in logs_by_board:
        by_part[part_of[b]].append(b)
    var_proc, _ = pooled(logs_by_board.values())
    var, df = board_variance(logs_by_board, by_part, set(), var_proc, 1)
    return (math.sqrt(var), df) if var is not None else None


STAND_IN_F_ALPHA = 0.01  # how sure the method's own boards must be that a stand-in is too narrow


def stand_in_too_narrow(seen, board):
    """True where the spread the method's own boards show, `seen` (sd, df), is larger than the
    stand-in's `board` ([sd, df, ...]) beyond chance: the F test of the two variances at
    STAND_IN_F_ALPHA. A few boards' spread is noisy; only a clear excess replaces the stand-in."""
    (sd, df), (sd_in, df_in) = seen, board[:2]
    if sd <= sd_in:
        return False
    if not sd_in or not df_in:
        return True
    stats = compare_stats.scipy_stats()
    if stats is None:
        return (sd / sd_in) ** 2 > 10  # without scipy: a tenfold variance
    return (sd / sd_in) ** 2 > stats.f.ppf(1 - STAND_IN_F_ALPHA, df, df_in)


def metric_row(obs, method, counter, how, quantum=None):
    """One row of the model from `obs`: [(run, board, part, value, sample spread, fingerprints)];
    `quantum`: the counter's step where it has one (counter_quanta). Returns (the row up to
    `quantum`, its odd boards: {board: % from the mean of the other boards of its part}), the group
    of boards the board spread leaves out, which compare and accept name (odd_boards)."""
    logs_by_board = defaultdict(list)
    part_of, fp_of = {}, defaultdict(dict)
    for _, board, part, v, _, fps in obs:
        logs_by_board[board].append(math.log(v))
        part_of[board] = part
        for k, f in fps.items():
            fp_of[board].setdefault(k, []).append(math.log(f))
    var_proc, df_proc = pooled(logs_by_board.values())
    means = {b: _mean(xs) for b, xs in logs_by_board.items()}
    by_part = defaultdict(list)
    for b, m in means.items():
        by_part[part_of[b]].append(b)
    odd = odd_boards(means, by_part)
    var_board, df_board = board_variance(logs_by_board, by_part, odd, var_proc, BOARD_MIN_DF)
    part_medians = {p: math.exp(statistics.median(means[b] for b in bs)) for p, bs in by_part.items()}
    centres = [math.log(v) for p, v in part_medians.items() if len(by_part[p]) >= 2]
    part_sd = statistics.stdev(centres) if len(centres) >= 2 else None
    samples = [s for *_, s, _ in obs if s is not None]
    fingerprint = None
    for key in FINGERPRINTS:
        boards = [b for b in means if key in fp_of[b]]
        if len(boards) >= FINGERPRINT_MIN_BOARDS:
            slope, r2 = _fit([_mean(fp_of[b][key]) for b in boards], [means[b] for b in boards])
            if slope is not None and r2 >= FINGERPRINT_MIN_R2 and (fingerprint is None or r2 > fingerprint[2]):
                fingerprint = [key, _r(slope), _r(r2, 3)]
    median = math.exp(statistics.median(means.values()))
    odd_pct = {}
    for b in sorted(odd):
        peers = [means[x] for x in by_part[part_of[b]] if x not in odd]
        if peers:
            odd_pct[b] = _r(100 * math.expm1(means[b] - _mean(peers)), 3)
    return [method, counter, how, _r(median, 6), len(obs), len(means),
            _r(statistics.median(samples), 3) if samples else None,
            _r(math.sqrt(var_proc), 3) if var_proc is not None else None, df_proc,
            _r(math.sqrt(var_board), 3) if var_board is not None else None, df_board,
            _r(part_sd, 3), {p: _r(v, 6) for p, v in sorted(part_medians.items()) if len(by_part[p]) >= 2} or None,
            fingerprint, quantum], (odd_pct or None)


def stand_in(row, rows_before):
    """Where the newest method's runs cannot show a spread (process, board or part): the same
    spread of the newest earlier method whose runs can, as {"process": [sd, df, method]},
    {"board": [sd, df, method, boards]} (build raises the sd to what the method's own boards already
    show, marking it [..., "seen"]), {"part": [sd, method]}; None where no earlier method helps. A method change moves
    what a benchmark reads, rarely how far processes and boards spread it, so until the new
    method has run on enough boards its band is the earlier one's, named as such, never a history
    from a few other boards (compare_stats.model_spreads).

    The parts' spread stands in also where the row's own comes from fewer part numbers than an
    earlier method's: groups of one part number (its boards on one- and two-GPU hosts) show how far
    hosts move a figure, not how far parts do. MemLatency v3's 240 MiB chain ran on -001 boards
    only, on both host kinds, and spread them 0.02 %; a -000 board read it 3.8 % slower, as -000
    boards always had under the earlier method."""
    out = {}
    def part_numbers(d):
        return {resultfile.group_part(g) for g in (d["parts"] or {})}
    for earlier in rows_before:  # newest earlier method first
        d = dict(zip(COLUMNS, earlier))
        if row["process"] is None and "process" not in out and d["process"] is not None:
            out["process"] = [d["process"], d["process_df"], d["method"]]
        if row["board"] is None and "board" not in out and d["board"] is not None:
            out["board"] = [d["board"], d["board_df"], d["method"], d["boards"]]
        if "part" not in out and d["part"] is not None and \
                (row["part"] is None or len(part_numbers(d)) > len(part_numbers(row))):
            out["part"] = [d["part"], d["method"]]
    return out or None


def build(runs):
    """The model of one GPU model from its runs: {name: row} (COLUMNS) for every declared metric,
    under the method of the newest run that measured it; an unknown spread gets an earlier
    method's as its stand-in where one is known (stand_in)."""
    runs = sorted(runs, key=lambda r: str(r.context.get("date", "")))
    newest_method, order = {}, {}
    for i, r in enumerate(runs):
        for name in r.values:
            newest_method[name] = r.methods.get(name)
            order[(name, r.methods.get(name))] = i
    obs = defaultdict(lambda: defaultdict(list))  # (name, counter, how) -> method -> observations
    for r in runs:
        board, part = r.context.get("gpu_uuid"), resultfile.board_group(r.context) or "unknown"
        fps = {}
        for key, ctx_key in FINGERPRINTS.items():
            try:
                v = float(r.context.get(ctx_key, ""))
                if v > 0:
                    fps[key] = v
            except ValueError:
                pass
        for name, values in r.values.items():
            method = r.methods.get(name)
            if method is None:
                continue  # a method not known means nothing to compare with (docs/methods.md)
            for counter, how, _ in r.primary.get(name, []):
                v = values.get(counter)
                if v and statistics.median(v) > 0:
                    obs[(name, counter, how)][method].append((r, board, part, statistics.median(v),
                                                              sample_spread(r, name, counter), fps))
    quanta = counter_quanta(runs)
    metrics = {}
    for (name, counter, how), by_method in sorted(obs.items()):
        newest = newest_method[name]
        if newest not in by_method:
            continue  # the newest run did not report this metric: its method's numbers are elsewhere
        quantum = quanta.get((resultfile.feature_of_name(name), counter))
        row, odd = metric_row(by_method[newest], newest, counter, how, quantum)
        d = dict(zip(COLUMNS, row))
        before = None
        if d["process"] is None or d["board"] is None or d["part"] is None:
            earlier = sorted((m for m in by_method if m != newest), key=lambda m: -order[(name, m)])
            before = stand_in(d, [metric_row(by_method[m], m, counter, how, quantum)[0] for m in earlier])
            # A stand-in only widens: never narrower than what this method's own few boards show.
            # The H100's global-atomics latency read 269-301 cycles on four boards of its new
            # method (two degrees of freedom) while the earlier method's 0.22 % stood in.
            seen = seen_board_sd(by_method[newest]) if before and before.get("board") else None
            if seen is not None and stand_in_too_narrow(seen, before["board"]):
                before["board"] = [_r(seen[0], 3), before["board"][1], before["board"][2], before["board"][3], "seen"]
        metrics.setdefault(name, []).append(row + [before, odd])
    return metrics, runs


def feature_rows(runs):
    """{feature: row} (COLUMNS, counter "feature_shift"): how far a whole feature moves between
    processes, boards and parts. A run's shift of a feature is the median over its measured metrics
    of how much worse each reads than the fleet's median of the same metric under the same method,
    as a factor (1.02: 2 % worse; a rate that fell and a cost that grew both count as worse); the
    row is that shift's spread, found as for a metric. Each run is measured against its own
    method's fleet, so every run counts, whatever the method. compare judges a feature that moved
    as a whole by it (compare_stats.feature_shifts): boards move a feature together, as one part's
    DRAM moves every DRAM figure, far less than they move any one of its metrics."""
    logs = defaultdict(lambda: defaultdict(list))  # (name, counter, method) -> board -> logs
    for r in runs:
        for name, values in r.values.items():
            method = r.methods.get(name)
            for counter, how, _ in r.primary.get(name, []):
                v = values.get(counter)
                if method is not None and how != "value" and v and statistics.median(v) > 0:
                    logs[(name, counter, method)][r.context.get("gpu_uuid")].append(math.log(statistics.median(v)))
    centre = {k: statistics.median(_mean(xs) for xs in by_board.values()) for k, by_board in logs.items()}
    obs = defaultdict(list)
    for r in runs:
        worse = defaultdict(list)
        for name, values in r.values.items():
            for counter, how, _ in r.primary.get(name, []):
                c = centre.get((name, counter, r.methods.get(name)))
                v = values.get(counter)
                if c is None or how == "value" or not v or statistics.median(v) <= 0:
                    continue
                w = math.log(statistics.median(v)) - c
                worse[resultfile.feature_of_name(name)].append(w if how == "lower" else -w)
        board, part = r.context.get("gpu_uuid"), resultfile.board_group(r.context) or "unknown"
        for feature, ws in worse.items():
            if len(ws) >= compare_stats.FEATURE_MIN_METRICS:
                obs[feature].append((r, board, part, math.exp(statistics.median(ws)), None, {}))
    rows = {f: metric_row(o, None, "feature_shift", "lower") for f, o in sorted(obs.items())}
    return {f: dict(zip(COLUMNS, row + [None, odd])) for f, (row, odd) in rows.items()}


def document(gpu_name, metrics, runs):
    boards = {r.context.get("gpu_uuid") for r in runs}
    parts = defaultdict(set)
    for r in runs:
        parts[resultfile.board_group(r.context) or "unknown"].add(r.context.get("gpu_uuid"))
    return {
        "about": "archbench fleet model (scripts/fleet_model.py; docs/regression.md, section 5). Spreads are "
                 "standard deviations of ln(value); null is unknown: the runs cannot show it.",
        "gpu_name": gpu_name,
        "built": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "runs": len(runs), "boards": len(boards), "parts": {p: len(b) for p, b in sorted(parts.items())},
        # The boards it has seen: compare names a board it has not seen that sits with an odd group.
        "board_ids": sorted(str(b) for b in boards if b),
        "commits": sorted({str(r.context.get("archbench_git_sha", ""))[:12] for r in runs}),
        "sources": sorted({os.path.basename(r.path) for r in runs}),
        "node": NODE_NOTE,
        "columns": COLUMNS,
        "metrics": metrics,
        "features": {f: [d[c] for c in COLUMNS] for f, d in feature_rows(runs).items()},
    }


def _opener(path):
    """xz for the committed models (a third smaller than gzip: the tracked results/ is bounded),
    gzip or plain JSON read too."""
    return lzma.open if path.endswith(".xz") else gzip.open if path.endswith(".gz") else open


def write(doc, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".part"
    with _opener(path)(tmp, "wt") as f:
        json.dump(doc, f, separators=(",", ":"))
    os.replace(tmp, path)


# --- reading a model -------------------------------------------------------------------------------

class Model:
    """A fleet model as compare and accept read it: per benchmark and counter its row as a dict."""

    def __init__(self, doc, path=None):
        self.doc, self.path = doc, path
        cols = doc["columns"]
        self.rows = {}
        for name, rows in doc["metrics"].items():
            for row in rows:
                d = dict(zip(cols, row))
                self.rows[(name, d["counter"])] = d
        # A model written before the features' rows had none: compare falls back (feature_shifts).
        self.features = {f: dict(zip(cols, row)) for f, row in (doc.get("features") or {}).items()}

    def row(self, name, counter, method=None):
        """The row, if its method is `method` (any method when None)."""
        d = self.rows.get((name, counter))
        if d is None or (method is not None and d["method"] != method):
            return None
        return d

    def odd_of(self, board):
        """[(name, counter, % from the other boards of its part)] of the metrics where `board` is one of
        the model's odd boards (a group of its own, left out of the board spread: odd_boards)."""
        return sorted((name, counter, d["odd"][board]) for (name, counter), d in self.rows.items()
                      if d.get("odd") and board in d["odd"])

    def describe(self):
        parts = ", ".join(f"{n} board(s) of part {p}" for p, n in self.doc["parts"].items())
        return (f"fleet model {os.path.basename(self.path or '?')}: {self.doc['runs']} runs of "
                f"{self.doc['boards']} boards ({parts})")


def load_model(path):
    try:
        with _opener(path)(path, "rt") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or not isinstance(doc.get("metrics"), dict) or \
                not isinstance(doc.get("columns"), list):
            raise ValueError("no 'metrics' or 'columns'")
        return Model(doc, path)
    except FileNotFoundError:
        raise run_model.InputError(f"{path}: no such fleet model")
    except (OSError, EOFError, ValueError, UnicodeDecodeError, TypeError, AttributeError, lzma.LZMAError) as e:
        raise run_model.InputError(f"{path}: not a fleet model ({e})")


def model_for(gpu_name, directory=DEFAULT_DIR):
    """The committed model of a GPU model, or None where there is none."""
    path = model_path(gpu_name, directory)
    return load_model(path) if gpu_name and path and os.path.exists(path) else None


def model_or_committed(gpu_name, path=None):
    """The fleet model at `path`, else the committed one of `gpu_name` (None where there is none)."""
    return load_model(path) if path else model_for(gpu_name)


def typicality(run, model):
    """How typical a board is (its run: a run_model.Metrics), as the median over its primary metrics that
    the model can judge of |ln(value / the median of its part)| in units of the spread one board has
    about it (compare_stats.model_row_sigma): lower for a board nearer its fleet, higher for one in a
    slow or fast group of some metrics. A relative score: the model's spreads hold stand-ins, timer
    steps and exact values, so boards score under the 0.67 a standard normal would give (the H100's
    two 0.117, the H200's 0.11-0.72). Returns (score, metrics)."""
    part = resultfile.board_group(run.context)
    zs = []
    for name, decl in run.primary.items():
        for counter, how, _ in decl:
            values = run.values.get(name, {}).get(counter)
            row = model.row(name, counter, run.methods.get(name))
            if not values or row is None or how not in ("higher", "lower") or not row.get("median"):
                continue
            sigma, _ = compare_stats.model_row_sigma(row, same_part=part in (row.get("parts") or {}))
            v = statistics.median(values)
            if sigma and v > 0:
                expected = (row.get("parts") or {}).get(part, row["median"])
                zs.append(abs(math.log(v / expected)) / sigma)
    return (statistics.median(zs) if zs else None), len(zs)


def typical_baseline(runs, model):
    """The rule for a GPU model's committed baseline: among the full runs of the newest run's methods
    (every benchmark's method identifier the newest run's), the most typical board (typicality).
    Returns [(score, metrics, run)] best first."""
    newest = max(runs, key=lambda r: str(r.context.get("date", "")))
    same = [r for r in runs if all(r.methods.get(n) == m for n, m in newest.methods.items() if n in r.values)
            and len(r.values) >= 0.9 * len(newest.values)]
    scored = [(*typicality(r, model), r) for r in same]
    return sorted((s for s in scored if s[0] is not None), key=lambda s: s[0])


BASELINES = os.path.join(ROOT, "results", "baselines.json") if ROOT else None


def baseline_for(gpu_name, index=BASELINES):
    """The committed baseline run of a GPU model (results/baselines.json: the run every later one of
    the model is compared with when no run of its own board exists yet), or None."""
    if not index:
        return None
    try:
        with open(index, encoding="utf-8") as f:
            entry = json.load(f).get("baselines", {}).get(gpu_name)
    except (OSError, ValueError, AttributeError):
        return None
    path = os.path.join(ROOT, entry["path"]) if isinstance(entry, dict) and entry.get("path") else None
    return path if path and os.path.exists(path) else None


def show(model, pattern):
    rx = re.compile(pattern) if pattern else None
    print(model.describe())
    from archbench_tools.nightly import history  # the smallest loss a night can see (history.detectable)
    print(f"{'benchmark / counter':70s} {'median':>12s} {'runs':>5s} {'boards':>6s} {'process':>8s} {'board':>8s} "
          f"{'part':>8s} {'step':>7s} {'drift':>8s}  fingerprint")
    print("(~x.xx%: unknown for this method; an earlier method's spread stands in. step, drift: the smallest step "
          "nightly flags on one board and the smallest drift a night it flags within 30 nights)")
    pct = (lambda s: "unknown" if s is None else f"{100 * s:.2f}%")

    def spread(d, key):
        before = (d.get("stand_in") or {}).get(key)
        return f"~{100 * before[0]:.2f}%" if d[key] is None and before else pct(d[key])

    for (name, counter), d in sorted(model.rows.items()):
        if rx and not rx.search(name):
            continue
        fp = f"{d['fingerprint'][0]} slope {d['fingerprint'][1]} r2 {d['fingerprint'][2]}" if d["fingerprint"] else ""
        step, drift = history.detectable(d, compare_stats.metric_kind(counter)) if d["how"] in ("higher", "lower") else \
            (None, None)
        print(f"{(name + ' ' + counter)[:70]:70s} {d['median']:>12.6g} {d['runs']:>5d} {d['boards']:>6d} "
              f"{spread(d, 'process'):>8s} {spread(d, 'board'):>8s} {pct(d['part']):>8s} "
              f"{'-' if step is None else f'{step:.2f}%':>7s} {'-' if drift is None else f'{drift:.3f}%':>8s}  {fp}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)  # --out is not --out-dir
    ap.add_argument("runs", nargs="*", help="result files or folders (recursive)")
    ap.add_argument("--out-dir", default=DEFAULT_DIR, help="where <gpu-slug>.json.xz goes (default results/reference/expected)")
    ap.add_argument("--include-quick", action="store_true", help="use quick runs too (their points are timed for less)")
    ap.add_argument("--show", metavar="MODEL", help="print a model's rows instead")
    ap.add_argument("--exclude", nargs="*", default=[], metavar="GLOB", help="leave out the files whose name matches")
    ap.add_argument("--min-runs", type=int, default=2, help="a GPU model needs this many runs (default 2)")
    ap.add_argument("--links", action="store_true", help="RUNS are nodes' P2P runs: write the links model")
    ap.add_argument("--typical", action="store_true",
                    help="rank RUNS (full runs of one GPU model) by how typical their board is of the model "
                         "(--expected, default the committed one): the first is the rule's baseline")
    ap.add_argument("--expected", metavar="MODEL", help="with --typical: the fleet model")
    args, rest = ap.parse_known_args(argv)
    if not args.out_dir and not (args.show or args.typical):
        args.out_dir = paths.in_root("results", "reference", "expected")  # outside a checkout: says so, exit 2
    try:
        if args.links:
            if rest or not args.runs:
                raise run_model.InputError(f"unknown option {rest[0]}" if rest else "no P2P runs given")
            doc = build_links(args.runs)
            path = links_path(doc["gpu_name"], args.out_dir)
            try:
                with open(path + ".part", "w") as f:
                    json.dump(doc, f, indent=1)
                    f.write("\n")
                os.replace(path + ".part", path)
            except OSError as e:
                raise run_model.InputError(f"{path}: cannot write: {e.strerror or e}")
            counts = ", ".join(f"{key} {fig['n']}" for key, fig in sorted(doc["figures"].items()))
            print(f"{path}: values per figure {counts}, from {len(doc['nodes'])} node(s)")
            return 0
        if any(a == "--export" or a.startswith("--export=") for a in rest):
            raise run_model.InputError("the bounds for operators are accept.py's: accept.py --export FORMAT [RUN]")
        if args.typical:
            if rest or not args.runs:
                raise run_model.InputError(f"unknown option {rest[0]}" if rest else "no runs given")
            runs = [run_model.load_metrics(p) for p in run_files(args.runs)]
            gpus = {r.context.get("gpu_name") for r in runs}
            if len(gpus) != 1:
                raise run_model.InputError(f"--typical ranks the runs of one GPU model, not {sorted(map(str, gpus))}")
            model = load_model(args.expected) if args.expected else model_for(gpus.pop())
            if model is None:
                raise run_model.InputError("no fleet model of this GPU model: give --expected MODEL")
            ranked = typical_baseline(runs, model)
            print(f"{'score':>6s} {'metrics':>7s}  board         part                  run")
            for score, n, r in ranked:
                print(f"{score:6.4f} {n:7d}  {str(r.context.get('gpu_uuid', '?'))[:12]:12s}  "
                      f"{str(resultfile.board_group(r.context)):20s}  {r.path}")
            return 0
        if args.show:
            show(load_model(args.show), (args.runs or [None])[0])
            return 0
        if rest:
            raise run_model.InputError(f"unknown option {rest[0]}")
        if not args.runs:
            raise run_model.InputError("no runs given")
        by_model, notes = load_runs(args.runs, args.include_quick, args.exclude)
        if not by_model:
            raise run_model.InputError("no usable run among the files given")
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        for gpu, runs in sorted(by_model.items()):
            if len(runs) < args.min_runs:
                print(f"{gpu}: {len(runs)} run(s): fewer than {args.min_runs}, no model written", file=sys.stderr)
                continue
            metrics, runs = build(runs)
            doc = document(gpu, metrics, runs)
            path = model_path(gpu, args.out_dir)
            try:
                write(doc, path)
            except OSError as e:
                raise run_model.InputError(f"{path}: cannot write: {e.strerror or e}")
            print(f"{path}: {len(metrics)} benchmarks from {doc['runs']} runs of {doc['boards']} boards "
                  f"{doc['parts']}")
    except run_model.InputError as e:
        print(f"fleet_model.py: error: {e}", file=sys.stderr)
        return 2
    except re.error as e:
        print(f"fleet_model.py: error: bad pattern: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

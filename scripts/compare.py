#!/usr/bin/env python3
"""Compares two archbench JSON files: a baseline and a contender.

Usage: compare.py [--markdown] [--threshold PCT] [--alpha P] BASELINE CONTENDER

Per benchmark present in both, the relative change of its main metric (bytes/s, latency in
cycles, instructions/clk/SM, atomics/s; `real_time` otherwise) and of every other numeric
counter. With repetitions on both sides (--benchmark_repetitions=N, N >= 3) a change counts only
when a Mann-Whitney U test finds it significant (p < alpha) and it exceeds the benchmark's own
noise threshold: max(--threshold, 3 x the larger coefficient of variation of the two sides).
Without repetitions the threshold alone decides. Benchmarks present on one side only are
listed. Different GPUs or drivers are warned about loudly.

Exit codes: 0 no significant regression, 1 at least one, 2 unreadable or malformed input.
"""
import argparse
import json
import math
import statistics
import sys

# (name prefix, main metric, higher is better)
MAIN_METRICS = [
    ("MemLatency/", "latency_cycles", False),
    ("Pipeline/latency/", "latency_cycles", False),
    ("Atomics/latency/", "latency_cycles", False),
    ("Pipeline/throughput/", "inst_per_clk_per_sm", True),
    ("Bandwidth/", "bytes_per_second", True),
    ("Atomics/", "atomics_per_second", True),
]
# Counters that describe the run, not its performance: never compared.
DESCRIPTIVE = {
    "sm_clock_mhz", "nvml_sm_clock_mhz", "gpu_temp_c", "power_w", "clock_event_reasons", "throttled", "smid",
    "footprint_bytes", "stride_bytes", "element_bytes", "carveout_pct", "primed", "steps", "samples", "iterations",
    "iters", "passes", "ilp", "warps_per_sm", "blocks_per_sm", "warps_per_block", "sms", "registers_per_thread",
    "results_per_step", "flops_per_result", "width_bytes", "footprint_per_sm_bytes", "level", "bytes_per_launch",
    "occupancy_pct", "threads_per_address", "addresses", "spacing_bytes", "self_checked", "steps_per_iteration",
    "shared_bytes_per_block", "peak_results_per_clk_per_sm", "peak_flops", "peak_bytes_per_second",
    "timer_overhead_cycles", "l2_sms_probed",
}


class InputError(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    except ValueError as e:
        raise InputError(f"{path}: not valid JSON (truncated?): {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise InputError(f"{path}: not an archbench/Google Benchmark result (no 'benchmarks' list)")
    runs = {}
    for b in doc["benchmarks"]:
        if not isinstance(b, dict) or b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b.get("run_name") or b.get("name")
        if not name:
            continue
        entry = runs.setdefault(name, {})
        for key, value in b.items():
            if key == "real_time" or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                      and key not in DESCRIPTIVE and key not in (
                                          "family_index", "per_family_instance_index", "repetitions",
                                          "repetition_index", "threads", "cpu_time")):
                entry.setdefault(key, []).append(float(value))
    return doc.get("context", {}), runs


def main_metric(name):
    for prefix, metric, higher in MAIN_METRICS:
        if name.startswith(prefix):
            return metric, higher
    return "real_time", False


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test (normal approximation, tie-corrected)."""
    n1, n2 = len(a), len(b)
    ranked = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(ranked)
    i = 0
    tie_term = 0.0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, side) in zip(ranks, ranked) if side == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    mu = n1 * n2 / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (abs(u1 - mu) - 0.5) / math.sqrt(var)
    return max(0.0, min(1.0, math.erfc(max(z, 0) / math.sqrt(2))))


def cv(values):
    if len(values) < 2:
        return 0.0
    m = statistics.mean(values)
    return 100 * statistics.stdev(values) / abs(m) if m else 0.0


def compare(base, cont, threshold, alpha):
    rows = []
    for name in sorted(set(base) & set(cont)):
        metric, higher = main_metric(name)
        for key in sorted(set(base[name]) & set(cont[name])):
            a, b = base[name][key], cont[name][key]
            ma, mb = statistics.median(a), statistics.median(b)
            if ma == 0:
                continue
            change = 100 * (mb - ma) / abs(ma)
            is_main = key == metric
            better_up = higher if is_main else (key != "real_time" and not key.startswith("latency"))
            worse = change < 0 if better_up else change > 0
            noise = max(threshold, 3 * max(cv(a), cv(b)))
            repeated = len(a) >= 3 and len(b) >= 3
            p = mann_whitney_p(a, b) if repeated else None
            significant = abs(change) > noise and (p is None or p < alpha)
            rows.append({"name": name, "counter": key, "main": is_main, "base": ma, "cont": mb, "change": change,
                         "noise": noise, "p": p, "significant": significant, "regression": significant and worse})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baseline")
    ap.add_argument("contender")
    ap.add_argument("--threshold", type=float, default=2.0, help="minimum change that counts, %% (default 2)")
    ap.add_argument("--alpha", type=float, default=0.05, help="significance level of the U test (default 0.05)")
    ap.add_argument("--markdown", action="store_true", help="Markdown instead of plain text")
    ap.add_argument("--all-counters", action="store_true", help="list every counter, not only the main metric")
    args = ap.parse_args(argv)
    try:
        ctx_a, base = load(args.baseline)
        ctx_b, cont = load(args.contender)
    except InputError as e:
        print(f"compare: error: {e}", file=sys.stderr)
        return 2

    out = []
    for key in ("gpu_name", "gpu_uuid", "gpu_cuda_driver_api_version", "nvml"):
        if ctx_a.get(key) != ctx_b.get(key):
            out.append(f"WARNING: {key} differs: '{ctx_a.get(key)}' vs '{ctx_b.get(key)}': "
                       "the files may not be comparable")
    only_a, only_b = sorted(set(base) - set(cont)), sorted(set(cont) - set(base))
    rows = compare(base, cont, args.threshold, args.alpha)
    shown = [r for r in rows if r["main"] or (args.all_counters and r["significant"])]
    regressions = [r for r in rows if r["regression"] and r["main"]]
    improvements = [r for r in rows if r["significant"] and not r["regression"] and r["main"]]

    def fmt(r):
        p = "-" if r["p"] is None else f"{r['p']:.3f}"
        mark = "REGRESSION" if r["regression"] else ("better" if r["significant"] else "")
        return r["name"], r["counter"], f"{r['base']:.6g}", f"{r['cont']:.6g}", f"{r['change']:+.2f}%", \
            f"{r['noise']:.2f}%", p, mark

    if args.markdown:
        out += ["| benchmark | counter | baseline | contender | change | noise threshold | p | |",
                "|---|---|---|---|---|---|---|---|"]
        out += ["| " + " | ".join(fmt(r)) + " |" for r in shown]
    else:
        out += ["  ".join(fmt(r)) for r in shown]
    out.append("")
    out.append(f"{len(shown)} compared, {len(regressions)} significant regression(s), "
               f"{len(improvements)} significant improvement(s); {len(only_a)} only in the baseline, "
               f"{len(only_b)} only in the contender")
    for title, names in (("only in the baseline", only_a), ("only in the contender", only_b)):
        for n in names[:50]:
            out.append(f"  {title}: {n}")
    for r in regressions:
        out.append(f"REGRESSION: {r['name']}: {r['counter']} {r['change']:+.2f}% (noise {r['noise']:.2f}%)")
    print("\n".join(out))
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())

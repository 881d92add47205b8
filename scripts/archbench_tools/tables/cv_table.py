#!/usr/bin/env python3
"""Repeatability table from a run with --benchmark_repetitions=N (N >= 2).

Usage: cv_table.py [--markdown] FILE

For every benchmark: the coefficient of variation (stddev / mean, %) of its main metric over
the repetitions, or for latencies the spread (max - min, cycles). Goals (issue 11): CV <= 1 %
for bandwidth and throughput, spread <= 1 cycle for latency. Prints a summary per feature and
every benchmark that misses its goal. Exit 0 always (a table, not a test), 2 on unreadable input.
"""
import argparse
import json
import statistics
import sys
from archbench_tools.results import resultfile  # noqa: E402

# feature family -> (metric, kind): kind "cv" (percent) or "spread" (cycles)
METRICS = [
    ("MemLatency/", "latency_cycles", "spread"),
    ("Pipeline/latency/", "latency_cycles", "spread"),
    ("Atomics/latency/", "latency_cycles", "spread"),
    ("Pipeline/throughput/", "thread_inst_per_clk_per_sm", "cv"),
    ("Bandwidth/", "bytes_per_second", "cv"),
    ("Atomics/", "atomics_per_second", "cv"),
]
GOAL = {"cv": 1.0, "spread": 1.0}


def metric_for(name):
    for prefix, metric, kind in METRICS:
        if name.startswith(prefix):
            return metric, kind
    return None, None


def table(doc):
    runs = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate" or not resultfile.measured(b):
            continue
        metric, kind = metric_for(b.get("name", ""))
        if metric == "thread_inst_per_clk_per_sm" and metric not in b:  # files before the rename
            metric = "inst_per_clk_per_sm"
        if metric and isinstance(b.get(metric), (int, float)):
            key = b.get("run_name", b["name"])
            runs.setdefault(key, (metric, kind, []))[2].append(float(b[metric]))
    rows = []
    for name, (metric, kind, values) in sorted(runs.items()):
        if len(values) < 2:
            continue
        if kind == "cv":
            mean = statistics.mean(values)
            value = 100.0 * statistics.stdev(values) / mean if mean else 0.0
        else:
            value = max(values) - min(values)
        rows.append((name, metric, kind, len(values), value, value <= GOAL[kind]))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--markdown", action="store_true", help="a markdown summary table")
    args = ap.parse_args(argv)
    try:
        doc = resultfile.load(args.file)
    except resultfile.ResultError as e:
        print(f"cv_table.py: error: {e}", file=sys.stderr)
        return 2
    rows = table(doc)
    if not rows:
        print("no benchmark with 2 or more repetitions")
        return 0
    features = {}
    for name, metric, kind, n, value, ok in rows:
        f = features.setdefault(resultfile.feature_of_name(name) + " " + ("latency spread, cycles" if kind == "spread" else f"{metric} CV, %"),
                                [0, 0, [], kind])
        f[0] += 1
        f[1] += ok
        f[2].append(value)
    if args.markdown:
        print("| Feature, metric | benchmarks | within goal | median | worst |")
        print("|---|---|---|---|---|")
    for key, (n, ok, values, kind) in features.items():
        values.sort()
        med, worst = values[len(values) // 2], values[-1]
        if args.markdown:
            print(f"| {key} | {n} | {ok} | {med:.3g} | {worst:.3g} |")
        else:
            print(f"{key}: {ok}/{n} within {GOAL[kind]:g} (median {med:.3g}, worst {worst:.3g})")
    misses = [r for r in rows if not r[5]]
    print(f"\n{len(misses)} of {len(rows)} benchmarks miss their goal" + (":" if misses else ""))
    for name, metric, kind, n, value, ok in sorted(misses, key=lambda r: -r[4])[:60]:
        unit = "%" if kind == "cv" else " cycles"
        print(f"  {name}: {metric} {'CV' if kind == 'cv' else 'spread'} {value:.3g}{unit} over {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

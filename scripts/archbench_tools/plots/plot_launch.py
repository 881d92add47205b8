#!/usr/bin/env python3
"""Plots Launch (kernel launch costs) from one or more archbench JSON files.

Usage: plot_launch.py [--out DIR] FILE...

Writes DIR/launch_costs.{png,svg}: per launch path and stream, the host's time per launch call,
the gap between consecutive kernels on the GPU (from a full queue) and launch-and-synchronise,
each the median with the 10th-90th percentile range. Files without Launch data are skipped.
"""
import sys
from archbench_tools.plots.plotlib import Script, finish  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

METRICS = [("host_launch_ns", "host, per launch call"), ("gpu_gap_ns", "GPU, gap between kernels"),
           ("end_to_end_ns", "host, launch + synchronise")]


def load(path):
    from archbench_tools.plots.plotlib import feature_benchmarks, axes
    label, ctx, rows = feature_benchmarks(path, "Launch")
    cases = {}
    for b in rows:
        fields = axes(b)
        if fields.get("params") != "0":
            continue
        key = f"{fields['path']}, {fields['stream']}"
        for m, _ in METRICS:
            if m in b:
                cases.setdefault(key, {})[m] = (b[m], b.get(m + "_p10", b[m]), b.get(m + "_p90", b[m]))
    return label, ctx, cases


def plot(datasets, args):
    fig, axes = plt.subplots(1, len(METRICS), figsize=(15, 4.5), squeeze=False)
    for ax, (metric, title) in zip(axes[0], METRICS):
        # One slot per case any run has, so that runs with other cases (a quick run has fewer)
        # still put each bar over its own case.
        keys = list(dict.fromkeys(c for _, _, cases in datasets for c in cases if metric in cases[c]))
        width = 0.8 / len(datasets)
        for k, (label, _, cases) in enumerate(datasets):
            at = [i for i, c in enumerate(keys) if c in cases and metric in cases[c]]
            values = [cases[keys[i]][metric] for i in at]
            ys = [v[0] / 1e3 for v in values]
            lo = [(v[0] - v[1]) / 1e3 for v in values]
            hi = [(v[2] - v[0]) / 1e3 for v in values]
            ax.bar([i + k * width for i in at], ys, width, yerr=[lo, hi], capsize=3,
                   label=label if len(datasets) > 1 else None)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(keys))])
        ax.set_xticklabels(keys, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("microseconds (median, p10-p90)")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(True, axis="y", alpha=0.3)
        if len(datasets) > 1:
            ax.legend(fontsize=7)
    return finish(fig, "Empty-kernel launch costs (no parameters)", datasets, args.out, "launch_costs")


SCRIPT = Script(__doc__, "Launch", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

#!/usr/bin/env python3
"""Plots Dsm (distributed shared memory) from one or more archbench JSON files.

Usage: plot_dsm.py [--out DIR] FILE...

Writes DIR/dsm_latency.{png,svg}: load latency of a block's own shared memory (ld.shared, and
through the cluster window) and of the other blocks' (median, min and max over the ranks) per
cluster size; and DIR/dsm_bandwidth.{png,svg}: bytes per clock per reading SM for each pattern
and cluster size, weak and volatile loads. Files without Dsm data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import plain_axis, feature_benchmarks, Script, finish, axes, family_parts, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

PATTERNS = ["local", "pairs", "ring", "one_to_all", "all_to_all"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Dsm")
    lat, bw = [], []
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        if parts[1] == "latency":
            lat.append({"size": int(fields["cluster"]), "lds": b["local_lds_cycles"], "own": b["local_cluster_cycles"],
                        "remote": b["remote_cycles"], "min": b["remote_min_cycles"], "max": b["remote_max_cycles"]})
        elif parts[1] == "bandwidth":
            bw.append({"size": int(fields["cluster"]), "pattern": fields["pattern"], "load": fields.get("load", "ld"),
                       "bpc": b["bytes_per_clk_per_sm"]})
    return label, ctx, (lat, bw) if lat or bw else None


def plot_latency(datasets, out_dir):
    if not any(lat for _, _, (lat, _) in datasets):
        return []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, _, (lat, _) in datasets:
        rows = sorted(lat, key=lambda r: r["size"])
        xs = [r["size"] for r in rows]
        suffix = f" — {label}" if len(datasets) > 1 else ""
        ax.plot(xs, [r["lds"] for r in rows], marker="o", label="own, ld.shared" + suffix)
        ax.plot(xs, [r["own"] for r in rows], marker="s", label="own, through the cluster window" + suffix)
        ax.errorbar(xs, [r["remote"] for r in rows], yerr=[[r["remote"] - r["min"] for r in rows],
                                                          [r["max"] - r["remote"] for r in rows]],
                    marker="^", capsize=3, label="other blocks (median, min..max)" + suffix)
    ax.set_xscale("log", base=2)
    ax.set_xticks([2, 4, 8, 16])
    ax.set_xticklabels(["2", "4", "8", "16"])
    ax.set_xlabel("blocks per cluster")
    plain_axis(ax.xaxis)
    value_axes(ax, "load latency, cycles")
    return finish(fig, "Distributed shared memory latency", datasets, out_dir, "dsm_latency")


def plot_bandwidth(datasets, out_dir):
    if not any(bw for _, _, (_, bw) in datasets):
        return []
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.5), squeeze=False)
    for li, load_name in enumerate(["ld", "ld.volatile"]):
        ax = axes[0][li]
        series = [(label, sorted({r["size"] for r in bw})) for label, _, (_, bw) in datasets]
        n = sum(len(sizes) for _, sizes in series)
        width, k = 0.8 / max(n, 1), 0
        for (label, sizes), (_, _, (_, bw)) in zip(series, datasets):
            for size in sizes:
                vals = {r["pattern"]: r["bpc"] for r in bw if r["size"] == size and r["load"] == load_name}
                xs = [i + k * width for i, p in enumerate(PATTERNS) if p in vals]
                ax.bar(xs, [vals[p] for p in PATTERNS if p in vals], width,
                       label=f"cluster {size}" + (f" — {label}" if len(datasets) > 1 else ""))
                k += 1
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(PATTERNS))])
        ax.set_xticklabels(PATTERNS, fontsize=8)
        if ax.patches:
            ax.set_yscale("log", base=2)
            plain_axis(ax.yaxis, minor_labels=True)
            ax.legend(fontsize=7)
        ax.set_ylabel("bytes per clock per reading SM", fontsize=8)
        ax.set_title(f"{load_name} (16-byte loads)", fontsize=10)
        ax.grid(True, axis="y", which="both", alpha=0.3)
    return finish(fig, "Distributed shared memory bandwidth", datasets, out_dir, "dsm_bandwidth")


def plot(datasets, args):
    return plot_latency(datasets, args.out) + plot_bandwidth(datasets, args.out)


SCRIPT = Script(__doc__, "Dsm", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

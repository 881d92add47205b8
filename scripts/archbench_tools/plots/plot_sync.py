#!/usr/bin/env python3
"""Plots Sync from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_sync.py [--unit cycles|ns] [--out DIR] FILE...

Writes DIR/sync_latency.{png,svg} (dependent-chain latency of each warp collective, one bar per
GPU), DIR/sync_throughput.{png,svg} (one panel per collective: % of the Programming Guide's
peak where it has one (shuffles), else warp-level instructions x 32 per clock per SM, against warps
on one SM, one line per ILP and GPU) and DIR/sync_barriers.{png,svg} (cycles per barrier, mbarrier
phase and fence against warps per block, one line per step and GPU; a fence measured on every SM
with the SMs' range as a bar). Files without Sync data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import family_parts, feature_benchmarks, finish, Script, plain_axis, unit_arg  # noqa: E402
from archbench_tools.plots.plot_pipeline import load as load_warp, plot_latency, plot_throughput  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    """The warp collectives (as plot_pipeline reads them) and the barrier and fence steps."""
    label, ctx, warp = load_warp(path, "Sync")
    _, _, rows = feature_benchmarks(path, "Sync")
    steps = []
    for b in rows:
        parts = family_parts(b)
        if len(parts) > 2 and parts[1] in ("bar", "mbarrier", "fence") and "latency_cycles" in b:
            steps.append({"family": parts[1], "step": parts[2], "warps": int(b["warps_per_block"]),
                          "cycles": b["latency_cycles"],
                          # fences measured on every SM: the SMs' range beside their mean
                          "min_sm": b.get("latency_cycles_min_sm"), "max_sm": b.get("latency_cycles_max_sm")})
    data = (warp or ({}, []), steps)
    return label, ctx, data if warp or steps else None


def plot_barriers(datasets, out_dir):
    datasets = [(label, ctx, steps) for label, ctx, (_, steps) in datasets]
    if not any(steps for _, _, steps in datasets):
        return []
    families = ["bar", "mbarrier", "fence"]
    fig, axes = plt.subplots(1, len(families), figsize=(5 * len(families), 4), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for fi, family in enumerate(families):
        ax = axes[0][fi]
        for gi, (label, _, steps) in enumerate(datasets):
            for step in dict.fromkeys(r["step"] for r in steps if r["family"] == family):
                rows = sorted((r for r in steps if r["step"] == step), key=lambda r: r["warps"])
                xs, ys = [r["warps"] for r in rows], [r["cycles"] for r in rows]
                line, = ax.plot(xs, ys, styles[gi % len(styles)], marker="o", markersize=3, linewidth=1.1,
                                label=step + (f" — {label}" if len(datasets) > 1 else ""))
                if all(r["min_sm"] is not None and r["max_sm"] is not None for r in rows):
                    ax.errorbar(xs, ys, yerr=[[y - r["min_sm"] for y, r in zip(ys, rows)],
                                              [r["max_sm"] - y for y, r in zip(ys, rows)]],
                                fmt="none", ecolor=line.get_color(), elinewidth=0.8, capsize=2)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        plain_axis(ax.xaxis)
        plain_axis(ax.yaxis, minor_labels=True)
        ax.set_title(family, fontsize=9)
        ax.set_xlabel("warps per block (one block, one SM)" if family != "fence" else
                      "warps per block (one block; GPU-scope fences: the mean over SMs, bars: their range)", fontsize=7)
        ax.set_ylabel("cycles per step (the block's window)", fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        ax.tick_params(labelsize=7)
        if ax.lines:
            ax.legend(fontsize=6)
    return finish(fig, "Sync: barriers and fences", datasets, out_dir, "sync_barriers", dpi=130)


def plot(datasets, args):
    warp = [(label, ctx, w) for label, ctx, (w, _) in datasets if w[0] or w[1]]
    out = plot_latency(warp, args.unit, args.out, "Sync") + plot_throughput(warp, args.out, "Sync", one_sm=True) if warp else []
    return out + plot_barriers(datasets, args.out)


SCRIPT = Script(__doc__, "Sync", load, plot, extra_args=unit_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

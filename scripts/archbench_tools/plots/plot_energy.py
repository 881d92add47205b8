#!/usr/bin/env python3
"""Plots Energy (incremental energy per operation) from one or more archbench JSON files.

Usage: plot_energy.py [--out DIR] FILE...

Writes DIR/energy_levels.{png,svg}: pJ per byte against the level that served it (shared memory,
L1, L2, DRAM, the host link), reads and writes, the static part's share drawn lighter above; and
DIR/energy_dtypes.{png,svg}: pJ per FLOP against the data type, CUDA-core FMAs beside mma.sync and
wgmma (throttled windows hatched). Files without Energy data are skipped.
"""
import sys
from archbench_tools.plots.plotlib import family_parts, feature_benchmarks, finish, Script  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

LEVELS = ["smem", "L1", "L2", "DRAM", "host"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Energy")
    levels, dtypes = {}, {}
    for b in rows:
        parts = family_parts(b)
        if parts[1] == "bytes" and "pj_per_byte" in b:
            levels[(parts[2], parts[3])] = b
        elif parts[1] == "host" and "pj_per_byte" in b:
            levels[("host", parts[3])] = b
        elif parts[1] == "op" and "pj_per_flop" in b:
            dtypes[f"{parts[2].upper()} (CUDA cores)"] = b
        elif parts[1] in ("mma_sync", "wgmma") and "pj_per_flop" in b:
            dtypes[f"{parts[2].split('_')[0]} {parts[1]}"] = b
    return label, ctx, (levels, dtypes) if levels or dtypes else None


def bars(ax, items, counter, static_counter, datasets_count, index, label):
    width = 0.8 / datasets_count
    xs = [i + (index - (datasets_count - 1) / 2) * width for i in range(len(items))]
    dyn = [b[counter] for _, b in items]
    static = [max(b.get(static_counter, b[counter]) - b[counter], 0) for _, b in items]
    hatch = ["//" if b.get("throttled") else "" for _, b in items]
    drawn = ax.bar(xs, dyn, width, label=f"dynamic{label}")
    for rect, h in zip(drawn, hatch):
        rect.set_hatch(h)
    ax.bar(xs, static, width, bottom=dyn, color=drawn[0].get_facecolor(), alpha=0.3, label=f"+ static over its time{label}")
    # A log axis starts below the smallest bar, or that bar would not show.
    low = min(dyn) / 2
    ax.set_ylim(bottom=min(low, ax.get_ylim()[0]) if index else low)


def plot(datasets, args):
    paths = []
    fig, ax = plt.subplots(figsize=(9, 5))
    for i, (label, _, (levels, _)) in enumerate(datasets):
        order = sorted(levels.items(), key=lambda kv: (LEVELS.index(kv[0][0]) if kv[0][0] in LEVELS else 99, kv[0][1]))
        ax.set_yscale("log")
        bars(ax, order, "pj_per_byte", "pj_per_byte_with_static", len(datasets), i,
             f" — {label}" if len(datasets) > 1 else "")
        ax.set_xticks(range(len(order)), [f"{lvl}\n{kind}" for (lvl, kind), _ in order], fontsize=8)
    ax.set_ylabel("pJ per byte")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    paths += finish(fig, "Energy per byte by the level that served it", datasets, args.out, "energy_levels")

    fig, ax = plt.subplots(figsize=(10, 5))
    for i, (label, _, (_, dtypes)) in enumerate(datasets):
        order = sorted(dtypes.items(), key=lambda kv: -kv[1]["pj_per_flop"])
        ax.set_yscale("log")
        bars(ax, order, "pj_per_flop", "pj_per_flop_with_static", len(datasets), i,
             f" — {label}" if len(datasets) > 1 else "")
        ax.set_xticks(range(len(order)), [k for k, _ in order], rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("pJ per FLOP (integer types: per op)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    paths += finish(fig, "Energy per FLOP by data type (hatched: throttled)", datasets, args.out, "energy_dtypes")
    return paths


SCRIPT = Script(__doc__, "Energy", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

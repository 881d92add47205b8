#!/usr/bin/env python3
"""Plots L2Persist (the L2 set-aside for persisting accesses) from one or more archbench JSON files.

Usage: plot_l2persist.py [--out DIR] FILE...

Writes DIR/l2persist_kept.{png,svg}: the bytes of the persisting window that survive a 4x-L2
stream against the window's size, one line per set-aside (dashed: the set-aside granted), at
hitRatio 1 and 0.5. Files without L2Persist data are skipped.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, feature_benchmarks, Script, finish, axes, family_parts, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    label, ctx, rows = feature_benchmarks(path, "L2Persist")
    kept = {}
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        if parts[1] != "kept":
            continue
        kept.setdefault((b["setaside_bytes"], float(fields["hit_ratio"])), []).append((b["window_bytes"], b["kept_bytes"]))
    return label, ctx, kept if kept else None


def plot(datasets, args):
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, _, kept in datasets:
        suffix = f" — {label}" if len(datasets) > 1 else ""
        for (setaside, ratio), pts in sorted(kept.items()):
            pts.sort()
            name = f"set aside {setaside / 2**20:.1f} MiB" if setaside else "nothing set aside"
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o" if ratio == 1 else "s",
                            ls="-" if ratio == 1 else ":", label=f"{name}, hitRatio {ratio:g}{suffix}")
            if setaside and ratio == 1:
                ax.axhline(setaside, ls="--", lw=0.8, color=line.get_color())
    bytes_axis(ax.xaxis)
    bytes_axis(ax.yaxis)
    ax.set_xlabel("persisting window")
    value_axes(ax, "kept after a 4x-L2 stream", legend_size=7)
    return finish(fig, "L2 persistence: what the set-aside keeps", datasets, args.out, "l2persist_kept")


SCRIPT = Script(__doc__, "L2Persist", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

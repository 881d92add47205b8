#!/usr/bin/env python3
"""Plots HostLink (host<->device copies) from one or more archbench JSON files.

Usage: plot_hostlink.py [--out DIR] FILE...

Writes DIR/hostlink_copy.{png,svg}: bytes per second against the copy size for each direction
and kind of host memory, with the link's per-direction peak (from NVML) as a dashed line.
Files without HostLink data are skipped.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, feature_benchmarks, Script, finish, axes, family_parts  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

DIRS = ["h2d", "d2h", "bidir"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "HostLink")
    series, peak = {}, None
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        if parts[1] == "link":
            peak = b.get("link_peak_bytes_per_second") or None
        elif parts[1] == "copy":
            series.setdefault((fields["dir"], fields["memory"]), []).append((int(fields["size"]), b["bytes_per_second"]))
    return label, ctx, (series, peak) if series else None


def plot(datasets, args):
    fig, axes = plt.subplots(1, len(DIRS), figsize=(15, 4.5), squeeze=False)
    for ax, d in zip(axes[0], DIRS):
        for label, _, (series, peak) in datasets:
            suffix = f" — {label}" if len(datasets) > 1 else ""
            for (direction, memory), pts in sorted(series.items()):
                if direction != d:
                    continue
                pts.sort()
                ax.plot([p[0] for p in pts], [p[1] / 1e9 for p in pts], marker="o", label=memory + suffix)
            if peak:
                ax.axhline(peak * (2 if d == "bidir" else 1) / 1e9, ls="--", color="grey", lw=1,
                           label="link peak" + (" x2" if d == "bidir" else "") + suffix)
        ax.set_xscale("log", base=2)
        bytes_axis(ax.xaxis)
        ax.set_xlabel("copy size")
        ax.set_ylabel("GB/s")
        ax.set_ylim(bottom=0)
        ax.set_title({"h2d": "host to device", "d2h": "device to host", "bidir": "both at once"}[d], fontsize=10)
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    return finish(fig, "Host link copies", datasets, args.out, "hostlink_copy")


SCRIPT = Script(__doc__, "HostLink", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

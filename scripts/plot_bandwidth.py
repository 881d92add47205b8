#!/usr/bin/env python3
"""Plots Bandwidth from one or more archbench JSON files (several files: GPUs overlaid).

Usage: plot_bandwidth.py [--width 4|8|16] [--out DIR] FILE...

Writes DIR/bandwidth_footprint.{png,svg}: bytes/s against footprint (log x), one panel per kernel
kind (read, write, copy, rmw), one line per cache operator, with the L2 size and the DRAM peak
marked; and DIR/bandwidth_shape.{png,svg}: the occupancy sweep per level (blocks per SM x warps
per block on every SM). Files without Bandwidth data are skipped with a note.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotlib import bytes_axis, plain_axis, feature_benchmarks, main, save, finish  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

KINDS = ["read", "write", "copy", "rmw"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Bandwidth")
    sweep, shapes = [], []
    for b in rows:
        parts = b["name"].split("/")
        if parts[1] == "shape":
            shapes.append({"level": parts[2], "variant": parts[3] + "/" + parts[4], "blocks": int(b["blocks_per_sm"]),
                           "warps": int(b["warps_per_block"]), "sms": int(b["sms"]), "bps": b["bytes_per_second"]})
        elif parts[1] in KINDS:
            sweep.append({"kind": parts[1], "ops": parts[2], "width": int(b["width_bytes"]),
                          "footprint": b["footprint_bytes"], "bps": b["bytes_per_second"]})
    return label, ctx, (sweep, shapes) if sweep or shapes else None


def plot_footprint(datasets, width, out_dir):
    datasets = [(label, ctx, sweep, shapes) for label, ctx, (sweep, shapes) in datasets]
    if not any(sweep for _, _, sweep, _ in datasets):
        return []
    fig, axes = plt.subplots(2, 2, figsize=(14, 9), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for ki, kind in enumerate(KINDS):
        ax = axes[ki // 2][ki % 2]
        for gi, (label, ctx, sweep, _) in enumerate(datasets):
            for ops in sorted({r["ops"] for r in sweep if r["kind"] == kind}):
                pts = sorted((r["footprint"], r["bps"] / 1e12) for r in sweep
                             if r["kind"] == kind and r["ops"] == ops and r["width"] == width)
                if pts:
                    xs, ys = zip(*pts)
                    tag = ops + (f" — {label}" if len(datasets) > 1 else "")
                    ax.plot(xs, ys, styles[gi % len(styles)], marker="o", markersize=2, linewidth=1.1, label=tag)
            l2 = float(ctx.get("gpu_l2_bytes", 0))
            peak = float(ctx.get("gpu_dram_peak_bytes_per_second", 0)) / 1e12
            if l2 > 0 and gi == 0:
                ax.axvline(l2, color="grey", linestyle="--", linewidth=0.8)
                ax.text(l2, 0.98, " L2", transform=ax.get_xaxis_transform(), va="top", fontsize=7, color="grey")
            if peak > 0 and gi == 0:
                ax.axhline(peak, color="grey", linestyle=":", linewidth=0.8)
                ax.text(0.01, peak, "DRAM peak", transform=ax.get_yaxis_transform(), va="bottom", fontsize=7, color="grey")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{kind}, {width} B per thread", fontsize=10)
        ax.set_xlabel("footprint (whole grid)", fontsize=8)
        bytes_axis(ax.xaxis)
        plain_axis(ax.yaxis, minor_labels=True)
        ax.set_ylabel("TB/s", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.tick_params(labelsize=7)
        if ax.lines:
            ax.legend(fontsize=6, ncol=2)
    return finish(fig, "Bandwidth vs footprint", datasets, out_dir, "bandwidth_footprint")


def plot_shapes(datasets, out_dir):
    datasets = [(label, ctx, sweep, shapes) for label, ctx, (sweep, shapes) in datasets]
    rows = [(label, r) for label, _, _, shapes in datasets for r in shapes]
    if not rows:
        return []
    cases = list(dict.fromkeys((r["level"], r["variant"]) for _, r in rows))
    fig, axes = plt.subplots(1, len(cases), figsize=(4.5 * len(cases), 4), squeeze=False)
    for ci, (level, variant) in enumerate(cases):
        ax = axes[0][ci]
        for label, _, _, shapes in datasets:
            mine = [r for r in shapes if r["level"] == level and r["variant"] == variant]
            all_sms = max((r["sms"] for r in mine), default=0)
            for blocks in sorted({r["blocks"] for r in mine}):
                pts = sorted((r["blocks"] * r["warps"], r["bps"] / 1e12) for r in mine
                             if r["blocks"] == blocks and r["sms"] == all_sms)
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, marker="o", markersize=3, linewidth=1.1,
                            label=f"{blocks} block(s)/SM" + (f" — {label}" if len(datasets) > 1 else ""))
        ax.set_xscale("log", base=2)
        ax.set_title(f"{level}: {variant}", fontsize=9)
        ax.set_xlabel("warps per SM", fontsize=8)
        plain_axis(ax.xaxis)
        ax.set_ylabel("TB/s", fontsize=8)
        ax.grid(True, alpha=0.3)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6)
    fig.suptitle("Bandwidth vs occupancy (every SM)")
    fig.tight_layout()
    return save(fig, out_dir, "bandwidth_shape")


if __name__ == "__main__":
    sys.exit(main(__doc__, "Bandwidth", load,
                  lambda datasets, args: plot_footprint(datasets, args.width, args.out) + plot_shapes(datasets, args.out),
                  extra_args=lambda ap: ap.add_argument("--width", type=int, choices=[4, 8, 16], default=16)))

#!/usr/bin/env python3
"""Plots Tlb from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_tlb.py [--out DIR] [--unit cycles|ns] FILE...

Writes DIR/tlb_footprint.{png,svg}: latency of an ld.cg pointer chase with one element per
stride against the footprint (log scale), one line per stride, one panel per load and mapping
of the memory (ld.ca or ld.cg; managed, scattered, contiguous), with the levels Tlb/geometry inferred (reach as vertical lines)
when the file has them. Files without Tlb data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, feature_benchmarks, Script, save, unit_arg, axes, family_parts  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Tlb")
    panels = {}  # "<op>, <mapping> mapping" -> (curves by stride, geometry)
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        key = f"{parts[2]}, {fields.get('mapping', 'contiguous')} mapping"
        curves, _ = panels.setdefault(key, ({}, None))
        if parts[1] == "geometry":
            panels[key] = (curves, b)
        elif parts[1] == "latency":
            curves.setdefault(int(b["stride_bytes"]), []).append(
                (b["footprint_bytes"], b["latency_cycles"], b["latency_ns"]))
    panels = {m: v for m, v in panels.items() if v[0]}
    return label, ctx, panels or None


def human(n):
    for unit, size in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]:
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n:g} B"


def plot(datasets, args):
    col = 1 if args.unit == "cycles" else 2
    panels = [(f"{label}: {key}", curves, geometry)
              for label, _, by_key in datasets for key, (curves, geometry) in sorted(by_key.items())]
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(8 * cols, 5 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (label, curves, geometry) in zip(axes.flat, panels):
        cmap = plt.get_cmap("viridis")
        for i, stride in enumerate(sorted(curves)):
            pts = sorted(curves[stride])
            ax.plot([p[0] for p in pts], [p[col] for p in pts], marker="o", markersize=2, linewidth=1,
                    color=cmap(i / max(1, len(curves) - 1)), label=f"stride {human(stride)}")
        if geometry:
            for level in range(1, 5):
                reach = geometry.get(f"level{level}_reach_bytes")
                if reach:
                    ax.axvline(reach, color="grey", linestyle="--", linewidth=0.8)
                    ax.text(reach, ax.get_ylim()[1], f" level {level} reach {human(reach)}", rotation=90,
                            va="top", fontsize=7)
            page = geometry.get("page_size_bytes")
            if page:
                ax.set_title(f"{label}, pages of {human(page)}", fontsize=9)
        if not ax.get_title():
            ax.set_title(label, fontsize=9)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("footprint")
        bytes_axis(ax.xaxis)
        ax.set_ylabel(f"latency per load ({args.unit})")
        ax.grid(True, which="both", alpha=0.3)
        values = [p[col] for pts in curves.values() for p in pts]
        if not (geometry and geometry.get("level1_reach_bytes")):
            lo, hi = min(values), max(values)
            flat = hi - lo < 0.05 * max(hi, 1)
            if flat:  # one value throughout: say so on an axis that does not magnify its last digit
                ax.set_ylim(0, 1.5 * hi)
            ax.text(0.02, 0.95, f"no TLB level inferred: {'flat at' if flat else 'from'} {lo:.0f}"
                    f"{'' if flat else f'-{hi:.0f}'} {args.unit} up to {human(max(p[0] for pts in curves.values() for p in pts))}",
                    transform=ax.transAxes, va="top", fontsize=8, bbox=dict(facecolor="white", alpha=0.8, linewidth=0))
    # One legend for every panel: the strides' colours are the same in each.
    handles, labels = max((ax.get_legend_handles_labels() for ax in axes.flat[:len(panels)]), key=lambda hl: len(hl[1]))
    fig.legend(handles, labels, loc="lower center", ncol=min(10, len(labels)), fontsize=8)
    fig.suptitle("TLB: pointer-chase latency, one element per stride (the vertical lines: each level's reach)")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return save(fig, args.out, "tlb_footprint")


SCRIPT = Script(__doc__, "Tlb", load, plot, extra_args=unit_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

#!/usr/bin/env python3
"""Plots SmemBanks from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_smembanks.py [--out DIR] FILE...

Writes DIR/smembanks_stride.{png,svg}: cycles per warp access (32 warps per SM) against the
stride between lanes, one panel per access width, measured points over the bank model's
prediction for the inferred geometry (cycles per wavefront x wavefronts); and
DIR/smembanks_latency.{png,svg}: the dependent-chain latency against the stride. Files without
SmemBanks data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import axes, family_parts, plain_axis, feature_benchmarks, Script, finish  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

WIDTHS = [4, 8, 16]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "SmemBanks")
    data = {"tput": [], "lat": [], "geometry": None}
    for b in rows:
        parts = family_parts(b)
        if parts[1] == "geometry":
            data["geometry"] = b
            continue
        fields = axes(b)
        if "stride" not in fields:
            continue
        row = {"width": int(fields["width"]), "stride": int(fields["stride"]), "model": b.get("model_wavefronts", 0)}
        if parts[1] == "latency":
            data["lat"].append(dict(row, cycles=b["latency_cycles"]))
        elif int(fields.get("warps_per_sm", 0)) == 32:
            data["tput"].append(dict(row, cycles=b["cycles_per_access"]))
    return label, ctx, data if data["tput"] or data["lat"] else None


def plot_stride(datasets, out_dir, key, ylabel, stem, title):
    if not any(d[key] for _, _, d in datasets):
        return []
    fig, axes = plt.subplots(1, len(WIDTHS), figsize=(15, 4.5), squeeze=False)
    for wi, width in enumerate(WIDTHS):
        ax = axes[0][wi]
        for label, _, d in datasets:
            rows = sorted((r for r in d[key] if r["width"] == width), key=lambda r: r["stride"])
            if not rows:
                continue
            suffix = f" — {label}" if len(datasets) > 1 else ""
            ax.plot([r["stride"] for r in rows], [r["cycles"] for r in rows], marker="o", markersize=3,
                    linewidth=1, label="measured" + suffix)
            g = d["geometry"]
            if key == "tput" and g:
                ax.plot([r["stride"] for r in rows], [g["cycles_per_wavefront"] * r["model"] for r in rows],
                        linestyle="--", linewidth=1,
                        label=f"bank model, {int(g['banks'])} x {int(g['bank_width_bytes'])} B" + suffix)
        ax.set_yscale("log", base=2)
        plain_axis(ax.yaxis, minor_labels=True)
        ax.set_xlabel("stride between lanes (elements of the access width)", fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.set_title(f"{width}-byte accesses", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    return finish(fig, title, datasets, out_dir, stem)


def plot(datasets, args):
    return (plot_stride(datasets, args.out, "tput", "SM cycles per warp access (32 warps/SM)", "smembanks_stride",
                        "Shared-memory bank conflicts") +
            plot_stride(datasets, args.out, "lat", "latency, cycles (one warp, dependent)", "smembanks_latency",
                        "Shared-memory load latency under bank conflicts"))


SCRIPT = Script(__doc__, "SmemBanks", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

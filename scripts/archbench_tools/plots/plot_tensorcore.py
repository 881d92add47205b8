#!/usr/bin/env python3
"""Plots TensorCore from one or more archbench JSON files.

Usage: plot_tensorcore.py [--out DIR] FILE...

Writes DIR/tensor_throughput.{png,svg}: per dtype, the best FLOP/s (integer ops for s8) of
mma.sync, of wgmma (A in shared memory or registers), of their 2:4 sparse forms (dense-equivalent
FLOP/s) and of the cuBLASLt GEMM in the same run, each bar labelled with its % of its peak at the
clock it ran at (the sparse forms': twice the dense; random data, all SMs, f32/s32/f64
accumulators); and
DIR/tensor_wgmma_n.{png,svg}: wgmma's % of peak against N for both operand sources, with its
latency per instruction, and sparse wgmma's % of the sparse peak where the run has it. Files
without TensorCore data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import plain_axis, feature_benchmarks, Script, save, finish, axes, family_parts  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# The input type of each wgmma type, mma.sync op and cuBLAS run, in plotting order.
DTYPES = ["f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "f64"]


def dtype_of(name):
    return name.split("_")[0]


# The bar of each benchmark family (its name's second part): the wgmma ones by operand source.
BAR_KINDS = {"mma_sync": "mma.sync", "mma_sp": "mma.sp", "wgmma": "wgmma", "wgmma_sp": "wgmma.sp",
             "cublas": "cuBLASLt GEMM"}


def load(path):
    label, ctx, rows = feature_benchmarks(path, "TensorCore")
    all_sms = str(ctx.get("gpu_sm_count", ""))
    best, wg_n, wg_lat, sp_n = {}, [], [], []
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        if fields.get("fill", "random") != "random":
            continue
        kind, variant = parts[1], parts[2]
        if kind not in BAR_KINDS:
            continue  # numerics: no rate
        if variant == "throughput" and fields.get("sms") != all_sms:
            continue
        if kind == "wgmma" and variant == "latency":
            wg_lat.append((parts[3], int(fields["n"]), b["latency_cycles"]))
            continue
        if kind in ("wgmma", "wgmma_sp") and variant == "throughput":
            (wg_n if kind == "wgmma" else sp_n).append((parts[3], parts[4], int(fields["n"]), b.get("pct_of_peak", 0)))
        if "flops" not in b:
            continue
        if kind != "cublas" and (parts[3].endswith("_f16") or parts[3] == "f16_acc_f16"):
            continue  # f16 accumulators: in the N plot, not among the f32 accumulators' bars
        if kind == "cublas":
            key = (variant, BAR_KINDS[kind])
        elif kind.startswith("wgmma"):
            key = (dtype_of(parts[3]), f"{BAR_KINDS[kind]} {parts[4].upper()}")
        else:
            key = (dtype_of(parts[3]), BAR_KINDS[kind])
        if key not in best or b["flops"] > best[key]["flops"]:
            best[key] = {"flops": b["flops"], "pct": b.get("pct_of_peak"), "name": b["name"]}
    return label, ctx, (best, wg_n, wg_lat, sp_n) if best else None


def plot_throughput(datasets, out_dir):
    fig, axes = plt.subplots(len(datasets), 1, figsize=(11, 4.8 * len(datasets)), squeeze=False)
    every_kind = ["mma.sync", "mma.sp", "wgmma SS", "wgmma RS", "wgmma.sp SS", "wgmma.sp RS", "cuBLASLt GEMM"]
    for ax, (label, _, (best, _, _, _)) in zip(axes[:, 0], datasets):
        kinds = [k for k in every_kind if any(kind == k for _, kind in best)]
        dtypes = [d for d in DTYPES if any((d, k) in best for k in kinds)]
        width = 0.8 / len(kinds)
        for ki, kind in enumerate(kinds):
            xs = [i + ki * width for i, d in enumerate(dtypes) if (d, kind) in best]
            vals = [best[(d, kind)] for d in dtypes if (d, kind) in best]
            bars = ax.bar(xs, [v["flops"] / 1e12 for v in vals], width, label=kind)
            for bar, v in zip(bars, vals):
                if v["pct"] is not None:
                    ax.annotate(f"{v['pct']:.0f}%", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                                ha="center", va="bottom", fontsize=7)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(dtypes))])
        ax.set_xticklabels(dtypes)
        ax.set_ylabel("TFLOP/s (TOP/s for s8), all SMs")
        ax.set_title(f"{label}: best of each kind, % of its peak at the clock it ran at (sparse: dense-equivalent "
                     "FLOP, twice the dense peak)", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Tensor-core throughput per input type (random data)")
    fig.tight_layout()
    return save(fig, out_dir, "tensor_throughput")


def plot_pct_against_n(ax, rows, suffix):
    """Each type's best % of peak (over warpgroups) against N, a line per operand source."""
    for t in sorted({r[0] for r in rows}):
        for mode, style in [("ss", "-o"), ("rs", "--s")]:
            pts = {}
            for typ, m, n, pct in rows:
                if typ == t and m == mode:
                    pts[n] = max(pts.get(n, 0), pct)
            if pts:
                ns = sorted(pts)
                ax.plot(ns, [pts[n] for n in ns], style, label=f"{t} {mode.upper()}{suffix}", markersize=4)


def plot_wgmma_n(datasets, out_dir):
    if not any(wg_n for _, _, (_, wg_n, _, _) in datasets):
        return []
    sparse = any(sp_n for _, _, (_, _, _, sp_n) in datasets)
    fig, panels = plt.subplots(1, 3 if sparse else 2, figsize=(19 if sparse else 13, 4.5))
    ax, axl = panels[0], panels[1]
    for label, _, (_, wg_n, wg_lat, sp_n) in datasets:
        suffix = f" — {label}" if len(datasets) > 1 else ""
        plot_pct_against_n(ax, wg_n, suffix)
        if sparse:
            plot_pct_against_n(panels[2], sp_n, suffix)
        for t in sorted({r[0] for r in wg_lat}):
            pts = sorted((n, c) for typ, n, c in wg_lat if typ == t)
            axl.plot([p[0] for p in pts], [p[1] for p in pts], "-o", label=t + suffix, markersize=4)
    if sparse:
        panels[2].set_ylabel("sparse wgmma: % of the sparse peak")
        panels[2].set_ylim(0, 105)
        panels[2].legend(fontsize=6, ncol=2, loc="lower right")
    for a in panels:
        a.set_xscale("log", base=2)
        a.set_xticks([8, 16, 32, 64, 128, 256])
        a.set_xticklabels(["8", "16", "32", "64", "128", "256"])
        a.set_xlabel("N of m64nNk*")
        plain_axis(a.xaxis)
        a.grid(True, alpha=0.3)
    ax.set_ylabel("% of the dense peak (best over warpgroups)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=6, ncol=2, loc="lower right")
    if not any(wg_lat for _, _, (_, _, wg_lat, _) in datasets):
        axl.text(0.5, 0.5, "no wgmma latency in this run", ha="center", va="center", transform=axl.transAxes)
    axl.set_ylabel("cycles per wgmma, one at a time")
    axl.set_ylim(bottom=0)
    axl.legend(fontsize=7)
    return finish(fig, "wgmma against N", datasets, out_dir, "tensor_wgmma_n")


def plot(datasets, args):
    return plot_throughput(datasets, args.out) + plot_wgmma_n(datasets, args.out)


SCRIPT = Script(__doc__, "TensorCore", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

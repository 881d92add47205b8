#!/usr/bin/env python3
"""Plots Pipeline from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_pipeline.py [--unit cycles|ns] [--out DIR] FILE...

Writes DIR/pipeline_latency.{png,svg} (dependent-chain latency per op, one bar per GPU) and
DIR/pipeline_throughput.{png,svg} (one panel per op: % of peak, or instructions/clk/SM where no
peak is known, against warps per SM on all SMs, one line per ILP and GPU). Files without
Pipeline data are skipped with a note.
"""
import math
import sys
from archbench_tools.plots.plotlib import family_parts, plain_axis, feature_benchmarks, Script, save, unit_arg, finish, run_title  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path, feature="Pipeline"):
    """Pipeline/<kind>/<op>/... and Sync/warp/<kind>/<op>/... alike."""
    label, ctx, rows = feature_benchmarks(path, feature)
    latency, throughput = {}, []
    for b in rows:
        parts = family_parts(b)
        if len(parts) > 1 and parts[1] == "warp":
            parts = parts[1:]
        if len(parts) > 1 and parts[1] == "dpx":  # the DPX table: a table in docs/pipeline.md, not these plots
            continue
        kind, op = parts[1:3]
        if kind == "latency":
            latency[op] = {"cycles": b["latency_cycles"], "ns": b["latency_ns"]}
        elif kind == "throughput":
            throughput.append({"op": op, "ilp": int(b["ilp"]), "warps": int(b["warps_per_sm"]), "sms": int(b["sms"]),
                               "rate": b.get("thread_inst_per_clk_per_sm", b.get("inst_per_clk_per_sm")), "pct": b.get("pct_of_peak"),
                               "peak": b.get("peak_results_per_clk_per_sm")})
    return label, ctx, (latency, throughput) if latency or throughput else None


def plot_latency(datasets, unit, out_dir, feature="Pipeline"):
    datasets = [(label, ctx, lat, tput) for label, ctx, (lat, tput) in datasets]
    ops = list(dict.fromkeys(op for _, _, latency, _ in datasets for op in latency))
    if not ops:
        return []
    fig, ax = plt.subplots(figsize=(10, 0.35 * len(ops) * len(datasets) + 1.5))
    height = 0.8 / len(datasets)
    for gi, (label, _, latency, _) in enumerate(datasets):
        ys = [i + gi * height for i, op in enumerate(ops) if op in latency]
        vals = [latency[op][unit] for op in ops if op in latency]
        bars = ax.barh(ys, vals, height=height, label=label)
        for bar, v in zip(bars, vals):
            ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {v:.2f}", va="center", fontsize=7)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(ops))])
    ax.set_yticklabels(ops, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"dependent-chain latency ({unit} per instruction)")
    ax.set_title(run_title(f"{feature} latency", datasets))
    if len(datasets) > 1:
        ax.legend(fontsize=7)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    return save(fig, out_dir, f"{feature.lower()}_latency", dpi=130)


def plot_throughput(datasets, out_dir, feature="Pipeline", one_sm=False):
    """% of peak (or inst/clk/SM) against warps per SM: on all SMs, or on one (one_sm)."""
    datasets = [(label, ctx, lat, tput) for label, ctx, (lat, tput) in datasets]
    ops = list(dict.fromkeys(r["op"] for _, _, _, rows in datasets for r in rows))
    if not ops:
        return []
    cols = 4
    rows_n = math.ceil(len(ops) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(4 * cols, 2.8 * rows_n), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for i, op in enumerate(ops):
        ax = axes[i // cols][i % cols]
        use_pct = all(r["pct"] is not None for _, _, _, rows in datasets for r in rows if r["op"] == op)
        for gi, (label, _, _, rows) in enumerate(datasets):
            mine = [r for r in rows if r["op"] == op]
            if not mine:
                continue
            all_sms = min(r["sms"] for r in mine) if one_sm else max(r["sms"] for r in mine)
            for ilp in sorted({r["ilp"] for r in mine}):
                pts = sorted((r["warps"], r["pct"] if use_pct else r["rate"]) for r in mine
                             if r["ilp"] == ilp and r["sms"] == all_sms)
                if pts:
                    xs, ys = zip(*pts)
                    tag = f"ILP {ilp}" + (f" — {label}" if len(datasets) > 1 else "")
                    ax.plot(xs, ys, styles[gi % len(styles)], marker="o", markersize=3, label=tag, linewidth=1.1)
        ax.set_xscale("log", base=2)
        ax.set_title(op, fontsize=9)
        ax.set_xlabel("warps per SM (one SM)" if one_sm else "warps per SM (all SMs)", fontsize=7)
        plain_axis(ax.xaxis)
        # Which peak: the results per clock per SM the pipe delivers at most (an HFMA2 gives 2, so
        # a scalar half-precision op stops at 50 % of the f16 peak).
        peaks = {r["peak"] for _, _, _, rows in datasets for r in rows if r["op"] == op and r.get("peak")}
        peak = f"% of {min(peaks):g} results/clk/SM" if len(peaks) == 1 else "% of peak"
        ax.set_ylabel(peak if use_pct else "inst/clk/SM", fontsize=7)
        if use_pct:
            ax.set_ylim(0, 105)
        ax.tick_params(labelsize=7)
        ax.grid(True, alpha=0.3)
    for j in range(len(ops), rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    # One legend under the panels (the ILPs' colours are the same in each): inside one, where
    # matplotlib 3.6 and 3.11 place "best" differently, it covered points.
    return finish(fig, f"{feature} throughput", datasets, out_dir, f"{feature.lower()}_throughput", dpi=130,
                  legend_below=max((axes[j // cols][j % cols] for j in range(len(ops))),
                                   key=lambda a: len(a.get_legend_handles_labels()[1])))


SCRIPT = Script(__doc__, "Pipeline", load,
                lambda datasets, args: plot_latency(datasets, args.unit, args.out) + plot_throughput(datasets, args.out),
                extra_args=unit_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

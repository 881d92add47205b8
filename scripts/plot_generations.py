#!/usr/bin/env python3
"""Cross-generation plot: memory latencies of archbench runs beside published references.

Usage: plot_generations.py [--out DIR] [--unit cycles|ns] FILE...

FILE: archbench JSON (the quantities are taken from its MemLatency and SmemBanks benchmarks; files
of the same GPU are merged) or a reference file from results/reference/ (values transcribed from
a paper, with provenance).
Writes DIR/generations_latency.{png,svg}: L1 hit, L2 hit, DRAM and conflict-free shared-memory
latency per GPU, in cycles (or ns at each GPU's clock: measured for runs, the board's maximum
for references). Quantities a file lacks are left out; files with none are skipped with a note.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotlib import main, save, unit_arg, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import resultfile  # noqa: E402

QUANTITIES = [("l1_hit_latency_cycles", "L1 hit"), ("l2_hit_latency_cycles", "L2 hit"),
              ("dram_latency_cycles", "DRAM"), ("smem_latency_cycles", "shared memory")]


def from_run(doc):
    """The quantities of an archbench run: medians over the points that sit clearly in a level."""
    rows = [b for b in doc.get("benchmarks", []) if resultfile.measured(b) and b.get("run_type") != "aggregate"]
    chain = {}
    for b in rows:
        if b["name"].startswith("MemLatency/chain/"):
            op = b["name"].split("/")[2]
            chain.setdefault(op, []).append((b["footprint_bytes"], b["stride_bytes"], b["latency_cycles"], b["sm_clock_mhz"]))
    q, clocks = {}, []
    small = [r for r in chain.get("ld.ca", []) if r[0] <= 16384 and r[1] == 128]
    if small:
        q["l1_hit_latency_cycles"] = statistics.median(r[2] for r in small)
    near = [r for r in chain.get("ld.cg", []) if r[0] <= 1 << 20 and r[1] == 128]
    if near:
        q["l2_hit_latency_cycles"] = statistics.median(r[2] for r in near)
    l2 = float(doc.get("context", {}).get("gpu_l2_bytes", 0) or 0)
    far = [r for r in chain.get("ld.cg", []) if l2 and r[0] >= 4 * l2 and r[1] == 128]
    if far:
        q["dram_latency_cycles"] = statistics.median(r[2] for r in far)
    clocks = [r[3] for rs in chain.values() for r in rs]
    smem = [b for b in rows if b["name"].startswith("SmemBanks/latency/width:4/stride:1/")]
    if smem:
        q["smem_latency_cycles"] = smem[0]["latency_cycles"]
        clocks.append(smem[0]["sm_clock_mhz"])
    return q, (statistics.median(clocks) if clocks else 0)


def load(path):
    doc = resultfile.load(path)
    ctx = doc["context"]
    label = ctx.get("gpu_name", os.path.basename(path))
    if ctx.get("reference"):
        q = {b["name"].split("/", 1)[1]: b["value"] for b in doc.get("benchmarks", [])}
        mhz = float(ctx.get("gpu_max_sm_clock_mhz", 0) or 0)
    else:
        q, mhz = from_run(doc)
        label += " (archbench)"
    q = {k: v for k, v in q.items() if k in dict(QUANTITIES)}
    return label, ctx, (q, mhz) if q else None


def merge_by_gpu(datasets):
    """Runs of one GPU in several files (a MemLatency run, a SmemBanks run) become one bar group."""
    merged = {}
    for label, ctx, (q, mhz) in datasets:
        if label in merged:
            merged[label][2][0].update(q)
        else:
            merged[label] = (label, ctx, (dict(q), mhz))
    return list(merged.values())


def plot(datasets, args):
    datasets = merge_by_gpu(datasets)
    fig, ax = plt.subplots(figsize=(max(11, 1.1 * len(datasets) + 4), 5.5))
    width = 0.8 / len(datasets)
    for i, (label, _, (q, mhz)) in enumerate(datasets):
        xs, ys = [], []
        for j, (key, _) in enumerate(QUANTITIES):
            if key in q and (args.unit == "cycles" or mhz):
                xs.append(j + i * width)
                ys.append(q[key] if args.unit == "cycles" else q[key] * 1e3 / mhz)
        # Measured runs in black, references in distinct colours.
        colour = "black" if label.endswith("(archbench)") else plt.get_cmap("tab20")(i % 20)
        bars = ax.bar(xs, ys, width, label=label, color=colour)
        ax.bar_label(bars, fmt="%.0f", fontsize=5)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(QUANTITIES))])
    ax.set_xticklabels([name for _, name in QUANTITIES])
    value_axes(ax, f"load latency ({args.unit})", legend_size=7, grid="y", from_zero=False, ncol=2)
    fig.suptitle("Memory latency across generations (references: values the papers publish)")
    fig.tight_layout()
    return save(fig, args.out, "generations_latency")


if __name__ == "__main__":
    sys.exit(main(__doc__, "MemLatency", load, plot, extra_args=unit_arg))

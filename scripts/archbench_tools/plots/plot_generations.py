#!/usr/bin/env python3
"""Cross-generation plots: archbench runs beside published references, GPU by GPU.

Usage: plot_generations.py [--out DIR] [--unit cycles|ns] FILE...

FILE: archbench JSON (the quantities are taken from its MemLatency and SmemBanks benchmarks; files
of the same GPU are merged) or a reference file from results/reference/ (values transcribed from
a paper, with provenance).
Writes DIR/generations_latency.{png,svg}: L1 hit, L2 hit, DRAM and conflict-free shared-memory
latency per GPU, in cycles (or ns at each GPU's clock: measured for runs, the board's maximum
for references). Quantities a file lacks are left out; files with none are skipped with a note.
Also DIR/generations_release.{png,svg}: one panel per quantity (L1, L2, DRAM and shared-memory
latency in cycles, L2 capacity, L1, L2 and DRAM read bandwidth, shared-memory read per SM per
clock; FP32, FP16 and INT8 throughput), the GPUs in order of release (results/reference/facts/gpus.json; a run's GPU found by its
CUDA name), archbench's own measurements as black stars beside the published ones, marked by
source (MT4G, RRZE gpu-benches, AI_kernels, ChipBenchmarker, papers).
"""
import datetime
import json
import os
import statistics
import sys
from archbench_tools import paths
from archbench_tools.plots import plotlib  # noqa: E402
from archbench_tools.plots.plotlib import family, Script, save, unit_arg, value_axes  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.dates  # noqa: E402
import matplotlib.ticker  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402


QUANTITIES = [("l1_hit_latency_cycles", "L1 hit"), ("l2_hit_latency_cycles", "L2 hit"),
              ("dram_latency_cycles", "DRAM"), ("smem_latency_cycles", "shared memory")]


def from_run(doc):
    """The quantities of an archbench run, each from the benchmark that plays its role on the run's
    GPU (results/roles.py: the L1-resident, L2-resident and DRAM chains, the headlines), and the
    median SM clock they ran at."""
    run = run_model.Run(doc)
    q, clocks = {}, []
    for key, role in (("l1_hit_latency_cycles", "l1_chain"), ("l2_hit_latency_cycles", "l2_chain"),
                      ("dram_latency_cycles", "dram_chain")):
        hit = run.role(role)
        if hit and isinstance(hit[1].get("latency_cycles"), (int, float)):
            q[key] = hit[1]["latency_cycles"]
            clocks.append(hit[1].get("sm_clock_mhz"))
    smem = run.select(family="SmemBanks/latency", width=4, stride=1, counter="latency_cycles")
    if smem:
        q["smem_latency_cycles"] = smem[0][1]["latency_cycles"]
        clocks.append(smem[0][1].get("sm_clock_mhz"))
    clocks = [c for c in clocks if isinstance(c, (int, float))]
    # The headlines of the Bandwidth feature (the best shape on the GPU), the L2 reads of shared
    # and private data at the footprint nearest a third of the L2, and the API's L2 size.
    for key, role in (("l1_read_bytes_per_second", "l1_read"), ("l2_read_bytes_per_second", "l2_read"),
                      ("dram_read_bytes_per_second", "dram_read"), ("dram_write_bytes_per_second", "dram_write"),
                      ("dram_copy_bytes_per_second", "dram_copy")):
        hit = run.role(role)
        if hit and "bytes_per_second" in hit[1]:
            q[key] = hit[1]["bytes_per_second"]
    smem = run.role("smem_read")
    if smem and "bytes_per_clk_per_sm" in smem[1]:
        q["smem_read_bytes_per_clk_per_sm"] = smem[1]["bytes_per_clk_per_sm"]
    l2 = run_model.number(run.ctx, "gpu_l2_bytes")
    for case in ("shared", "private"):
        cands = [b for _, b in run.select(family=f"Bandwidth/l2/{case}/ld.cg", counter="bytes_per_second")]
        if cands and l2:
            q[f"l2_read_{case}_bytes_per_second"] = min(
                cands, key=lambda b: abs(b.get("footprint_bytes", 0) - l2 / 3))["bytes_per_second"]
    # Throughput: the FFMA peak (Pipeline's best shape) and cuBLAS's GEMMs (TensorCore/cublas), the
    # form the published GEMM figures take.
    for key, fam in (("fp32_flop_per_second", "Pipeline/throughput/ffma"),
                     ("f16_gemm_flop_per_second", "TensorCore/cublas/f16"),
                     ("s8_gemm_ops_per_second", "TensorCore/cublas/s8"),
                     ("fp64_gemm_flop_per_second", "TensorCore/cublas/f64")):
        rates = [b["flops"] for _, b in run.select(family=fam, counter="flops") if b["flops"] > 0]
        if rates:
            q[key] = max(rates)
    if l2:
        q["l2_bytes"] = l2
    return q, (statistics.median(clocks) if clocks else 0)


def load(path):
    doc = resultfile.load(path)
    ctx = doc["context"]
    label = ctx.get("gpu_name", os.path.basename(path))
    if ctx.get("reference"):
        q = {family(b).split("/", 1)[1]: b["value"] for b in doc.get("benchmarks", [])}
        mhz = float(ctx.get("gpu_max_sm_clock_mhz", 0) or 0)
    else:
        q, mhz = from_run(doc)
        label += " (archbench)"
    q = {k: v for k, v in q.items() if k in dict(QUANTITIES) or k in PANEL_KEYS}
    if set(q) <= {"l2_bytes"} and not ctx.get("reference"):
        q = {}  # a run's L2 size is its context's, measured by no benchmark of it
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


# The release panels: (key, title, scale to the axis unit, axis unit).
BY_RELEASE = [("l1_hit_latency_cycles", "L1 hit latency", 1, "cycles"),
              ("l2_hit_latency_cycles", "L2 hit latency", 1, "cycles"),
              ("dram_latency_cycles", "DRAM latency", 1, "cycles"),
              ("l2_bytes", "L2 capacity", 1 / 2 ** 20, "MiB"),
              ("smem_latency_cycles", "shared-memory latency", 1, "cycles"),
              ("l1_read_bytes_per_second", "L1 read, every SM", 1e-12, "TB/s"),
              ("l2_read_bytes_per_second", "L2 read", 1e-12, "TB/s"),
              ("dram_read_bytes_per_second", "DRAM read", 1e-12, "TB/s"),
              ("smem_read_bytes_per_clk_per_sm", "shared-memory read per SM", 1, "B/clk/SM"),
              (("fp32_flop_per_second", "fp32_gemm_flop_per_second"), "FP32 (FFMA peak; papers: SGEMM)", 1e-12,
               "TFLOP/s"),
              ("f16_gemm_flop_per_second", "FP16 GEMM (cuBLAS)", 1e-12, "TFLOP/s"),
              ("s8_gemm_ops_per_second", "INT8 GEMM (cuBLAS)", 1e-12, "TOP/s")]
PANEL_KEYS = {k for r in BY_RELEASE for k in (r[0] if isinstance(r[0], tuple) else (r[0],))}
FACTS = paths.in_root("results", "reference", "facts", "gpus.json", required=False)


# Each importer's source (the reference's context names it, scripts/import_references.py) and its
# marker; the references typed from papers name none.
SOURCE_MARKERS = {"MT4G": "^", "RRZE gpu-benches": "s", "AI_kernels": "D", "ChipBenchmarker": "v"}
PAPERS = ("papers (Jia et al., Mei & Chu, a thesis, van Stigt et al.)", "o")


def source_of(label, ctx):
    """(source, marker) of a dataset: archbench's own run, an importer's source, or a paper."""
    if not ctx.get("reference"):
        return "archbench (this suite)", "*"
    source = ctx.get("reference_source")
    return (source, SOURCE_MARKERS.get(source, "P")) if source else PAPERS


def release_of(ctx, facts):
    """(release date, short name) of a dataset's GPU from the facts, or None when they do not know it."""
    model = ctx.get("gpu_model")
    if not model:
        model = next((m for m, f in facts.items() if ctx.get("gpu_name") in f.get("cuda_names", [])), None)
    f = facts.get(model)
    if f:
        return datetime.datetime.strptime(f["release"], "%Y-%m"), f["name"]
    # A run of a GPU the facts do not know yet: at its run's date, so that a new GPU shows among the
    # generations with no other step (docs/references.md says how to add its facts).
    if not ctx.get("reference") and str(ctx.get("date", ""))[:7]:
        try:
            return (datetime.datetime.strptime(str(ctx["date"])[:7], "%Y-%m"),
                    f"{ctx.get('gpu_name', '?')} (release unknown: at its run's date)")
        except ValueError:
            return None
    return None


def plot_by_release(datasets, args):
    try:
        facts = json.load(open(FACTS))["gpus"]
    except (OSError, ValueError, KeyError, TypeError):  # TypeError: no checkout, no facts
        return []
    fig, axes = plt.subplots(4, 3, figsize=(17, 17))
    seen = set()
    pending = []  # (ax, {GPU: [(x, y)]}, ours): the labels, placed once the axes' limits are final
    for ax, (keys, title, scale, unit) in zip(axes.flat, BY_RELEASE):
        names, ours_names = {}, set()
        for label, ctx, (q, _mhz) in datasets:
            when = release_of(ctx, facts)
            # A panel of several keys (a measure and its published form) plots the first one present.
            key = next((k for k in (keys if isinstance(keys, tuple) else (keys,)) if k in q), None)
            if key is None or not when:
                continue
            source, marker = source_of(label, ctx)
            ours = marker == "*"
            vendor = facts.get(ctx.get("gpu_model"), {}).get("vendor", "NVIDIA")
            colour = "black" if ours else ("#76b900" if vendor == "NVIDIA" else "#ed1c24")
            ax.scatter([when[0]], [q[key] * scale], marker=marker, s=150 if ours else 40, color=colour, zorder=3 if ours else 2,
                       label=source if (source, vendor if not ours else "") not in seen else None, alpha=0.85)
            seen.add((source, vendor if not ours else ""))
            names.setdefault(when[1], []).append((when[0], q[key] * scale))
            if ours:
                ours_names.add(when[1])
        pending.append((ax, names, ours_names))
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(unit)
        if not ax.collections:
            ax.text(0.5, 0.5, "no run and no reference\nhas this figure", transform=ax.transAxes, ha="center",
                    va="center", fontsize=9, color="grey")
            continue
        if unit in ("MiB", "TB/s", "TFLOP/s", "TOP/s"):
            ax.set_yscale("log")
            # 40, not 4 x 10^1; labels at 1, 2 and 5 of each decade, the other ticks unlabelled
            ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
            ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        # Years on every panel, however few GPUs it holds (a short span otherwise reads in months).
        ax.xaxis.set_major_locator(matplotlib.dates.YearLocator(base=2))
        ax.xaxis.set_major_formatter(matplotlib.dates.DateFormatter("%Y"))
        ax.grid(alpha=0.3)
    # One label per GPU and panel (several sources give one GPU several points), this suite's GPUs
    # first, then left to right; a label with no free place beside its point is left out.
    fig.canvas.draw()
    for ax, names, ours_names in pending:
        order = sorted(names, key=lambda n: (n not in ours_names, min(x for x, _ in names[n])))
        plotlib.place_labels(ax, [(*max(names[n], key=lambda p: p[1]), n) for n in order])
    handles = {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(l, h)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=4, fontsize=8)
    fig.suptitle("Across generations, by release: archbench's own measurements (black stars) beside published ones "
                 "(NVIDIA green, AMD red; each value's method in its source)", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    return save(fig, args.out, "generations_release")


def plot(datasets, args):
    datasets = merge_by_gpu(datasets)
    return plot_latency_bars(datasets, args) + plot_by_release(datasets, args)


def plot_latency_bars(datasets, args):
    datasets = [d for d in datasets if any(k in d[2][0] for k, _ in QUANTITIES)]
    if not datasets:
        return []
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


SCRIPT = Script(__doc__, "MemLatency", load, plot, extra_args=unit_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

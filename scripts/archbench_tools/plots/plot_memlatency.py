#!/usr/bin/env python3
"""Plots MemLatency from one or more archbench JSON files (several files: GPUs overlaid).

Usage: plot_memlatency.py [--unit cycles|ns] [--out DIR] FILE...

Writes DIR/memlatency_footprint.{png,svg} (latency vs footprint at a 128 B stride, log x, one
line per cache operator and form) and DIR/memlatency_stride.{png,svg} (latency vs stride at the
largest footprint). Files without MemLatency data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, family_parts, feature_benchmarks, Script, save, unit_arg, run_title  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

OPS = ["ld.ca", "ld.cg", "ld.nc"]
STYLE = {"chain": "-", "fine": ":"}


def load(path):
    label, ctx, benchmarks = feature_benchmarks(path, "MemLatency")
    rows = []
    for b in benchmarks:
        _, form, op = family_parts(b)[:3]
        rows.append({"form": form, "op": op, "footprint": b["footprint_bytes"], "stride": b["stride_bytes"],
                     "cycles": b["latency_cycles"], "ns": b["latency_ns"]})
    return label, ctx, rows


def human(nbytes):
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if nbytes < 1024:
            return f"{nbytes:g} {unit}"
        nbytes /= 1024
    return f"{nbytes:g} TiB"


def plot(datasets, unit, out_dir, x_key, select, title, stem):
    fig, ax = plt.subplots(figsize=(10, 5.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    plotted = 0
    for gi, (label, ctx, rows) in enumerate(datasets):
        for oi, op in enumerate(OPS):
            for form in ["chain", "fine"]:
                pts = sorted((r[x_key], r[unit]) for r in rows if r["op"] == op and r["form"] == form and select(r, rows))
                if not pts:
                    continue
                xs, ys = zip(*pts)
                tag = f"{op} {form}" + (f" — {label}" if len(datasets) > 1 else "")
                ax.plot(xs, ys, STYLE[form], marker="o", markersize=2.5, color=colors[(gi * len(OPS) + oi) % len(colors)],
                        label=tag, linewidth=1.2)
                plotted += 1
        if x_key == "footprint" and len(datasets) == 1:
            l2 = float(ctx.get("gpu_l2_bytes", 0))
            smem = float(ctx.get("gpu_smem_per_sm_bytes", 0))
            for x, what in [(smem, "shared mem/SM"), (l2 / 2, "L2/2"), (l2, "L2 (API)")]:
                if x > 0:
                    ax.axvline(x, color="grey", linewidth=0.8, linestyle="--")
                    ax.text(x, ax.get_ylim()[1] if plotted else 1, f" {what}", rotation=90, va="top", fontsize=7, color="grey")
    if not plotted:
        plt.close(fig)
        return None
    ax.set_xscale("log", base=2)
    ax.set_xlabel(x_key.replace("_bytes", "").replace("_", " "))
    bytes_axis(ax.xaxis)
    ax.set_ylabel(f"latency ({unit})")
    ax.set_title(run_title(title, datasets))
    ticks = [2 ** k for k in range(2, 40) if ax.get_xlim()[0] <= 2 ** k <= ax.get_xlim()[1]]
    ax.set_xticks(ticks[:: max(1, len(ticks) // 12)])
    ax.set_xticklabels([human(t) for t in ticks[:: max(1, len(ticks) // 12)]], rotation=30, fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # beside: inside, it covered points
    fig.tight_layout()
    return save(fig, out_dir, stem, dpi=130)


def plot_all(datasets, args):
    written = plot(datasets, args.unit, args.out, "footprint", lambda r, rows: r["stride"] == 128,
                   "Load latency vs footprint (stride 128 B)", "memlatency_footprint") or []
    biggest = {id(rows): max(r["footprint"] for r in rows) for _, _, rows in datasets}
    written += plot(datasets, args.unit, args.out, "stride", lambda r, rows: r["footprint"] == biggest[id(rows)],
                    "Load latency vs stride (largest footprint)", "memlatency_stride") or []
    return written


SCRIPT = Script(__doc__, "MemLatency", load, plot_all,
                extra_args=unit_arg)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

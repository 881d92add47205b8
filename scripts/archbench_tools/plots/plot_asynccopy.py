#!/usr/bin/env python3
"""Plots AsyncCopy from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_asynccopy.py [--out DIR] FILE...

Writes DIR/asynccopy_bandwidth.{png,svg} (global -> shared bytes per second against the bytes in
flight per SM, one panel per level (L2, DRAM), one line per path: ld + st.shared, cp.async .ca/.cg,
TMA bulk, TMA tensor, multicast delivered bytes; each point the best shape of the path at that
many bytes in flight) and
DIR/asynccopy_latency.{png,svg} (cycles from issuing one copy to its data in shared memory
against the copy's size, one panel per level, one line per path and GPU). Files without AsyncCopy
data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, feature_benchmarks, finish, Script, axes, family_parts, plain_axis  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

LEVELS = ["L2", "DRAM"]


PATH_LABELS = {"ld_st": "ld.cg + st.shared", "cp_async_ca": "cp.async.ca", "cp_async_cg": "cp.async.cg",
               "bulk": "TMA bulk", "tensor": "TMA tensor", "bulk_multicast": "TMA multicast (delivered)"}


def path_of(b):
    """The line a load belongs to: its path (every width, size and shape of it)."""
    path = family_parts(b)[2]
    return PATH_LABELS.get(path, path)


def load(path):
    label, ctx, rows = feature_benchmarks(path, "AsyncCopy")
    loads, latency = [], []
    for b in rows:
        parts = family_parts(b)
        if len(parts) < 4:
            continue
        if parts[1] == "load" and "bytes_per_second" in b:
            loads.append({"level": parts[3], "line": path_of(b), "inflight": b["bytes_in_flight_per_sm"],
                          "bps": b["bytes_per_second"]})
        elif parts[1] == "latency" and "latency_cycles" in b and "box" not in axes(b):  # sizes, not box shapes
            latency.append({"level": parts[3], "path": parts[2], "bytes": b["bytes"], "cycles": b["latency_cycles"]})
    return label, ctx, (loads, latency) if loads or latency else None


def best_by_inflight(points):
    """The best rate at each bytes-in-flight value (a path's shapes share the x axis)."""
    best = {}
    for p in points:
        best[p["inflight"]] = max(best.get(p["inflight"], 0), p["bps"])
    return sorted(best.items())


STYLES = ["-", "--", ":", "-."]


def level_panels(datasets, figsize, draw, title, xlabel, ylabel, log_y=False):
    """One panel per level: draw(ax, level, gi, label, data) adds each GPU's lines; the axes
    (log2 bytes on x), labels, grid and legend are the same for every figure."""
    fig, axes = plt.subplots(1, len(LEVELS), figsize=figsize, squeeze=False)
    for li, level in enumerate(LEVELS):
        ax = axes[0][li]
        for gi, (label, _, data) in enumerate(datasets):
            draw(ax, level, STYLES[gi % len(STYLES)], label if len(datasets) > 1 else "", data)
        ax.set_xscale("log", base=2)
        bytes_axis(ax.xaxis)
        if log_y:
            ax.set_yscale("log")
            plain_axis(ax.yaxis)
        ax.set_title(title(level), fontsize=9)
        ax.set_xlabel(xlabel, fontsize=7)
        ax.set_ylabel(ylabel, fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        ax.tick_params(labelsize=7)
        if ax.lines:
            ax.legend(fontsize=6)
    return fig


COLORS = {}  # one colour per path, the same for every GPU (GPUs differ by line style)


def line(ax, xs, ys, style, name, gpu):
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    color = COLORS.setdefault(name, cycle[len(COLORS) % len(cycle)])
    ax.plot(xs, ys, style, color=color, marker="o", markersize=3, linewidth=1.1,
            label=name + (f" — {gpu}" if gpu else ""))


def draw_lines(index, key, points, label=lambda k: k):
    """level_panels' draw: the rows of data[index] at the panel's level, one line per value of
    row[key]; points(rows) gives the line's xs and ys."""
    def draw(ax, level, style, gpu, data):
        rows = [r for r in data[index] if r["level"] == level]
        for k in dict.fromkeys(r[key] for r in rows):
            xs, ys = points([r for r in rows if r[key] == k])
            line(ax, xs, ys, style, label(k), gpu)
    return draw


def tb_per_second(rows):
    xs, ys = zip(*best_by_inflight(rows))
    return xs, [y / 1e12 for y in ys]


def cycles_by_bytes(rows):
    return tuple(zip(*sorted((r["bytes"], r["cycles"]) for r in rows)))


def plot_bandwidth(datasets, out_dir):
    if not any(loads for _, _, (loads, _) in datasets):
        return []
    fig = level_panels(datasets, (7 * len(LEVELS), 5), draw_lines(0, "line", tb_per_second),
                       lambda level: f"{level} footprint",
                       "bytes in flight per SM (stages x stage x pipelines, or loads in registers)",
                       "TB/s into shared memory (best shape at each point)")
    return finish(fig, "AsyncCopy: global -> shared bandwidth", datasets, out_dir, "asynccopy_bandwidth", dpi=130)


def plot_latency(datasets, out_dir):
    if not any(lat for _, _, (_, lat) in datasets):
        return []
    fig = level_panels(datasets, (6 * len(LEVELS), 4.5),
                       draw_lines(1, "path", cycles_by_bytes, lambda path: PATH_LABELS.get(path, path)),
                       lambda level: f"one copy from {level}", "bytes copied (one warp; the TMA: one thread)",
                       "cycles, issue to data in shared memory (latency_cycles)", log_y=True)
    return finish(fig, "AsyncCopy: latency of one copy", datasets, out_dir, "asynccopy_latency", dpi=130)


SCRIPT = Script(__doc__, "AsyncCopy", load, lambda datasets, args: plot_bandwidth(datasets, args.out) +
                plot_latency(datasets, args.out))

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

#!/usr/bin/env python3
"""Plots P2P (the links between the GPUs of a node) from one or more archbench JSON files.

Usage: plot_p2p.py [--out DIR] FILE...

Writes DIR/p2p_matrix.{png,svg} (p2p_matrix_2, ... for further files): one heat map per metric,
row = the initiating GPU (the copy's source), column = the GPU whose memory is touched; the
diagonal is the same kernel on local memory. Metrics: copy-engine bandwidth (uni- and
bidirectional), kernel loads and stores, load latency with the peer's L2 and DRAM serving, and
remote atomics. It reads the P2P/matrix benchmark, or the pair benchmarks when a run has none.
And DIR/p2p_copy_size.{png,svg}: copy bandwidth against size per pair, with the link's peak.
Files without P2P data are skipped with a note.
"""
import re
import sys
from archbench_tools.plots.plotlib import axes, bytes_axis, family, family_parts, feature_benchmarks, Script, save, finish, value_axes  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# (matrix counter, title, scale, unit)
PANELS = [("copy_uni_bytes_per_second", "copy engine, one way", 1e-9, "GB/s"),
          ("copy_bi_bytes_per_second", "copy engine, both ways", 1e-9, "GB/s"),
          ("read_bytes_per_second", "kernel loads", 1e-9, "GB/s"),
          ("write_bytes_per_second", "kernel stores", 1e-9, "GB/s"),
          ("latency_peer_l2_ns", "load latency, peer L2 serves", 1, "ns"),
          ("latency_peer_dram_ns", "load latency, peer DRAM serves", 1, "ns"),
          ("atomics_distinct_per_second", "atom.add.u32, own addresses", 1e-9, "G/s"),
          ("atomics_one_address_per_second", "atom.add.u32, one address", 1e-9, "G/s")]
CELL = re.compile(r"^(.*)\[(\d+)\]\[(\d+)\]$")



def matrix_from_pairs(rows):
    """The matrix the P2P/matrix benchmark would hold, rebuilt from the pair benchmarks."""
    cells = {}
    best_copy = {}
    for b in rows:
        pair = resultfile.pair_of(b)
        if not pair:
            continue
        i, j = pair
        kind, a = family_parts(b)[1], axes(b)
        if kind == "copy":
            direction = "bi" if a.get("dir") == "bi" else "uni"
            size = b.get("size_bytes", 0)
            if size >= best_copy.get((direction, i, j), -1):
                best_copy[(direction, i, j)] = size
                cells.setdefault(f"copy_{direction}_bytes_per_second", {})[(i, j)] = b["bytes_per_second"]
        elif kind in ("remote_read", "remote_write"):
            cells.setdefault(("read" if kind == "remote_read" else "write") + "_bytes_per_second", {})[(i, j)] = \
                b["bytes_per_second"]
        elif kind == "latency":
            level = "peer_l2" if a.get("level") == "peer_l2" else "peer_dram"
            cells.setdefault(f"latency_{level}_ns", {})[(i, j)] = b["latency_ns"]
        elif kind == "atomics" and a.get("form") == "atom":
            which = "one_address" if a.get("contention") == "all" else "distinct"
            cells.setdefault(f"atomics_{which}_per_second", {})[(i, j)] = b["atomics_per_second"]
    return cells


def load(path):
    label, ctx, rows = feature_benchmarks(path, "P2P")
    if not rows:
        return label, ctx, None
    cells = {}
    for b in rows:
        if family(b) == "P2P/matrix":
            for k, v in b.items():
                m = CELL.match(k)
                if m:
                    cells.setdefault(m.group(1), {})[(int(m.group(2)), int(m.group(3)))] = v
    if not cells:
        cells = matrix_from_pairs(rows)
    copies = [b for b in rows if family(b) == "P2P/copy"]
    peaks = {}
    for b in rows:
        if family(b) == "P2P/link" and resultfile.pair_of(b):
            peaks[resultfile.pair_of(b)] = (b.get("link_peak_bytes_per_second", 0), b.get("label", ""))
    gpus = 1 + max([max(p) for c in cells.values() for p in c] + [0])
    return label, ctx, {"cells": cells, "copies": copies, "peaks": peaks, "gpus": gpus} if cells else None


def plot_matrix(label, ctx, data, out_dir, stem):
    panels = [p for p in PANELS if p[0] in data["cells"]]
    n = data["gpus"]
    cols = min(4, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.3 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    for ax, (key, title, scale, unit) in zip(axes.flat, panels):
        cells = dict(data["cells"][key])
        if key == "copy_bi_bytes_per_second":  # measured once per unordered pair
            cells.update({(j, i): v for (i, j), v in list(cells.items()) if (j, i) not in cells})
        grid = [[cells.get((i, j), float("nan")) * scale for j in range(n)] for i in range(n)]
        finite = [v for row in grid for v in row if v == v]
        # From zero: the colours compare magnitudes (local against remote), and equal cells stay legible.
        im = ax.imshow(grid, cmap="viridis_r" if unit == "ns" else "viridis", vmin=0,
                       vmax=1.05 * max(finite) if finite and max(finite) > 0 else 1)
        for i in range(n):
            for j in range(n):
                v = grid[i][j]
                text = "–" if v != v else (f"{v:.0f}" if v >= 10 else f"{v:.2f}")
                r, g, b, _ = im.cmap(im.norm(v)) if v == v else (1, 1, 1, 1)
                ax.text(j, i, text, ha="center", va="center", fontsize=9,
                        color="white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black")
        ax.set_xticks(range(n))
        ax.set_yticks(range(n))
        ax.set_xticklabels([f"GPU {j}" for j in range(n)], fontsize=8)
        ax.set_yticklabels([f"GPU {i}" for i in range(n)], fontsize=8)
        ax.set_xlabel("memory of (copy: destination)", fontsize=8)
        ax.set_ylabel("initiator (copy: source)", fontsize=8)
        ax.set_title(f"{title}, {unit}", fontsize=9)
        bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        bar.formatter.set_useOffset(False)
        bar.update_ticks()
    link = next(iter(data["peaks"].values()), (0, ""))[1].split(";")[0]
    fig.suptitle(f"P2P between {n} GPUs: {label}" + (f" ({link})" if link else "") +
                 (f", {ctx.get('host_name', '')}" if ctx.get("host_name") else ""))
    fig.tight_layout()
    return save(fig, out_dir, stem)


def plot_copy_size(datasets, out_dir):
    if not any(d["copies"] for _, _, d in datasets):
        return []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    peaks_drawn = set()
    for label, _, d in datasets:
        series = {}
        for b in d["copies"]:
            direction = "bi" if axes(b).get("dir") == "bi" else "uni"
            series.setdefault(resultfile.pair_of(b) + (direction,), []).append(
                (b["size_bytes"], b["bytes_per_second"] / 1e9))
        for (i, j, direction), pts in sorted(series.items()):
            pts.sort()
            arrow = "<->" if direction == "bi" else "->"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o" if direction == "uni" else "s",
                    label=f"GPU {i} {arrow} GPU {j}" + (f" — {label}" if len(datasets) > 1 else ""))
        for (i, j), (peak, _) in d["peaks"].items():
            if peak and round(peak) not in peaks_drawn:
                peaks_drawn.add(round(peak))
                for k, what in [(1, "one way"), (2, "both ways")]:
                    ax.axhline(k * peak / 1e9, color="gray", linestyle="--", linewidth=1)
                    ax.text(0.01, k * peak / 1e9, f"link peak, {what}: {k * peak / 1e9:.0f} GB/s (NVML link rate)",
                            transform=ax.get_yaxis_transform(), fontsize=7, va="bottom", color="gray")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bytes per copy")
    bytes_axis(ax.xaxis)
    value_axes(ax, "GB/s (both directions summed for <->)", legend_size=7)
    return finish(fig, "cudaMemcpyPeerAsync bandwidth", datasets, out_dir, "p2p_copy_size")


def plot(datasets, args):
    written = []
    for k, (label, ctx, data) in enumerate(datasets):
        written += plot_matrix(label, ctx, data, args.out, "p2p_matrix" + (f"_{k + 1}" if k else ""))
    return written + plot_copy_size(datasets, args.out)


SCRIPT = Script(__doc__, "P2P", load, plot)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

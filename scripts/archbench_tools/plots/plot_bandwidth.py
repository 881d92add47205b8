#!/usr/bin/env python3
"""Plots Bandwidth from one or more archbench JSON files (several files: GPUs overlaid).

Usage: plot_bandwidth.py [--width 4|8|16] [--peer-l2-cache TXT] [--peer-stream TXT] [--out DIR] FILE...

Writes DIR/bandwidth_footprint.{png,svg}: bytes/s against footprint (log x), one panel per kernel
kind (read, write, copy, rmw), one line per cache operator, with the L2 size and the DRAM peak
marked; and DIR/bandwidth_shape.{png,svg}: the occupancy sweep per level (blocks per SM x warps
per block on every SM); and DIR/bandwidth_levels.{png,svg}: the headline of each level
(Bandwidth/headline: the best candidate chosen on the GPU, named in its label) and the L2 read
cases (private slices, lines homed near or far, data shared by every SM), with a peer's figure
beside each where its output is given: RRZE gpu-benches' gpu-l2-cache (the L2 at the same
footprints, DRAM at >= 8x the L2) and gpu-stream (init = write, scale = copy). Files without
Bandwidth data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, family_parts, plain_axis, feature_benchmarks, Script, save, finish  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

KINDS = ["read", "write", "copy", "rmw"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Bandwidth")
    sweep, shapes = [], []
    for b in rows:
        parts = family_parts(b)
        if parts[1] in ("headline", "l2"):
            shapes.append({"family": parts[1], "name": "/".join(parts[2:4]), "level": parts[2], "kind": parts[3],
                           "footprint": b.get("footprint_bytes", 0), "bps": b["bytes_per_second"],
                           "pct": b.get("pct_of_peak", 0), "label": b.get("label", "")})
        elif parts[1] == "shape":
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
        if ax.lines:  # beside the panel: inside, it covered points of the curves it names
            ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return finish(fig, "Bandwidth vs footprint", datasets, out_dir, "bandwidth_footprint")


def peer_l2_cache(path):
    """(footprint MiB, GB/s) rows of gpu-l2-cache's output ("512 kB  16896 kB  11ms  0.1%  9709.8 GB/s ...")."""
    rows = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) > 7 and p[1] == "kB" and p[3] == "kB":
                rows.append((int(p[2]) * 1024 / 2**20, float(p[6])))
    return rows


def peer_stream(path):
    """The best GB/s of each gpu-stream kernel over its launch shapes."""
    best = {}
    with open(path) as f:
        for line in f:
            if "GB/s:" in line:
                for k, x in zip(["init", "read", "scale", "triad", "3pt", "5pt"], line.split("GB/s:")[1].split()):
                    best[k] = max(best.get(k, 0.0), float(x))
    return best


def plot_levels(datasets, peer_l2, peer_st, out_dir):
    """Headlines and L2 cases of the first file, the peer's figure beside each."""
    label, ctx, (_, shapes) = datasets[0]
    rows = [r for r in shapes if (r.get("family") == "l2" and "ld.cg" in r["name"]) or r.get("family") == "headline"]
    if not rows:
        return []
    l2_bytes = float(ctx.get("gpu_l2_bytes", 0))
    mib = 2.0**20
    try:
        peer_rows = peer_l2_cache(peer_l2) if peer_l2 else []
        stream = peer_stream(peer_st) if peer_st else {}
    except (OSError, ValueError) as e:
        raise SystemExit(f"plot_bandwidth.py: error: cannot read the peer's output: {e}")

    def peer_at(footprint):  # the peer's mean over footprints within 20 % of ours, GB/s
        near = [v for f, v in peer_rows if footprint > 0 and abs(f * mib - footprint) <= 0.2 * footprint]
        return sum(near) / len(near) if near else None

    dram_plateau = [v for f, v in peer_rows if l2_bytes > 0 and f * mib >= 8 * l2_bytes]
    bars = []
    for r in rows:
        if r["family"] == "l2":
            name = "L2 " + r["name"].replace("/ld.cg", "") + f"\n{r['footprint'] / mib:.0f} MiB ld.cg"
            bars.append((name, r["bps"] / 1e9, peer_at(r["footprint"]) if r["name"].startswith("shared") else None))
        else:
            level, kind = r["level"], r["kind"]
            peer = None
            if level == "L2":
                peer = peer_at(r["footprint"])
            elif level == "DRAM" and kind == "read" and dram_plateau:
                peer = max(dram_plateau)
            elif level == "DRAM" and kind == "write":
                peer = stream.get("init")
            elif level == "DRAM" and kind == "copy":
                peer = stream.get("scale")
            bars.append((f"headline\n{level} {kind}", r["bps"] / 1e9, peer))
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(bars)), 4.8))
    xs = range(len(bars))
    with_peer = any(b[2] for b in bars)  # the peer's bars, and their legend entry, only where its output was given
    shift = 0.2 if with_peer else 0.0
    ax.bar([x - shift for x in xs], [b[1] for b in bars], width=0.4 if with_peer else 0.6, label=f"archbench ({label})")
    if with_peer:
        ax.bar([x + 0.2 for x in xs], [b[2] or 0 for b in bars], width=0.4, label="RRZE gpu-benches, same GPU and run")
    for x, (_, ours, peer) in zip(xs, bars):
        ax.text(x - shift, ours, f"{ours / 1e3:.2f}", ha="center", va="bottom", fontsize=6)
        if peer:
            ax.text(x + 0.2, peer, f"{peer / 1e3:.2f}", ha="center", va="bottom", fontsize=6)
    peak = float(ctx.get("gpu_dram_peak_bytes_per_second", 0)) / 1e9
    if peak > 0:
        ax.axhline(peak, color="grey", linestyle=":", linewidth=0.8)
        ax.text(0.01, peak, "DRAM peak", transform=ax.get_yaxis_transform(), va="bottom", fontsize=7, color="grey")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([b[0] for b in bars], fontsize=6)
    ax.set_ylabel("GB/s", fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Bandwidth per level: headline (best shape on this GPU) and L2 read cases, TB/s above each bar", fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "bandwidth_levels")


def plot_shapes(datasets, out_dir):
    datasets = [(label, ctx, sweep, [r for r in shapes if "family" not in r]) for label, ctx, (sweep, shapes) in datasets]
    rows = [(label, r) for label, _, _, shapes in datasets for r in shapes]
    if not rows:
        return []
    cases = list(dict.fromkeys((r["level"], r["variant"]) for _, r in rows))
    # At most three panels a row: a page (the report's, the dashboard's) shows the figure at its width,
    # and five panels in one row read at a fifth of it.
    ncols = min(3, len(cases))
    nrows = -(-len(cases) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5 * ncols, 4.2 * nrows), squeeze=False)
    for ax in axes.flat[len(cases):]:
        ax.set_visible(False)
    for ci, (level, variant) in enumerate(cases):
        ax = axes.flat[ci]
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
        ax.set_title(f"{level}: {variant}", fontsize=11)
        ax.set_xlabel("warps per SM", fontsize=10)
        plain_axis(ax.xaxis)
        ax.set_ylabel("TB/s", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.tick_params(labelsize=9)
    # One legend for every panel (the same blocks per SM in each), under them: inside a panel it
    # covered the points of one curve or another.
    handles = {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(l, h)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=min(6, len(handles)), fontsize=9)
    fig.suptitle("Bandwidth vs occupancy (every SM)")
    fig.tight_layout(rect=(0, 0.35 / (4.2 * nrows) + 0.04, 1, 1))
    return save(fig, out_dir, "bandwidth_shape")


def extra(ap):
    ap.add_argument("--width", type=int, choices=[4, 8, 16], default=16)
    ap.add_argument("--peer-l2-cache", help="output of RRZE gpu-benches' gpu-l2-cache on the same GPU")
    ap.add_argument("--peer-stream", help="output of RRZE gpu-benches' gpu-stream on the same GPU")


SCRIPT = Script(__doc__, "Bandwidth", load,
                lambda datasets, args: plot_footprint(datasets, args.width, args.out) + plot_shapes(datasets, args.out)
                + plot_levels(datasets, args.peer_l2_cache, args.peer_stream, args.out),
                extra_args=extra)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

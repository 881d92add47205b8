#!/usr/bin/env python3
"""Plots Atomics from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_atomics.py [--out DIR] FILE...

Writes DIR/atomics_contention.{png,svg}: atomics per second (log) against contention (every
thread on one address ... every thread its own), one line per op and form, global and shared
memory side by side (default launch: one block of 32 warps per SM); and DIR/atomics_latency.{png,svg}:
dependent-chain latency per op. Files without Atomics data are skipped with a note.
"""
import sys
from archbench_tools.plots.plotlib import plain_axis, feature_benchmarks, Script, save, finish, run_title, axes, family_parts  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

CONTENTION = ["all", "sm", "block", "warp", "distinct"]


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Atomics")
    tput, lat = [], []
    for b in rows:
        parts = family_parts(b)
        if parts[1] == "latency":
            lat.append({"space": parts[2], "op": parts[3], "cycles": b["latency_cycles"]})
            continue
        fields = axes(b)
        tput.append({"space": parts[1], "op": parts[2], "scope": parts[3], "contention": fields.get("contention"),
                     "spacing": int(fields.get("spacing", 0)), "warps": int(fields.get("warps_per_block", 0)),
                     "blocks": int(fields.get("blocks_per_sm", 0)), "aps": b["atomics_per_second"],
                     "bytes": int(b["spacing_bytes"])})
    return label, ctx, (tput, lat) if tput or lat else None


def default_launch(r):
    # The op matrix: one block of 32 warps per SM, packed addresses, the space's default scope.
    return r["warps"] == 32 and r["blocks"] == 1 and r["spacing"] == r["bytes"] and r["scope"] in ("gpu", "cta")


def plot_contention(datasets, out_dir):
    datasets = [(label, t, l) for label, _, (t, l) in datasets]
    if not any(t for _, t, _ in datasets):
        return []
    fig, axes = plt.subplots(1, 2, figsize=(15, 6), squeeze=False)
    for si, space in enumerate(["global", "shared"]):
        ax = axes[0][si]
        for label, tput, _ in datasets:
            rows = [r for r in tput if r["space"] == space and default_launch(r)]
            for op in sorted({r["op"] for r in rows}):
                pts = {r["contention"]: r["aps"] for r in rows if r["op"] == op}
                xs = [i for i, c in enumerate(CONTENTION) if c in pts]
                if xs:
                    ax.plot(xs, [pts[CONTENTION[i]] for i in xs], marker="o", markersize=3, linewidth=1,
                            label=op + (f" — {label}" if len(datasets) > 1 else ""))
        ax.set_xticks(range(len(CONTENTION)))
        ax.set_xticklabels(["one address", "one per SM", "one per block", "one per warp", "all distinct"], fontsize=8)
        ax.set_yscale("log")
        plain_axis(ax.yaxis, minor_labels=True)
        ax.set_ylabel("atomics per second", fontsize=8)
        ax.set_title(f"{space} memory", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=5.5, ncol=2)
    return finish(fig, "Atomics throughput vs contention", datasets, out_dir, "atomics_contention")


def plot_latency(datasets, out_dir):
    datasets = [(label, t, l) for label, _, (t, l) in datasets]
    rows = [(label, r) for label, _, lat in datasets for r in lat]
    if not rows:
        return []
    keys = list(dict.fromkeys((r["space"], r["op"]) for _, r in rows))
    fig, ax = plt.subplots(figsize=(10, 0.28 * len(keys) * len(datasets) + 1.5))
    height = 0.8 / len(datasets)
    for gi, (label, _, lat) in enumerate(datasets):
        vals = {(r["space"], r["op"]): r["cycles"] for r in lat}
        ys = [i + gi * height for i, k in enumerate(keys) if k in vals]
        ax.barh(ys, [vals[k] for k in keys if k in vals], height=height, label=label)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(keys))])
    ax.set_yticklabels([f"{s} {o}" for s, o in keys], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("dependent-chain latency (cycles per atomic)")
    ax.set_title(run_title("Atomics latency", datasets))
    if len(datasets) > 1:
        ax.legend(fontsize=7)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    return save(fig, out_dir, "atomics_latency")


SCRIPT = Script(__doc__, "Atomics", load,
                lambda datasets, args: plot_contention(datasets, args.out) + plot_latency(datasets, args.out))

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

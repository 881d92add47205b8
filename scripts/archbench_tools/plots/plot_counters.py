#!/usr/bin/env python3
"""Plots which level served Bandwidth's bytes, by the GPU's counters (a --counters run).

Usage: plot_counters.py [--width 4|8|16] [--out DIR] FILE...

Writes DIR/counters_served.{png,svg}: for read ld.ca, read ld.cg, write st and copy ld+st, the
shares of the bytes served by L1, L2 and DRAM (stacked, %) against footprint (log x), with the
level the footprint targets (`level_by_footprint`) drawn above them. Several files are drawn as
the parts of one run (a --counters run split over calls). Files without counters are skipped
with a note.
"""
import sys
from archbench_tools.plots.plotlib import bytes_axis, family_parts, feature_benchmarks, finish, Script  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = [("read", "ld.ca"), ("read", "ld.cg"), ("write", "st"), ("copy", "ld+st")]
LEVEL_NAMES = {1.0: "L1", 1.5: "L1-L2", 2.0: "L2", 2.5: "L2-DRAM", 3.0: "DRAM"}


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Bandwidth")
    pts = []
    for b in rows:
        parts = family_parts(b)
        if parts[1] == "shape" or "hw_served_l1_pct" not in b or "footprint_bytes" not in b:
            continue
        pts.append({"kind": parts[1], "ops": parts[2], "width": int(b["width_bytes"]), "footprint": b["footprint_bytes"],
                    "l1": b["hw_served_l1_pct"], "l2": b["hw_served_l2_pct"], "dram": b["hw_served_dram_pct"],
                    "label": b.get("level_by_footprint")})
    return label, ctx, pts or None


def plot(datasets, args):
    label, ctx, _ = datasets[0]
    pts = [p for _, _, part in datasets for p in part]
    fig, axes = plt.subplots(2, 2, figsize=(13, 8), squeeze=False, sharey=True)
    for i, (kind, ops) in enumerate(VARIANTS):
        ax = axes[i // 2][i % 2]
        mine = sorted((p for p in pts if p["kind"] == kind and p["ops"] == ops and p["width"] == args.width),
                      key=lambda p: p["footprint"])
        ax.set_title(f"{kind}/{ops}, width {args.width} B", fontsize=10)
        if not mine:
            ax.text(0.5, 0.5, "no points", transform=ax.transAxes, ha="center")
            continue
        xs = [p["footprint"] for p in mine]
        ax.stackplot(xs, [p["l1"] for p in mine], [p["l2"] for p in mine], [p["dram"] for p in mine],
                     labels=["served by L1", "served by L2", "served by DRAM"],
                     colors=["#4c9f70", "#4a7fb5", "#c8553d"], alpha=0.85)
        # The footprint's label as a step line on a second axis (levels 1 to 3).
        lab = ax.twinx()
        lab.step(xs, [p["label"] for p in mine], where="mid", color="black", linewidth=1.2, label="label (footprint)")
        lab.set_ylim(0.5, 3.5)
        lab.set_yticks(list(LEVEL_NAMES))
        lab.set_yticklabels(list(LEVEL_NAMES.values()), fontsize=7)
        l2 = float(ctx.get("gpu_l2_bytes", 0))
        if l2 > 0:
            ax.axvline(l2, color="grey", linestyle="--", linewidth=0.8)
            ax.text(l2, 0.02, " L2", transform=ax.get_xaxis_transform(), fontsize=7, color="grey")
        ax.set_xscale("log", base=2)
        bytes_axis(ax.xaxis)
        ax.set_ylim(0, 100)
        ax.set_xlabel("footprint")
        if i % 2 == 0:
            ax.set_ylabel("% of the bytes asked (GPU counters)")
        if i == 0:
            ax.legend(loc="center left", fontsize=7)
            lab.legend(loc="lower left", fontsize=7)
    return finish(fig, "Which level served the bytes", datasets[:1], args.out, "counters_served")


def extra(ap):
    ap.add_argument("--width", type=int, choices=[4, 8, 16], default=16)


SCRIPT = Script(__doc__, "Bandwidth counters", load, plot, extra_args=extra)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

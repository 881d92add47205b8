#!/usr/bin/env python3
"""Draws the per-warp timeline of one SM from the CSV that ARCHBENCH_TIMELINE_CSV=PATH makes
archbench write (Scheduling/timeline).

Usage: plot_timeline.py [--out DIR] [--sm N] CSV   (or CSV.gz)

Writes DIR/timeline_sm<N>.{png,svg}: one bar per warp from its start to its end (ns from the
SM's first start), one row per warp slot (%warpid), coloured by block. Default SM: the one with
the most blocks. A missing or malformed CSV is a one-line error (exit 2).
"""
import argparse
import csv
import gzip
import sys
from archbench_tools.plots.plotlib import save  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

FIELDS = ["block", "warp_in_block", "smid", "warpid", "start_ns", "end_ns"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", default="plots")
    ap.add_argument("--sm", type=int)
    args = ap.parse_args(argv)
    resultfile.output_dir_or_exit(args.out, "plot_timeline.py")  # before any work: a folder it cannot write
    try:
        with (gzip.open(args.csv, "rt") if args.csv.endswith(".gz") else open(args.csv)) as f:
            rows = [{k: int(r[k]) for k in FIELDS} for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError, TypeError) as e:
        print(f"plot_timeline.py: error: {args.csv}: not a timeline CSV ({e})", file=sys.stderr)
        return 2
    if not rows:
        print(f"plot_timeline.py: error: {args.csv}: no warps", file=sys.stderr)
        return 2
    blocks_per_sm = {}
    for r in rows:
        blocks_per_sm.setdefault(r["smid"], set()).add(r["block"])
    sm = args.sm if args.sm is not None else max(blocks_per_sm, key=lambda s: len(blocks_per_sm[s]))
    mine = [r for r in rows if r["smid"] == sm]
    if not mine:
        print(f"plot_timeline.py: error: no warp ran on SM {sm}", file=sys.stderr)
        return 2
    t0 = min(r["start_ns"] for r in mine)
    blocks = sorted({r["block"] for r in mine})
    cmap = plt.get_cmap("tab20")
    fig, ax = plt.subplots(figsize=(12, 0.12 * max(r["warpid"] for r in mine) + 2.5))
    for r in mine:
        ax.barh(r["warpid"], (r["end_ns"] - r["start_ns"]) / 1e3, left=(r["start_ns"] - t0) / 1e3, height=0.8,
                color=cmap(blocks.index(r["block"]) % 20))
    ax.set_xlabel("time from the SM's first warp start (us)")
    ax.set_ylabel("warp slot (%warpid)")
    ax.set_title(f"SM {sm}: {len(mine)} warps of {len(blocks)} blocks (colour: block)")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    for p in save(fig, args.out, f"timeline_sm{sm}"):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())

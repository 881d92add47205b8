#!/usr/bin/env python3
"""Plots Sync from one or more archbench JSON files (several files: GPUs side by side).

Usage: plot_sync.py [--unit cycles|ns] [--out DIR] FILE...

Writes DIR/sync_latency.{png,svg} (dependent-chain latency of each warp collective, one bar per
GPU) and DIR/sync_throughput.{png,svg} (one panel per collective: % of the Programming Guide's
peak where it has one (shuffles), else warp-level instructions x 32 per clock per SM, against warps
on one SM, one line per ILP and GPU). Files without Sync data are skipped with a note.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotlib import main, unit_arg  # noqa: E402
from plot_pipeline import load, plot_latency, plot_throughput  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(__doc__, "Sync", lambda path: load(path, "Sync"),
                  lambda datasets, args: plot_latency(datasets, args.unit, args.out, "Sync")
                  + plot_throughput(datasets, args.out, "Sync", one_sm=True),
                  extra_args=unit_arg))

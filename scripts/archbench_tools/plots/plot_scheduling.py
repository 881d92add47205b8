#!/usr/bin/env python3
"""Plots Scheduling from archbench JSON files and the side files of its raw records.

Usage: plot_scheduling.py [--out DIR] [--clock-trace CSV]... [--pairs CSV] FILE...

Writes DIR/scheduling_icache.{png,svg} from the JSON: cycles per instruction of a straight-line
FFMA body against its size (one warp, one warp per scheduler), the SM's instructions per clock
with 32 warps, and the instruction-cache capacities the suite inferred. With --clock-trace (the
CSV of ARCHBENCH_CLOCK_TRACE_CSV, Scheduling/sustained_clock): DIR/scheduling_clock.{png,svg}, the
SM clock (in-kernel and NVML), power and temperature over the run. With --pairs (the CSV of
ARCHBENCH_SCHEDULER_PAIRS_CSV, Scheduling/warp_schedulers): DIR/scheduling_pairs.{png,svg}, the
slowdown of every pair of warps as a matrix. Files without Scheduling data are skipped with a
note; a malformed CSV is a one-line error (exit 2).
"""
import csv
import os
import sys
from archbench_tools.plots.plotlib import feature_benchmarks, Script, save, finish, axes, family_parts  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Scheduling")
    curves, geometry = {}, {}
    for b in rows:
        parts = family_parts(b)
        fields = axes(b)
        if parts[1] == "icache":
            curves.setdefault(int(fields["warps_per_sm"]), []).append(
                (b["body_bytes"], b["cycles_per_instruction"], b["instructions_per_clk_per_sm"]))
        elif parts[1] == "icache_geometry":
            geometry[int(fields["warps_per_sm"])] = [
                (b[f"level{i}_capacity_bytes"], b.get(f"level{i}_confidence", 0))
                for i in range(1, int(b.get("levels", 0)) + 1)]
    return label, ctx, (curves, geometry) if curves else None


def plot_icache(datasets, out_dir):
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(13, 4.5))
    levels_seen = {}  # (level, capacity) -> the confidences of every run that inferred it: one label each
    for label, _, (curves, geometry) in datasets:
        suffix = f" — {label}" if len(datasets) > 1 else ""
        for warps, pts in sorted(curves.items()):
            pts.sort()
            xs = [p[0] / 1024 for p in pts]
            if warps <= 4:
                ax.plot(xs, [p[1] for p in pts], "-o", markersize=4, label=f"{warps} warp(s) per SM{suffix}")
            ax2.plot(xs, [p[2] for p in pts], "-o", markersize=4, label=f"{warps} warp(s) per SM{suffix}")
        for warps, levels in geometry.items():
            for i, (cap, conf) in enumerate(levels):
                if warps == min(geometry):
                    levels_seen.setdefault((i + 1, cap), []).append(conf)
    for (level, cap), confs in sorted(levels_seen.items()):
        ax.axvline(cap / 1024, color="grey", linestyle=":", alpha=0.7)
        ax.annotate(f"level {level}: {cap / 1024:.0f} KiB (conf. {', '.join(f'{c:.2f}' for c in confs)})", (cap / 1024, 0.2),
                    rotation=90, fontsize=7, ha="right", va="bottom")
    for a in (ax, ax2):
        a.set_xscale("log", base=2)
        a.set_xlabel("loop body, KiB of SASS")
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
    ax.set_ylabel("cycles per instruction, per warp (loop included)")
    ax.set_ylim(bottom=0)
    ax2.set_ylabel("instructions per clock per SM")
    ax2.set_ylim(bottom=0)
    return finish(fig, "Instruction cache: straight-line FFMA code", datasets, out_dir, "scheduling_icache")


def read_csv(path, fields):
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            for k in fields:
                r[k]  # noqa: B018 (the column must exist)
        return rows
    except (OSError, KeyError) as e:
        print(f"plot_scheduling.py: error: {path}: not the expected CSV ({e})", file=sys.stderr)
        sys.exit(2)


def plot_clock_traces(paths, out_dir):
    fig, axes = plt.subplots(1, len(paths), figsize=(7.5 * len(paths), 4.5), squeeze=False)
    for ax, path in zip(axes[0], paths):
        rows = read_csv(path, ["source", "seconds", "sm_clock_mhz", "power_w", "temperature_c"])
        kernel = [(float(r["seconds"]), float(r["sm_clock_mhz"])) for r in rows if r["source"] == "kernel"]
        nvml = [(float(r["seconds"]), float(r["sm_clock_mhz"]), float(r["power_w"]), float(r["temperature_c"]))
                for r in rows if r["source"] == "nvml"]
        ax.plot([k[0] for k in kernel], [k[1] for k in kernel], label="SM clock, in-kernel (clock64 / %globaltimer)")
        ax.plot([n[0] for n in nvml], [n[1] for n in nvml], ".", markersize=3, label="SM clock, NVML")
        ax.set_xlabel("seconds")
        ax.set_ylabel("MHz")
        ax.set_ylim(0, 2200)
        ax.grid(True, alpha=0.3)
        axp = ax.twinx()
        axp.plot([n[0] for n in nvml], [n[2] for n in nvml], color="tab:red", alpha=0.6, label="power, W")
        axp.plot([n[0] for n in nvml], [n[3] for n in nvml], color="tab:green", alpha=0.6, label="temperature, °C")
        axp.set_ylabel("W, °C")
        axp.set_ylim(0, 800)
        lines, lines2 = ax.get_legend_handles_labels(), axp.get_legend_handles_labels()
        ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=7, loc="lower right")
        ax.set_title(os.path.splitext(os.path.basename(path))[0], fontsize=9)
    fig.suptitle("Sustained load on every SM: clock, power, temperature")
    fig.tight_layout()
    return save(fig, out_dir, "scheduling_clock")


def plot_pairs(path, out_dir):
    rows = read_csv(path, ["warp_a", "warp_b", "slowdown"])
    n = max(max(int(r["warp_a"]), int(r["warp_b"])) for r in rows) + 1
    m = [[float("nan")] * n for _ in range(n)]
    for r in rows:
        a, b, s = int(r["warp_a"]), int(r["warp_b"]), float(r["slowdown"])
        m[a][b] = m[b][a] = s
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    im = ax.imshow(m, cmap="viridis", origin="lower")
    fig.colorbar(im, ax=ax, label="time of the pair / time alone")
    ax.set_xlabel("warp index in the block")
    ax.set_ylabel("warp index in the block")
    fig.suptitle("Every pair of warps run alone together")
    fig.tight_layout()
    return save(fig, out_dir, "scheduling_pairs")


def extra_args(ap):
    ap.add_argument("--clock-trace", metavar="CSV", action="append", default=[],
                    help="repeat for several runs (FFMA, wgmma): one panel each")
    ap.add_argument("--pairs", metavar="CSV")


def plot(datasets, args):
    out = plot_icache(datasets, args.out)
    if args.clock_trace:
        out += plot_clock_traces(args.clock_trace, args.out)
    if args.pairs:
        out += plot_pairs(args.pairs, args.out)
    return out


SCRIPT = Script(__doc__, "Scheduling", load, plot, extra_args=extra_args)

if __name__ == "__main__":
    sys.exit(SCRIPT.main())

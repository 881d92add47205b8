#!/usr/bin/env python3
"""Nightly regression run: measure, store in the history, compare with the baseline, report.

Usage: nightly.py --binary PATH [--filter REGEX] [--repetitions N] [--history DIR]
                  [--baseline FILE] [--threshold PCT] [-- EXTRA_ARCHBENCH_ARGS...]

1. Runs `archbench --isolate --benchmark_repetitions=N --benchmark_filter=REGEX` into
   DIR/<gpu-slug>/<UTC timestamp>.json (the history, one file per run).
2. Compares it with --baseline, else DIR/<gpu-slug>/baseline.json when it exists, else the
   previous run in the history (scripts/compare.py: significance from the repetitions, a noise
   threshold per benchmark).
3. Writes DIR/<gpu-slug>/<timestamp>.md: the comparison, and trend plots over the history of the
   benchmarks that changed most (PNG next to it; skipped without matplotlib).

Exit codes: 0 no significant regression (or nothing to compare with yet), 1 regression, 2 error.
"""
import argparse
import datetime
import glob
import io
import json
import os
import re
import statistics
import subprocess
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def slug(name):
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", name.lower())).strip("-") or "gpu"


def trend_plots(history_files, names, out_dir, stem):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths = []
    series = {n: [] for n in names}
    for i, path in enumerate(history_files):
        try:
            _, runs = compare.load(path)
        except compare.InputError:
            continue
        for n in names:
            metric, _ = compare.main_metric(n)
            values = runs.get(n, {}).get(metric)
            if values:
                series[n].append((i, statistics.median(values)))
    for k, (n, pts) in enumerate(series.items()):
        if len(pts) < 2:
            continue
        fig, ax = plt.subplots(figsize=(7, 3))
        xs, ys = zip(*pts)
        ax.plot(xs, ys, marker="o")
        ax.set_title(n, fontsize=8)
        ax.set_xlabel("run (oldest first)", fontsize=8)
        ax.set_ylabel(compare.main_metric(n)[0], fontsize=8)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        p = os.path.join(out_dir, f"{stem}-trend-{k}.png")
        fig.savefig(p, dpi=100)
        plt.close(fig)
        paths.append(p)
    return paths


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--filter", default=".")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--history", default="results/history")
    ap.add_argument("--baseline")
    ap.add_argument("--threshold", type=float, default=2.0)
    args = ap.parse_args(argv)

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")  # unique, sortable
    os.makedirs(args.history, exist_ok=True)
    scratch = os.path.join(args.history, f".running-{stamp}.json")
    cmd = [args.binary, "--isolate", f"--benchmark_repetitions={args.repetitions}",
           f"--benchmark_filter={args.filter}", f"--benchmark_out={scratch}", "--benchmark_out_format=json", *extra]
    print("nightly: " + " ".join(cmd), file=sys.stderr)
    try:
        rc = subprocess.run(cmd).returncode
    except OSError as e:
        print(f"nightly: error: cannot run {args.binary}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        ctx, _ = compare.load(scratch)
    except compare.InputError as e:
        print(f"nightly: error: the run (exit {rc}) left no usable result: {e}", file=sys.stderr)
        return 2
    gpu_dir = os.path.join(args.history, slug(ctx.get("gpu_name", "gpu")))
    os.makedirs(gpu_dir, exist_ok=True)
    current = os.path.join(gpu_dir, f"{stamp}.json")
    os.replace(scratch, current)
    history = sorted(glob.glob(os.path.join(gpu_dir, "2*.json")))

    baseline = args.baseline
    if not baseline and os.path.exists(os.path.join(gpu_dir, "baseline.json")):
        baseline = os.path.join(gpu_dir, "baseline.json")
    if not baseline and len(history) >= 2:
        baseline = history[-2]
    report = [f"# archbench nightly {stamp}", "", f"GPU: {ctx.get('gpu_name', '?')}, result `{current}`",
              f"(archbench exit code {rc}: {'fine' if rc == 0 else 'a feature failed, see its isolated_child entry'})", ""]
    status = 0
    if not baseline:
        report.append("No baseline yet: this run is the first in the history.")
    else:
        buf = io.StringIO()
        with redirect_stdout(buf):
            status = compare.main(["--markdown", "--threshold", str(args.threshold), baseline, current])
        report += [f"Compared with `{baseline}`:", "", buf.getvalue()]
        if status == 2:
            return 2
        _, base_runs = compare.load(baseline)
        _, cur_runs = compare.load(current)
        rows = [r for r in compare.compare(base_runs, cur_runs, args.threshold, 0.05) if r["main"]]
        moved = [r["name"] for r in sorted(rows, key=lambda r: -abs(r["change"]))[:6]]
        plots = trend_plots(history, moved, gpu_dir, stamp)
        if plots:
            report += ["## Trends of the benchmarks that moved most", ""]
            report += [f"![trend]({os.path.basename(p)})" for p in plots]
    report_path = os.path.join(gpu_dir, f"{stamp}.md")
    with open(report_path, "w") as f:
        f.write("\n".join(report) + "\n")
    print(f"nightly: report {report_path}", file=sys.stderr)
    return 1 if status == 1 else 0


if __name__ == "__main__":
    sys.exit(main())

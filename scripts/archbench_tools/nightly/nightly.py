#!/usr/bin/env python3
"""Nightly regression run: measure, keep the history, compare against it, report.

Usage: nightly.py --binary PATH [--filter REGEX] [--repetitions N] [--history DIR]
                  (DIR: default $ARCHBENCH_HISTORY, else ~/.local/share/archbench/history)
                  [--baseline FILE] [--window N] [--keep N] [-- EXTRA_ARCHBENCH_ARGS...]
       nightly.py --history DIR --compare-latest      (no measurement: report on the newest run)

1. Runs `archbench --isolate` into DIR/<gpu-slug>/<UTC timestamp>.json. The history keeps, per
   GPU model, the last --keep runs of each board (gpu_uuid); planted-fault runs never enter it.
2. Compares the run with its baseline (--baseline, else DIR/<gpu-slug>/baseline.json, else the
   board's previous run, else the model's) with the last --window runs as the noise history: the
   board's own when it has 2 or more, else its board part's, else none (compare.noise_history;
   scripts/compare.py: the look-back band of
   each benchmark, Benjamini-Hochberg over all, a minimum effect per metric kind, and
   per-feature shifts).
3. Tells a step from a blip: a benchmark that also changed the night before, the same way, is a
   step (it persists); one that changed tonight only is new; one that changed the night before
   and is back tonight was a one-night blip.
4. Writes DIR/<gpu-slug>/<timestamp>.md (the one-screen summary in Markdown, the steps and blips,
   a trend plot of each regressed benchmark over the history) and <timestamp>-table.csv.
5. Rebuilds the dashboard over the history (scripts/dashboard.py; --site, default DIR/site;
   --no-site skips it): open DIR/site/index.html.

Exit codes: 0 no regression (or nothing to compare with yet), 1 regression, 2 error.
"""
import argparse
import datetime
import glob
import os
import statistics
import subprocess
import sys
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import passthrough  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.report import dashboard  # noqa: E402


def default_history():
    return os.environ.get("ARCHBENCH_HISTORY") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"), "archbench", "history")


def history_runs(gpu_dir, model):
    """The usable runs of the folder, oldest first (by the run's own date, not the file's time)."""
    runs, _ = compare.load_history([p for p in glob.glob(os.path.join(gpu_dir, "2*.json"))], model)
    return runs


def prune(runs, keep):
    """Deletes all but the last `keep` runs of each board; returns the kept runs."""
    by_board = {}
    for r in runs:
        by_board.setdefault(r.context.get("gpu_uuid", "?"), []).append(r)
    kept = []
    for board_runs in by_board.values():
        for old in board_runs[:-keep] if keep > 0 else []:
            stem = old.path[:-5]
            for p in [old.path, stem + ".md", stem + "-table.csv"] + glob.glob(stem + "-trend-*.png"):
                if os.path.exists(p):
                    os.remove(p)
        kept += board_runs[-keep:] if keep > 0 else board_runs
    return sorted(kept, key=lambda r: str(r.context.get("date", "")))


def statuses(rows):
    """Judged changes only: a method change is listed by compare, never a step or a blip."""
    return {(r["name"], r["counter"]): r["status"] for r in rows if r["status"] not in ("same", "method changed")}


def steps_and_blips(tonight, last_night):
    """(steps, new, blips): keys changed both nights the same way, tonight only, last night only."""
    steps = sorted(k for k, s in tonight.items() if last_night.get(k) == s)
    new = sorted(k for k in tonight if k not in steps)
    blips = sorted(k for k in last_night if k not in tonight)
    return steps, new, blips


def trend_plots(runs, rows, out_dir, stem, limit):
    """One PNG per regressed benchmark: its metric over the history, the band, tonight marked."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths = []
    regressed = [r for r in rows if r["status"] in ("regressed", "value changed")][:limit]
    for k, r in enumerate(regressed):
        # The history of tonight's method only: it is split where the method changed.
        method = r.get("cont_method")
        pts = [(run.context.get("date", "?")[:10], statistics.median(run.values[r["name"]][r["counter"]]))
               for run in runs if r["counter"] in run.values.get(r["name"], {}) and run.methods.get(r["name"]) == method]
        if len(pts) < 2:
            continue
        fig, ax = plt.subplots(figsize=(7, 3))
        xs = list(range(len(pts)))
        ys = [p[1] for p in pts]
        ax.plot(xs, ys, marker="o", label=r["counter"])
        ax.plot(xs[-1], ys[-1], marker="o", color="red", markersize=9, label="tonight")
        if r.get("sigma_pct") and r["how"] != "value":
            ref = r["ref"]
            band = ref * r["threshold_pct"] / 100
            ax.axhspan(ref - band, ref + band, color="grey", alpha=0.2, label="band")
        ax.set_xticks(xs)
        ax.set_xticklabels([p[0] for p in pts], rotation=45, fontsize=6)
        ax.set_title(compare.short(r["name"]), fontsize=8)
        ax.set_ylabel(r["counter"], fontsize=8)
        ax.legend(fontsize=6)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        p = os.path.join(out_dir, f"{stem}-trend-{k}.png")
        fig.savefig(p, dpi=100)
        plt.close(fig)
        paths.append(p)
    return paths


def report(gpu_dir, current, runs, baseline_path, window, plots_limit, expected=None):
    """Compares `current` (a path) with the baseline and the history; writes the report; returns
    (exit status, report path)."""
    cur = compare.load(current)
    base = compare.load(baseline_path)
    earlier = [r for r in runs if os.path.abspath(r.path) not in (os.path.abspath(current), os.path.abspath(baseline_path))]
    # The board's own nights, else its part's (compare.noise_history): boards of one model differ
    # by a few % in some latencies, which a history of other boards would report as a change.
    hist, note = compare.noise_history(cur, earlier)
    hist = hist[-window:] if window > 0 else []
    # The fleet's spreads (results/reference/expected): no band narrower than boards differ by.
    model = compare.fleet_model(cur.context.get("gpu_name"), expected)
    rows, features = compare.compare(base, cur, hist, model=model)
    stem = os.path.basename(current)[:-5]
    lines = compare.warnings(base, cur) + ([note] if note else []) + \
        ([f"note: {model.describe()}: no band is narrower than the spread that applies"] if model else []) + [""]
    lines += compare.summary(base, cur, rows, features, len(hist), 15, True)
    # Last night: the previous run against its own baseline and history.
    before = [r for r in runs if str(r.context.get("date", "")) < str(cur.context.get("date", ""))]
    if len(before) >= 2:
        prev, prev_base = before[-1], before[-2]
        prev_hist = compare.noise_history(prev, before[:-2])[0][-window:] if window > 0 else []
        prev_rows, _ = compare.compare(prev_base, prev, prev_hist, model=model)
        steps, new, blips = steps_and_blips(statuses(rows), statuses(prev_rows))
        lines += ["", "## Steps and blips", "",
                  f"- steps (changed last night too, the same way: they persist): {len(steps)}",
                  f"- new tonight (one night so far): {len(new)}",
                  f"- one-night blips (changed last night, back tonight): {len(blips)}"]
        for title, keys in (("step", steps), ("new", new), ("blip", blips)):
            for name, counter in keys[:10]:
                lines.append(f"  - {title}: `{compare.short(name)}` {counter}")
    table = os.path.join(gpu_dir, f"{stem}-table.csv")
    compare.write_table(table, rows)
    lines += ["", f"Full table: `{os.path.basename(table)}`"]
    plots = trend_plots(runs, rows, gpu_dir, stem, plots_limit)
    if plots:
        lines += ["", "## Trends of the regressed benchmarks", ""]
        lines += [f"![trend]({os.path.basename(p)})" for p in plots]
    path = os.path.join(gpu_dir, f"{stem}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return (1 if compare.verdict(features) else 0), path


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    argv, extra = passthrough.split(argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary")
    ap.add_argument("--filter", default=".")
    ap.add_argument("--repetitions", type=int, default=1,
                    help="repetitions per benchmark (default 1: the history gives the noise)")
    ap.add_argument("--history", default=default_history(),
                    help="the history folder (default $ARCHBENCH_HISTORY, else ~/.local/share/archbench/history: "
                         "outside the repository, which keeps only baselines; docs/results.md)")
    ap.add_argument("--baseline")
    ap.add_argument("--window", type=int, default=10, help="earlier runs that give the noise band (default 10)")
    ap.add_argument("--keep", type=int, default=30, help="runs kept per board (default 30)")
    ap.add_argument("--plots", type=int, default=12, help="trend plots at most (default 12)")
    ap.add_argument("--compare-latest", action="store_true", help="report on the newest run without measuring")
    ap.add_argument("--site", help="the dashboard's folder, rebuilt after the run (default HISTORY/site)")
    ap.add_argument("--no-site", action="store_true", help="do not rebuild the dashboard")
    ap.add_argument("--expected", metavar="MODEL",
                    help="the fleet model (default: the committed results/reference/expected/<gpu-slug>.json.xz)")
    args = ap.parse_args(argv)
    status = night(args, extra)
    if not args.no_site and status != 2:
        site = args.site or os.path.join(args.history, "site")
        try:
            print(f"nightly.py: dashboard {dashboard.build(args.history, site, dashboard.DEFAULT_REFERENCE)}", file=sys.stderr)
        except dashboard.DashboardError as e:
            print(f"nightly.py: note: the dashboard was not rebuilt: {e}", file=sys.stderr)
    return status


def night(args, extra):
    """Steps 1-4; returns the exit code."""

    if args.compare_latest:
        files = glob.glob(os.path.join(args.history, "*", "2*.json"))
        if not files:
            why = "no such directory" if not os.path.isdir(args.history) else "no run (<gpu-slug>/2*.json) under it"
            print(f"nightly.py: error: --history {args.history}: {why}", file=sys.stderr)
            return 2
        try:
            newest = max((compare.load(f) for f in files), key=lambda r: str(r.context.get("date", "")))
        except compare.InputError as e:
            print(f"nightly.py: error: {e}", file=sys.stderr)
            return 2
        current = newest.path
        gpu_dir = os.path.dirname(current)
        rc = 0
    else:
        if not args.binary:
            print("nightly.py: error: --binary is required (or --compare-latest)", file=sys.stderr)
            return 2
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")  # unique, sortable
        os.makedirs(args.history, exist_ok=True)
        scratch = os.path.join(args.history, f".running-{stamp}.json")
        cmd = [args.binary, "--isolate", f"--benchmark_repetitions={args.repetitions}",
               f"--benchmark_filter={args.filter}", f"--benchmark_out={scratch}", "--benchmark_out_format=json", *extra]
        env = dict(os.environ)
        env.pop("ARCHBENCH_FAULT", None)  # a planted fault never enters the history
        print("nightly.py: " + " ".join(cmd), file=sys.stderr)
        try:
            rc = subprocess.run(cmd, env=env).returncode
        except OSError as e:
            print(f"nightly.py: error: cannot run {args.binary}: {e.strerror}", file=sys.stderr)
            return 2
        try:
            ctx = compare.load(scratch).context
        except compare.InputError as e:
            print(f"nightly.py: error: the run (exit {rc}) left no usable result: {e}", file=sys.stderr)
            return 2
        gpu_dir = os.path.join(args.history, resultfile.slug(ctx.get("gpu_name", "gpu"), "gpu"))
        os.makedirs(gpu_dir, exist_ok=True)
        current = os.path.join(gpu_dir, f"{stamp}.json")
        os.replace(scratch, current)
    try:
        model = compare.load(current).context.get("gpu_name")
        runs = prune(history_runs(gpu_dir, model), args.keep)
    except compare.InputError as e:
        print(f"nightly.py: error: {e}", file=sys.stderr)
        return 2
    baseline = args.baseline
    if not baseline and os.path.exists(os.path.join(gpu_dir, "baseline.json")):
        baseline = os.path.join(gpu_dir, "baseline.json")
    if not baseline:
        before = [r for r in runs if os.path.abspath(r.path) != os.path.abspath(current)]
        board = compare.load(current).context.get("gpu_uuid")
        same_board = [r for r in before if r.context.get("gpu_uuid") == board]
        baseline = (same_board or before)[-1].path if before else None
    if not baseline:
        print(f"nightly.py: {current} is the first run of this GPU model: nothing to compare with yet", file=sys.stderr)
        return 0
    try:
        status, path = report(gpu_dir, current, runs, baseline, args.window, args.plots, args.expected)
    except (compare.InputError, OSError) as e:
        print(f"nightly.py: error: {e}", file=sys.stderr)
        return 2
    print(f"nightly.py: report {path} (archbench exit {rc})", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())

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
3. Judges the night twice more: against a fixed anchor (baseline.json, else the board's first
   night, else the model's committed baseline: results/baselines.json), so that a slow loss adds
   up, and by accept.py's checks against the fleet model; the report's top says which raised it.
4. Dates every change over the board's history with change points (nightly/history.py: PELT from
   ruptures), tells a step from a drift, names a driver, runtime or VBIOS change, and says the
   smallest step and drift each acceptance check's metric can show.
5. Tells a step from a blip: a benchmark that also changed the night before, the same way, is a
   step (it persists); one that changed tonight only is new; one that changed the night before
   and is back tonight was a one-night blip.
6. Writes DIR/<gpu-slug>/<timestamp>.md (the verdicts, the one-screen summary in Markdown, the change
   points, the steps and blips, a trend plot of each regressed benchmark over the history with its
   change points), <timestamp>-table.csv and <timestamp>-changepoints.csv.
7. Rebuilds the dashboard over the history (scripts/dashboard.py; --site, default DIR/site;
   --no-site skips it): open DIR/site/index.html.

Exit codes: 0 no regression (or nothing to compare with yet), 1 regression, 2 error.
"""
import argparse
import datetime
import glob
import os
import subprocess
import sys
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import passthrough  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.report import dashboard  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.nightly import accept  # noqa: E402
from archbench_tools.nightly import history  # noqa: E402
from archbench_tools.results import roles  # noqa: E402


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
            for p in [old.path, stem + ".md", stem + "-table.csv", stem + "-changepoints.csv"] + \
                    glob.glob(stem + "-trend-*.png"):
                if os.path.exists(p):
                    os.remove(p)
        kept += board_runs[-keep:] if keep > 0 else board_runs
    return sorted(kept, key=lambda r: str(r.context.get("date", "")))


def statuses(rows):
    """Judged changes only: a method change is listed by compare, never a step or a blip."""
    return {(r["name"], r["counter"]): r["status"] for r in rows
            if r["status"] not in ("same", "method changed", "another board", "board group")}


def steps_and_blips(tonight, last_night):
    """(steps, new, blips): keys changed both nights the same way, tonight only, last night only."""
    steps = sorted(k for k, s in tonight.items() if last_night.get(k) == s)
    new = sorted(k for k in tonight if k not in steps)
    blips = sorted(k for k in last_night if k not in tonight)
    return steps, new, blips


def trend_plots(runs, rows, out_dir, stem, limit, points=()):
    """One PNG per regressed benchmark: its metric over the history, the band, tonight marked, and
    the change points found in its series (history.analyse) as vertical lines."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths, seen = [], set()
    for r in rows:
        if len(paths) >= limit or (r["name"], r["counter"]) in seen:
            continue
        seen.add((r["name"], r["counter"]))
        idx, ys = history.series(runs, r["name"], r["counter"])
        if len(ys) < 2:
            continue
        fig, ax = plt.subplots(figsize=(7, 3))
        xs = list(range(len(ys)))
        ax.plot(xs, ys, marker="o", label=r["counter"])
        ax.plot(xs[-1], ys[-1], marker="o", color="red", markersize=9, label="tonight")
        if r.get("sigma_pct") and r["how"] != "value":
            ref = r["ref"]
            band = ref * r["threshold_pct"] / 100
            ax.axhspan(ref - band, ref + band, color="grey", alpha=0.2, label="band")
        marked = False
        for c in points:
            if c["name"] == r["name"] and c["counter"] == r["counter"] and c["night"] in idx:
                ax.axvline(idx.index(c["night"]) - 0.5, color="purple", linestyle="--",
                           label=None if marked else "change point")
                marked = True
        ax.set_xticks(xs)
        ax.set_xticklabels([history.night_label(runs[i])[:10] + " " + history.commit(runs[i])[:7] for i in idx],
                           rotation=45, fontsize=6, ha="right")
        ax.set_title(compare.short(r["name"]), fontsize=8)
        ax.set_ylabel(r["counter"], fontsize=8)
        ax.legend(fontsize=6)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        p = os.path.join(out_dir, f"{stem}-trend-{len(paths)}.png")
        fig.savefig(p, dpi=100)
        plt.close(fig)
        paths.append(p)
    return paths


def anchor_of(cur, runs, baseline_path):
    """The fixed anchor a night is judged against besides the night before: baseline.json (or
    --baseline) where given, else the board's first run in the history, else the GPU model's
    committed baseline. It does not move with the window, so a slow loss adds up against it."""
    if baseline_path and os.path.basename(baseline_path) == "baseline.json":
        return baseline_path, "the history's baseline.json"
    board = cur.context.get("gpu_uuid")
    own = [r for r in runs if r.context.get("gpu_uuid") == board and os.path.abspath(r.path) != os.path.abspath(cur.path)]
    if own:
        return own[0].path, f"the board's first night in the history ({history.night_label(own[0])}, commit {history.commit(own[0])})"
    committed = fleet_model.baseline_for(cur.context.get("gpu_name"))
    if committed:
        return committed, f"the committed baseline of {cur.context.get('gpu_name')} ({os.path.basename(committed)})"
    return None, None


def site_model_path(history_dir, gpu_name):
    """Where a site keeps the fleet model it builds from its own history (docs/acceptance.md):
    `fleet_model.py HISTORY --out-dir HISTORY/expected`."""
    return fleet_model.model_path(gpu_name, os.path.join(history_dir, "expected"))


def fleet_of(gpu_name, history_dir, expected=None):
    """The fleet model: --expected, else the project's committed one of this GPU model, else the
    site's own (site_model_path), else None."""
    if expected:
        return fleet_model.model_or_committed(gpu_name, expected)
    model = fleet_model.model_or_committed(gpu_name)
    if model is None and gpu_name and os.path.exists(site_model_path(history_dir, gpu_name)):
        model = fleet_model.model_or_committed(gpu_name, site_model_path(history_dir, gpu_name))
    return model


def site_model(model, gpu_dir):
    return bool(model and model.path) and os.path.abspath(model.path) == os.path.abspath(
        site_model_path(os.path.dirname(gpu_dir), model.doc.get("gpu_name", "")))


def acceptance(cur, model):
    """accept.py's checks on tonight's run against the fleet model: (verdict line, failed checks)."""
    try:
        doc = resultfile.load(cur.path)
    except resultfile.ResultError:
        return None, []
    checks = accept.judge(cur, doc, model)
    if all(c.basis.startswith("not measured in this run") for c in checks):
        return None, []
    return accept.verdict_line(checks), [c for c in checks if c.status == "fail"]


def detectability_table(cur, model, nights=30):
    """The smallest step and drift a night of this board can show, for the acceptance checks' metrics."""
    lines = [f"| check | metric | smallest step flagged | smallest drift a night flagged within {nights} nights |",
             "|---|---|---|---|"]
    names = roles.Index(list(cur.values))
    for _, what, role, *_ in accept.CHECKS:
        key = roles.find(role, names, cur.context)
        counter = roles.ROLES[role].counter
        row = model.row(key, counter, cur.methods.get(key)) if (model and key) else None
        step, drift = history.detectable(row, compare.metric_kind(counter), nights) if row else (None, None)
        lines.append(f"| {what} | {counter} | " + ("unknown (no process spread in the model) | |" if step is None else
                                                    f"{step:.2f} % | {drift:.3f} % |"))
    return lines


def report(gpu_dir, current, runs, baseline_path, window, plots_limit, expected=None):
    """Compares `current` (a path) with last night (the baseline) and its history, with the fixed
    anchor, and with the fleet model through accept.py's checks; dates every change over the
    board's history; writes the report; returns (exit status, report path)."""
    cur = compare.load(current)
    base = compare.load(baseline_path)
    earlier = [r for r in runs if os.path.abspath(r.path) not in (os.path.abspath(current), os.path.abspath(baseline_path))]
    # The board's own nights, else its part's (compare.noise_history): boards of one model differ
    # by a few % in some latencies, which a history of other boards would report as a change.
    hist, note = compare.noise_history(cur, earlier)
    hist = hist[-window:] if window > 0 else []
    # The fleet's spreads: no band is narrower than boards differ by.
    model = fleet_of(cur.context.get("gpu_name"), os.path.dirname(gpu_dir), expected)
    rows, features = compare.compare(base, cur, hist, model=model)
    stem = os.path.basename(current)[:-5]
    # The anchor: a fixed run, so that a loss too slow for any one night still adds up.
    anchor_path, anchor_words = anchor_of(cur, runs, baseline_path)
    anchor_rows, anchor_features = [], {}
    if anchor_path and os.path.abspath(anchor_path) != os.path.abspath(baseline_path):
        anchor = compare.load(anchor_path)
        anchor_rows, anchor_features = compare.compare(anchor, cur, [], model=model)
    verdict_accept, failed_checks = acceptance(cur, model)
    tonight, anchored = compare.verdict(features), compare.verdict(anchor_features)
    raised = (["tonight against last night"] if tonight else []) + (["the anchor"] if anchored else []) + \
        (["acceptance (the fleet model)"] if failed_checks else [])
    lines = [f"# Nightly: {os.path.basename(current)}", "",
             f"**{'REGRESSION, raised by ' + ', '.join(raised) if raised else 'No regression'}**", "",
             f"- tonight against last night ({os.path.basename(baseline_path)}): "
             f"{'REGRESSION in ' + '; '.join(tonight) if tonight else 'no regression'}",
             f"- against the anchor, {anchor_words}: " + (
                 ("REGRESSION in " + "; ".join(anchored) if anchored else "no regression") if anchor_rows else
                 ("the run compared with above" if anchor_path else "no anchor yet")),
             f"- acceptance: {verdict_accept or 'none of its checks in this run'}"]
    body_board = [r for r in runs if r.context.get("gpu_uuid") == cur.context.get("gpu_uuid")]
    if len(body_board) >= 2:
        changed = history.stack_changes(body_board[-2], body_board[-1])
        if changed:
            lines.append(f"- the software stack changed since last night: {', '.join(changed)}")
    whose = " (the site's own, built from this history)" if site_model(model, gpu_dir) else ""
    lines += [""] + compare.warnings(base, cur) + ([note] if note else []) + \
        ([f"note: {model.describe()}{whose}: no band is narrower than the spread that applies"] if model else []) + [""]
    lines += compare.summary(base, cur, rows, features, len(hist), 15, True)
    if anchor_rows:
        moved = sorted((r for r in anchor_rows if r["status"] == "regressed"), key=lambda r: -r.get("worse_pct", 0))
        lines += ["", f"## Against the anchor: {anchor_words}", ""]
        lines += [f"- `{compare.short(r['name'])}` {r['counter']}: {r['worse_pct']:+.2f} % worse than the anchor "
                  f"(band {r['threshold_pct']:.2f} %)" for r in moved[:15]] or ["- nothing left the anchor's band"]
    # Change points over the board's whole history (its own nights, oldest first).
    keys = [(n, c, h) for n, decl in cur.primary.items() if n in cur.values for c, h, _ in decl]
    lines += ["", "## Change points over the board's history", "",
              f"{len(body_board)} nights of board {cur.context.get('gpu_uuid', '?')[:12]}; {history.METHOD_NOTE}.", ""]
    if history.ruptures() is None:
        lines.append("- not computed: the Python package `ruptures` is not installed (pip install ruptures)")
        points = []
    else:
        points = history.analyse(body_board, keys, model)
        lines += [f"- `{compare.short(c['name'])}` {c['counter']}: {history.describe(c)}" for c in points[:30]] or \
            ["- none"]
        if len(points) > 30:
            lines.append(f"- ... and {len(points) - 30} more (the table)")
    lines += ["", "## What this board's nights can see", ""] + detectability_table(cur, model)
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
        for title, keys_ in (("step", steps), ("new", new), ("blip", blips)):
            for name, counter in keys_[:10]:
                lines.append(f"  - {title}: `{compare.short(name)}` {counter}")
    table = os.path.join(gpu_dir, f"{stem}-table.csv")
    compare.write_table(table, rows)
    lines += ["", f"Full table: `{os.path.basename(table)}`"]
    history.write_csv(os.path.join(gpu_dir, f"{stem}-changepoints.csv"), points)
    lines += [f"Change points: `{stem}-changepoints.csv`"]
    trend_rows = [r for r in rows if r["status"] in ("regressed", "value changed")] + \
        [r for r in anchor_rows if r["status"] == "regressed"]
    plots = trend_plots(body_board or runs, trend_rows, gpu_dir, stem, plots_limit, points)
    if plots:
        lines += ["", "## Trends of the regressed benchmarks (change points marked)", ""]
        lines += [f"![trend]({os.path.basename(p)})" for p in plots]
    path = os.path.join(gpu_dir, f"{stem}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return (1 if raised else 0), path


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
                    help="the fleet model (default: the committed results/reference/expected/<gpu-slug>.json.xz, "
                         "else the site's HISTORY/expected/<gpu-slug>.json.xz: fleet_model.py HISTORY --out-dir "
                         "HISTORY/expected builds it)")
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
        try:
            os.makedirs(args.history, exist_ok=True)
        except OSError as e:
            print(f"nightly.py: error: --history {args.history}: cannot make it: {e.strerror or e}", file=sys.stderr)
            return 2
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
        # The first night of a GPU model the project knows: its committed baseline and fleet model.
        baseline = fleet_model.baseline_for(compare.load(current).context.get("gpu_name"))
    if not baseline:
        print(f"nightly.py: {current} is the first run of this GPU model, and the project has no baseline of it: "
              "nothing to compare with yet", file=sys.stderr)
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

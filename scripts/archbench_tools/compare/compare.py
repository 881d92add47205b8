#!/usr/bin/env python3
"""Compares archbench runs: a contender against a baseline, with the noise the history shows.

Usage: compare.py [--history FILE_OR_DIR ...] [--markdown] [--table FILE.csv] [--top N]
                  [--alpha Q] [--floor PCT] [--expected MODEL | --no-expected] BASELINE CONTENDER

What is compared (docs/regression.md has the whole rule):
- Each benchmark's *declared* primary metrics, read from its JSON label
  (`primary=latency_cycles:lower`, `primary=capacity_bytes:5%`). Files written before the
  declaration existed fall back to resultfile.LEGACY_RULES. Wall time is never a metric.
- A measured metric (higher/lower) changes when its relative change is at least the minimum
  effect of its kind (MIN_EFFECT_PCT, by the counter's unit) and, where the noise is known,
  significant after Benjamini-Hochberg control of the false-discovery rate over all benchmarks
  (q < --alpha):
    * with --history (earlier runs of the same GPU model): the look-back test, the contender
      against the spread of the history and the baseline (t distribution, n - 1 degrees of
      freedom), and the change must leave the band of 3 standard deviations;
    * else with repetitions on both sides (>= 2): Welch's t-test on the logarithms (scipy);
    * else (single runs, no history) the fleet model's band for the pair, where it has the metric;
      else the noise is unknown: the change must exceed --floor;
    * in every case the band is at least 3 standard errors of the difference of the medians
      where a benchmark reports the spread of its own samples (<metric>_sd_pct, _samples), and
      at least the range over CUDA contexts where it reports one (<metric>_context_min/_max).
- The fleet model (results/reference/expected/<gpu-slug>.json.xz, scripts/fleet_model.py; --expected,
  --no-expected): no band is narrower than the spread that applies to the pair, the same board's
  process spread, else the spread between boards of its part, else with the parts' difference, so a
  history of other boards never narrows a band below what boards differ by. The row's noise says
  which spread decided.
- An inferred value (capacity, line, banks, ...) changes when it moves by more than its declared
  tolerance: a finding, not noise.
- Per feature, the median change of all its measured metrics with a sign test: a whole feature
  that moved together (a driver, a clock policy, a slower kernel everywhere) is flagged even
  when each benchmark alone is within its noise.

- Method identifiers: each benchmark's label carries one (`| method=...`, fixtures/harness/method_ids.hpp).
  A benchmark whose method differs between the two files is never judged: it is listed under
  "method changed" with the size of its move, and a history is split there (only earlier runs of
  the contender's method give its band). A file written before identifiers existed takes its
  methods from results/method-ledger.json (its commit's kernel code, scripts/method_digest.py);
  one that is not there either has unknown methods, listed and not judged, unless
  --legacy-methods=same says to take them as unchanged. A file built before benchmarks/methods.json
  declared its digest the same method as another (an "equivalent" entry: its SASS identical) is
  read with the id declared now, so a device run made before the SASS diff is judged after it.

The command and the files live here; the statistics (what counts as a change) in
compare_stats.py, the presentation (the screen, the verdict's wording, the table) in
compare_report.py.

Output: one screen (per feature: compared, changed, improved, regressed, median shift; the top
movers with metric and unit; the verdict), --markdown for CI, --table for the full table.
Exit codes: 0 no regression, 1 a regression or a changed inferred value, 2 unreadable input.
"""
import argparse
import glob
import json
import math
import os
import sys
from archbench_tools import paths
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
# The statistics and the presentation live beside this file; their names are compare's too, for the
# scripts and tests that use them (nightly, planted_regressions, the dashboard).
from archbench_tools.compare.compare_report import (UNITS, board_section, describe, fmt_value, method_section, short, summary,  # noqa: E402,F401
                            verdict_line, warnings, write_table)
from archbench_tools.compare.compare_stats import (BAND_SIGMAS, BOARD_FINGERPRINTS, CONTEXT_MAX_SUFFIX, CONTEXT_MIN_SUFFIX,  # noqa: E402,F401
                           DEFAULT_FLOOR_PCT, FEATURE_ALPHA, FEATURE_MIN_SHIFT_PCT, HOST_FEATURES, HOST_FLOOR_PCT,
                           LINK_SHARE_COUNTER, MIN_EFFECT_PCT, SAMPLE_COUNT_SUFFIX, SAMPLE_SD_SUFFIX,
                           benjamini_hochberg, board_steps, compare, context_range_pct, feature_of, feature_reasons,
                           feature_shifts, lookback, metric_kind, neighbour_steps, noise_history, sample_sigma_pct,
                           sign_test_p, transition_step_pct, verdict, welch_p)



# The run model owns loading (results/run.py): compare's names for it stay, for the scripts and the
# tests that use them.
from archbench_tools.results.run import (DEFAULT_LEDGER, RENAMED, UNVERSIONED, InputError, Metrics as Run,  # noqa: E402,F401
                                         assign_methods, default_ledger, label_method, ledger_methods,
                                         load_history, load_ledger, load_metrics as load,
                                         load_metrics_file as load_file, parse_label, redeclared)
benchmark_key = resultfile.benchmark_key  # the naming rule's owner keeps it


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baseline", nargs="?")
    ap.add_argument("contender", nargs="?")
    ap.add_argument("--history", nargs="*", default=[], help="earlier runs (files or folders) of the same GPU model")
    ap.add_argument("--alpha", type=float, default=0.05, help="false-discovery rate (default 0.05)")
    ap.add_argument("--floor", type=float, default=DEFAULT_FLOOR_PCT,
                    help="minimum change (%%) when neither history nor repetitions give the noise (default 10)")
    ap.add_argument("--top", type=int, default=12, help="top movers shown (default 12)")
    ap.add_argument("--markdown", action="store_true", help="Markdown (for CI) instead of plain text")
    ap.add_argument("--table", help="write the full table (every benchmark x metric) to this CSV file")
    ap.add_argument("--features", help="compare these features only (comma-separated), e.g. the ones a run measured")
    ap.add_argument("--ledger", default=DEFAULT_LEDGER,
                    help="methods of files written before method identifiers, by commit (default results/method-ledger.json)")
    ap.add_argument("--legacy-methods", choices=("ledger", "same"), default="ledger",
                    help="a file with no identifiers and no ledger entry: its methods unknown (ledger, the default) "
                         "or taken as unchanged (same)")
    ap.add_argument("--expected", metavar="MODEL",
                    help="the fleet model whose spreads set the least band (default: the committed "
                         "results/reference/expected/<gpu-slug>.json.xz of the contender's GPU, where there is one)")
    ap.add_argument("--no-expected", action="store_true", help="judge without a fleet model")
    args = ap.parse_args(argv)
    # `--history OLD... BASELINE CONTENDER`, the order the usage line shows: --history takes every
    # name after it, so the last two of them are the pair.
    if args.baseline is None and len(args.history) >= 2:
        args.baseline, args.contender = args.history[-2:]
        args.history = args.history[:-2]
    elif args.contender is None and args.baseline is not None and args.history:  # BASELINE --history ... CONTENDER
        args.contender, args.history = args.history[-1], args.history[:-1]
    if args.baseline is None or args.contender is None:
        ap.error("the following arguments are required: baseline, contender")
    try:
        ledger = load_ledger(args.ledger)
        base, cont = load(args.baseline, ledger, args.legacy_methods), load(args.contender, ledger, args.legacy_methods)
        hist_paths = [p for p in args.history if os.path.abspath(p) not in
                      (os.path.abspath(args.baseline), os.path.abspath(args.contender))]
        history, notes = load_history(hist_paths, cont.context.get("gpu_name"), ledger, args.legacy_methods)
        history = [h for h in history if os.path.abspath(h.path) not in
                   (os.path.abspath(args.baseline), os.path.abspath(args.contender))]
        history, note = noise_history(cont, history)
        notes += [note] if note else []
        model = None if args.no_expected else fleet_model.model_or_committed(cont.context.get("gpu_name"), args.expected)
        if model is not None:
            notes.append(f"note: {model.describe()}: no band is narrower than the spread that applies to the pair")
    except InputError as e:
        print(f"compare.py: error: {e}", file=sys.stderr)
        return 2
    if args.features:
        keep = {f.strip() for f in args.features.split(",") if f.strip()}
        for r in [base, cont] + history:
            r.values = {n: v for n, v in r.values.items() if feature_of(n) in keep}
            r.errors = {n for n in r.errors if feature_of(n) in keep}
            r.skips = {n for n in r.skips if feature_of(n) in keep}
    rows, features = compare(base, cont, history, args.alpha, args.floor, model)
    if not rows:
        print(f"compare.py: error: nothing compared: no benchmark with a declared metric in both {args.baseline} and "
              f"{args.contender}" + (f" (features {args.features})" if args.features else ""), file=sys.stderr)
        return 2
    # What the history left out goes to stderr: the report itself is the pair's.
    for n in notes:
        if n.startswith("history: skipped"):
            print(n, file=sys.stderr)
    out = warnings(base, cont) + [n for n in notes if not n.startswith("history: skipped")]
    out += summary(base, cont, rows, features, len(history), args.top, args.markdown)
    if args.table:
        try:
            write_table(args.table, rows)
        except OSError as e:
            print(f"compare.py: error: cannot write {args.table}: {e.strerror}", file=sys.stderr)
            return 2
        out.append(f"Full table: {args.table}")
    print("\n".join(out))
    return 1 if verdict(features) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks the regression tools against planted slowdowns, one feature at a time.

Usage: planted_regressions.py --binary PATH --out DIR [--pct 3] [--baselines 3]
                              [--features A,B,...] [-- EXTRA_ARCHBENCH_ARGS...]

1. Runs the suite (`--isolate`, plus EXTRA, e.g. `--quick`) --baselines times without a fault:
   the last is the baseline, the earlier ones its history (their noise).
2. For each feature F, runs it again with ARCHBENCH_FAULT=slow:F:PCT (fixtures/harness/primary_metrics.hpp:
   every measured primary metric of F reported PCT % worse).
3. Compares each planted run with the baseline (scripts/compare.py, with the history) and prints
   which features compare flagged. A planted feature must be flagged, and no other.
   With --emulate-from, the other features of a planted run are RUN's own, unchanged: a flag there
   is the A/A's (RUN against the baseline, printed below the table), not the plant's. A row then
   passes when its feature is flagged and every other feature is flagged exactly as in the A/A.

With --from-existing the runs already in DIR are compared again without measuring. With
--emulate-from RUN.json, no GPU is needed: each planted run is RUN with the feature's measured
primary metrics scaled as the hook scales them in the wrapper (a cost x (1 + PCT/100), a rate
/ (1 + PCT/100), inferred values unchanged), against the baselines already in DIR: the same
test on two real full runs, which a GPU session may not have time to plant one feature at a time.
Exit codes: 0 every planted feature flagged alone, 1 otherwise, 2 error.
"""
import argparse
import json
import os
import subprocess
import sys
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import passthrough  # noqa: E402
from archbench_tools.tables import features  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402

# The features a planted slowdown can be asked of: every one that measures, in the default run
# or run apart (P2P); Energy runs on request and keeps its own history (benchmarks/features.json).
FEATURES = [f for f in features.measured() if f not in features.on_request()]


def run_suite(binary, out, extra, fault=None):
    env = dict(os.environ)
    env.pop("ARCHBENCH_FAULT", None)
    if fault:
        env["ARCHBENCH_FAULT"] = fault
    cmd = [binary, "--isolate", f"--benchmark_out={out}", "--benchmark_out_format=json", *extra]
    print(f"planted_regressions.py: {'ARCHBENCH_FAULT=' + fault + ' ' if fault else ''}{' '.join(cmd)}", file=sys.stderr, flush=True)
    with open(out + ".log", "w") as log:
        return subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT).returncode


def emulate_fault(source, feature, pct, out):
    """Writes `source` with `feature`'s measured primary metrics pct % worse, as
    ARCHBENCH_FAULT=slow:<feature>:<pct> reports them (fixtures/harness/primary_metrics.cpp)."""
    doc = resultfile.load(source)
    factor = 1 + pct / 100
    for b in doc["benchmarks"]:
        if not isinstance(b, dict) or compare.feature_of(str(b.get("name", ""))) != feature:
            continue
        declared = resultfile.declared(b)[0]
        for counter, how, _ in declared or resultfile.legacy_primary(b["name"]):
            if how in ("lower", "higher") and isinstance(b.get(counter), (int, float)):
                b[counter] = b[counter] * factor if how == "lower" else b[counter] / factor
    doc.setdefault("context", {})["archbench_fault"] = (
        f"slow:{feature}:{pct:g} (emulated on {os.path.basename(source)}: the wrapper's scaling applied to its JSON)")
    with open(out, "w") as fh:
        json.dump(doc, fh)


def flagged_features(baseline, contender, history, expected=None, use_model=True):
    """The features compare flags, judged as compare.py's command line judges them: with the
    contender GPU's fleet model (`expected`, else the committed one) unless use_model is False."""
    base, cont = compare.load(baseline), compare.load(contender)
    hist = [compare.load(h) for h in history]
    model = fleet_model.model_or_committed(cont.context.get("gpu_name"), expected) if use_model else None
    rows, features = compare.compare(base, cont, hist, model=model)
    flagged = {feat: ", ".join(why) for feat, f in features.items()
               if (why := compare.feature_reasons(f, improvements=True))}
    return flagged, features


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    argv, extra = passthrough.split(argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary")
    ap.add_argument("--out", required=True)
    ap.add_argument("--pct", type=float, default=3.0)
    ap.add_argument("--baselines", type=int, default=3)
    ap.add_argument("--features", default=",".join(FEATURES))
    ap.add_argument("--from-existing", action="store_true", help="compare the runs already in --out")
    ap.add_argument("--emulate-from", metavar="RUN.json",
                    help="no GPU: plant each fault into a copy of this run (see above)")
    ap.add_argument("--expected", metavar="MODEL",
                    help="the fleet model compare judges by (default: the committed one of the GPU, as compare.py)")
    ap.add_argument("--no-expected", action="store_true", help="judge without a fleet model")
    args = ap.parse_args(argv)
    if not args.from_existing and not args.emulate_from and not args.binary:
        print("planted_regressions.py: error: --binary is required unless --from-existing or --emulate-from", file=sys.stderr)
        return 2
    if args.binary and not args.from_existing and not args.emulate_from and not (
            os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        print(f"planted_regressions.py: error: --binary {args.binary}: no such executable", file=sys.stderr)
        return 2
    resultfile.output_dir_or_exit(args.out, "planted_regressions.py")
    judge = (args.expected, not args.no_expected)
    baselines = [os.path.join(args.out, f"baseline-{i}.json") for i in range(args.baselines)]
    features = [f for f in args.features.split(",") if f]
    if args.emulate_from:
        try:
            for f in features:
                emulate_fault(args.emulate_from, f, args.pct, os.path.join(args.out, f"planted-{f}.json"))
        except (resultfile.ResultError, compare.InputError) as e:
            print(f"planted_regressions.py: error: {e}", file=sys.stderr)
            return 2
    elif not args.from_existing:
        for b in baselines:
            run_suite(args.binary, b, extra)
        for f in features:
            run_suite(args.binary, os.path.join(args.out, f"planted-{f}.json"), extra, f"slow:{f}:{args.pct:g}")
    try:
        present = {compare.feature_of(n) for n in compare.load(baselines[-1]).values}
    except compare.InputError as e:
        print(f"planted_regressions.py: error: {e}", file=sys.stderr)
        return 2
    aa_flags = {}
    if args.emulate_from:
        try:
            aa_flags, _ = flagged_features(baselines[-1], args.emulate_from, baselines[:-1], *judge)
        except compare.InputError as e:
            print(f"planted_regressions.py: error: {e}", file=sys.stderr)
            return 2
    lines = [f"# Planted regressions: {args.pct:g} % per feature", "",
             f"Baseline `{os.path.basename(baselines[-1])}`, history {len(baselines) - 1} run(s); compare.py defaults"
             + (", no fleet model." if args.no_expected else f", fleet model {args.expected or 'committed'}."), "",
             "| planted in | flagged by compare | result |", "|---|---|---|"]
    ok = True
    for f in features:
        path = os.path.join(args.out, f"planted-{f}.json")
        if f not in present:
            lines.append(f"| {f} | (the feature ran no benchmark here) | not tested |")
            continue
        try:
            flagged, _ = flagged_features(baselines[-1], path, baselines[:-1], *judge)
        except compare.InputError as e:
            lines.append(f"| {f} | error: {e} | FAIL |")
            ok = False
            continue
        # Another feature flagged as in the A/A is the A/A's noise, already reported below.
        others = {k: v for k, v in flagged.items() if k != f and aa_flags.get(k) != v}
        alone = f in flagged and not others
        ok &= alone
        what = "; ".join(f"{k}: {v}" for k, v in sorted(flagged.items()) if k == f or k in others) or "nothing"
        if any(k != f and k not in others for k in flagged):
            what += " (other features: as in the A/A)"
        lines.append(f"| {f} | {what} | {'ok' if alone else 'FAIL'} |")
    # The A/A of the baselines themselves: what compare flags between two healthy runs.
    if args.emulate_from:
        lines += ["", f"A/A ({os.path.basename(args.emulate_from)} against the baseline): "
                  + ("; ".join(f"{k}: {v}" for k, v in sorted(aa_flags.items())) or "nothing flagged")]
    elif len(baselines) >= 2:
        flagged, _ = flagged_features(baselines[-1], baselines[-2], baselines[:-2], *judge)
        lines += ["", f"A/A ({os.path.basename(baselines[-2])} against the baseline): "
                  + ("; ".join(f"{k}: {v}" for k, v in sorted(flagged.items())) or "nothing flagged")]
    report = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "planted.md"), "w") as fh:
        fh.write(report)
    print(report)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

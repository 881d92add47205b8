#!/usr/bin/env python3
"""Guard the suite's own numbers: after a change to measurement code, run the features it
affects on the GPU and compare them with the committed baseline of this GPU model.

    guard.py --binary build/release/archbench --baseline results/nvidia-h200/regression/<run>.json.gz
             [--base REV] [--features F,G] [--out DIR] [-- ARCHBENCH_ARGS...]
    guard.py --list [--base REV]                      which features the change affects (no GPU)

Affected: every feature whose method digest (scripts/method_digest.py: its kernels' code, the
harness's, the declared versions of benchmarks/methods.json) differs between REV (default: the
commit that wrote the baseline) and the working tree, and every feature whose registration file
(benchmarks/*.cpp) changed. Host files outside those (fixtures/) are listed: name their features
with --features. The output is compare.py's over those features: every change, the method
changes with their size among them. docs/regression.md: a change to measurement code is
committed with this output and a reason for every move.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys

from archbench_tools import paths
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.results import method_digest  # noqa: E402
from archbench_tools.compare import passthrough  # noqa: E402

ROOT = paths.root(required=False)  # main() requires it: the guard reads the checkout's tree
_FEATURE = re.compile(r"ARCHBENCH_FEATURE\((\w+),")


class GuardError(Exception):
    pass


def git(*args):
    try:
        r = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    except FileNotFoundError:
        raise GuardError("git is not installed (apt-get install git)")
    if r.returncode != 0:
        raise GuardError(f"git {' '.join(args)}: {r.stderr.strip() or 'failed'}")
    return r.stdout


def affected_features(base):
    """(features whose method or registration changed since `base`, host files changed outside them)."""
    tree = method_digest.read_tree(ROOT)
    old = method_digest.read_commit(base)
    if old("CMakeLists.txt") is None:
        raise GuardError(f"{base}: not a commit of this repository")
    methods = method_digest.load_methods(tree)
    if old(method_digest.METHODS_JSON) is not None:  # both sides have identifiers: all of it
        now = method_digest.feature_digests(methods, tree)
        then = method_digest.feature_digests(method_digest.load_methods(old), old)
    else:  # a base from before identifiers: its kernels' code under today's table, as the ledger
        now = method_digest.feature_digests(methods, tree, versions=False)
        then = (method_digest.ledger_entry(base) or {})
        then = {f: (d or "")[len("legacy-"):] for f, d in then.items()}
    features = {name for name in now if now[name] != then.get(name)}
    others = []
    for path in git("diff", "--name-only", base, "--", "benchmarks", "fixtures").split():
        m = _FEATURE.search(tree(path) or "")
        if path.startswith("benchmarks/") and m:
            features.add(m.group(1))
        elif path.startswith(("fixtures/", "benchmarks/shell/")):
            others.append(path)
    return sorted(features), others


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, extra = passthrough.split(argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", help="the archbench binary built from the working tree")
    ap.add_argument("--baseline", help="the committed baseline of this GPU model (results/<gpu>/regression/...)")
    ap.add_argument("--base", help="the commit the change is measured from (default: the baseline's)")
    ap.add_argument("--features", help="comma-separated features to run (default: the affected ones)")
    ap.add_argument("--out", default="guard-out", help="where the run and the comparison go (default guard-out/)")
    ap.add_argument("--list", action="store_true", help="only say which features the change affects")
    args = ap.parse_args(argv)
    paths.checkout()  # this tool works on a checkout's git tree: outside one, one line and exit 2
    try:
        base = args.base
        if not base:
            if not args.baseline:
                raise GuardError("give --base REV or --baseline FILE (its commit is the base)")
            base = str(compare.load(args.baseline, {}).context.get("archbench_git_sha", ""))
            if not base or base == "unknown":
                raise GuardError(f"{args.baseline}: no archbench_git_sha in its context: give --base REV")
        features, others = affected_features(base)
        if args.features:
            features = sorted({f.strip() for f in args.features.split(",") if f.strip()})
        print(f"guard.py: since {base}: affected features: {', '.join(features) or 'none'}")
        if others:
            print(f"guard.py: host files changed outside a registration file (name their features with --features): "
                  f"{', '.join(others)}")
        if args.list:
            return 0
        if not features:
            print("guard.py: nothing to run")
            return 0
        if not args.binary or not os.access(args.binary, os.X_OK):
            raise GuardError(f"--binary {args.binary}: not an executable archbench")
        if not args.baseline:
            raise GuardError("--baseline FILE is needed to compare")
        compare.load(args.baseline)  # a readable result, before minutes on the GPU
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            raise GuardError(f"--out {args.out}: {e.strerror}")
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S")
        run = os.path.join(args.out, f"guard-{stamp}.json")
        cmd = [args.binary, f"--benchmark_filter=^({'|'.join(features)})/", f"--benchmark_out={run}",
               "--benchmark_out_format=json", *extra]
        print("guard.py: " + " ".join(cmd), flush=True)
        code = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
        if not os.path.exists(run):
            raise GuardError(f"archbench exited {code} and wrote no result")
        report = os.path.join(args.out, f"guard-{stamp}-compare.txt")
        argv, env = paths.tool_command("compare.compare", args.baseline, run, "--features", ",".join(features),
                                       "--table", report[:-4] + ".csv")
        r = subprocess.run(argv, env=env, capture_output=True, text=True)
        with open(report, "w") as f:
            f.write(r.stdout + r.stderr)
        print(r.stdout + r.stderr, end="")
        print(f"guard.py: the comparison is in {report}; commit it with the change and a reason for every move")
        return r.returncode
    except (GuardError, method_digest.MethodError, compare.InputError) as e:
        print(f"guard.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

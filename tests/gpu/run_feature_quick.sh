#!/usr/bin/env bash
# Quick run of one feature through the real binary; its JSON must pass the schema check, and the
# feature's own check when one is given (a script and its arguments, run on the JSON: Energy's
# orderings). Exit 77 (skipped) when no GPU is visible, or when every benchmark of the feature was
# skipped as unsupported on this machine (P2P with one GPU): that is a skip, not a pass.
# Usage: run_feature_quick.sh BIN FEATURE VALIDATOR PYTHON [CHECK_SCRIPT [CHECK_ARG...]]
set -u
bin=$1 feature=$2 validator=$3 python=${4:-python3}
shift 4 2>/dev/null || shift $#
check=("$@")
out=$(mktemp -d)/"$feature".json
# No GPU is asked about only when the run fails (--info costs a CUDA start-up, 0.4 s on an H200,
# in every one of ctest -L gpu's runs).
if ! "$bin" --quick --benchmark_filter="^$feature/" --benchmark_out="$out" --benchmark_out_format=json; then
  "$bin" --info >/dev/null 2>&1 || { echo "no GPU visible: skipped"; exit 77; }
  exit 1
fi
"$python" "$validator" --require-feature "$feature" --no-errors "$out" || exit 1
# 77 (skip) only when every benchmark says it is unsupported; any other failure of the check
# itself (a traceback exits 1) fails the test.
"$python" - "$out" "$(dirname "$0")/../../scripts" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
import resultfile  # the one rule that tells a skip from an error
benches = json.load(open(sys.argv[1]))["benchmarks"]
reasons = sorted({resultfile.skip_reason(b) or "" for b in benches})
if benches and all(resultfile.skip_reason(b) is not None for b in benches):
    print("every benchmark is unsupported here, skipped:", "; ".join(reasons))
    sys.exit(77)
PY
rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
if [ "${#check[@]}" -gt 0 ]; then
  "$python" "${check[@]}" "$out" || exit 1
fi

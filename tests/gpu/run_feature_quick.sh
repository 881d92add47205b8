#!/usr/bin/env bash
# Quick run of one feature through the real binary; its JSON must pass the schema check.
# Exit 77 (skipped) when no GPU is visible.
set -u
bin=$1 feature=$2 validator=$3 python=${4:-python3}
if ! "$bin" --info >/dev/null 2>&1; then
  echo "no GPU visible: skipped"; exit 77
fi
out=$(mktemp -d)/"$feature".json
"$bin" --quick --benchmark_filter="^$feature/" --benchmark_out="$out" --benchmark_out_format=json || exit 1
"$python" "$validator" --require-feature "$feature" --no-errors "$out"

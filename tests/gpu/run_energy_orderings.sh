#!/usr/bin/env bash
# Energy's orderings on this GPU: a quick run of the benchmarks they need through the real binary,
# its JSON validated, then scripts/energy_table.py --check-orderings. Exit 77 without a GPU.
set -u
bin=$1 validator=$2 table=$3 python=${4:-python3}
if ! "$bin" --info >/dev/null 2>&1; then
  echo "no GPU visible: skipped"; exit 77
fi
out=$(mktemp -d)/energy.json
"$bin" --quick --benchmark_filter='^Energy/(op/(ffma|dfma)/|mma_sync/|wgmma/|bytes/(L1|L2|DRAM)/read)' \
  --benchmark_out="$out" --benchmark_out_format=json || exit 1
"$python" "$validator" --require-feature Energy --no-errors "$out" || exit 1
"$python" "$table" --check-orderings "$out"

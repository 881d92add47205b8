#!/usr/bin/env bash
# A quick run with --counters through the real binary (the features that replay their kernels):
# its JSON passes the schema check and scripts/check_counters.py (every Bandwidth disagreement
# classed, DRAM bytes within 2 %, the bank model, the partition crossings). Exit 77 (skipped)
# when no GPU is visible, or when the profiler is not allowed here (the reason is printed).
# MemLatency is left out: check_counters.py checks none of its rows, its replay was 34 of the
# test's 92 s on an H200, and gpu_counters holds its chains' served levels. So is Pipeline's DPX
# table (11 of 63 s): check_counters.py checks no Pipeline row, gpu_suite_pipeline runs the table.
# Pipeline's throughput runs one shape per op (ILP 8, one SM): check_counters.py prints each op's
# instructions per step and checks none (a shape adds at most its loop's few instructions); the
# four quick shapes per op were 9 of the run's 43 s.
set -u
bin=$1 validator=$2 checker=$3 python=${4:-python3}
out=$(mktemp -d)/counters.json
if ! "$bin" --quick --counters \
  --benchmark_filter='^(Bandwidth|SmemBanks|Atomics|Pipeline/latency|Pipeline/throughput/[^/]+/ilp:8/warps_per_sm:32/sms:1)/' \
  --benchmark_out="$out" --benchmark_out_format=json >/dev/null; then
  "$bin" --info >/dev/null 2>&1 || { echo "no GPU visible: skipped"; exit 77; }  # asked only on failure
  exit 1
fi
"$python" "$validator" --no-errors "$out" || exit 1
status=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"].get("archbench_counters",""))' "$out")
case "$status" in
  unavailable:*) echo "counters $status: skipped"; exit 77 ;;
esac
"$python" "$checker" "$out"

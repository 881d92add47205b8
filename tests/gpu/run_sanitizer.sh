#!/usr/bin/env bash
# Usage: run_sanitizer.sh BINARY [COMPUTE_SANITIZER] [light|full]
# A small run under compute-sanitizer: memcheck, and racecheck for shared-memory kernels.
# light (ctest -L gpu, the default): one benchmark of each kernel source at its smallest size;
#   racecheck on the distributed-shared-memory kernel only. Timed alone on an H200: each memcheck
#   filter 2.3-3.5 s, racecheck of Dsm 13 s, of SmemBanks' latency chain more than 100 s (its
#   calibrated chain of shared loads, every one tracked): that one is in the full pass only.
# full (ctest -L sanitizer_full): every feature, global-memory footprints of megabytes included.
# Exit 77 (skipped) without a GPU or without compute-sanitizer.
# (Filters match the start of a name: Google Benchmark appends /iterations:N/manual_time.)
# Each tool runs once over all its filters (one process: the start-up's reference-SM probe and
# board fingerprint, slow under the sanitizer, once per tool instead of once per filter).
set -u
bin=$1 sanitizer=${2:-} mode=${3:-light}
case "$mode" in light|full) ;; *) echo "run_sanitizer.sh: mode must be light or full, not '$mode'" >&2; exit 2;; esac
[ -n "$sanitizer" ] && [ -x "$sanitizer" ] || sanitizer=$(command -v compute-sanitizer || true)
if ! "$bin" --info >/dev/null 2>&1; then echo "no GPU visible: skipped"; exit 77; fi
if [ -z "$sanitizer" ]; then echo "compute-sanitizer not found: skipped"; exit 77; fi
failures=0
memcheck=() racecheck=()
run() {  # run <tool> <filter>: collected, run by run_tool
  if [ "$1" = memcheck ]; then memcheck+=("$2"); else racecheck+=("$2"); fi
}
run_tool() {  # run_tool <tool> <filter>...
  local tool=$1 log regex; shift
  regex="^($(IFS='|'; echo "${*#^}"))"
  log=$(mktemp)
  if "$sanitizer" --tool "$tool" --error-exitcode 99 "$bin" --quick --watchdog=0 --benchmark_filter="$regex" \
       >"$log" 2>&1; then
    echo "ok: $tool over $# filters ($(grep -c 'iterations:' "$log") benchmarks, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1))"
  else
    echo "FAIL: $tool over $regex"; tail -30 "$log"; failures=$((failures + 1))
  fi
}
if [ "$mode" = light ]; then
  run memcheck '^MemLatency/chain/ld.ca/footprint:1024/'
  run memcheck '^Pipeline/latency/ffma/'
  run memcheck '^Bandwidth/smem/ld.shared/width:16/'
  run memcheck '^Atomics/(global/atom.add.u32/gpu|shared/atom.add.u32/cta)/contention:distinct/'
  run memcheck '^SmemBanks/latency/width:4/stride:1/'
  run memcheck '^Dsm/latency/cluster:2/'
  run memcheck '^TensorCore/wgmma/latency/f16/'
  run memcheck '^AsyncCopy/latency/(bulk|tensor)/L2/bytes:4096/'
  run racecheck '^Dsm/latency/cluster:2/'
  run_tool memcheck "${memcheck[@]}"
  run_tool racecheck "${racecheck[@]}"
  echo "$failures failed"
  [ "$failures" -eq 0 ]
  exit
fi
run memcheck '^MemLatency/(chain|fine)/ld.ca/footprint:1024/'
run memcheck '^Pipeline/latency/(ffma|hfma2|dfma)/'
run memcheck '^Pipeline/throughput/ffma/ilp:8/warps_per_sm:32/sms:1/'
run memcheck '^Bandwidth/(read/ld|write/st|copy/ld\+st)/width:16/footprint:10'
run memcheck '^Bandwidth/smem/ld.shared/width:16/'
run memcheck '^Atomics/(global|shared)/(atom|red).add.u32/(gpu|cta)/contention:(all|distinct)/'
run memcheck '^Atomics/latency/(global|shared)/atom.add.u32/'
run memcheck '^SmemBanks/(latency|throughput)/width:(4|16)/stride:(1|32)/'
run memcheck '^Dsm/(latency|bandwidth)/cluster:2/'
run memcheck '^Tlb/latency/ld.(ca|cg)/mapping:(contiguous|scattered)/stride:2097152/footprint:(4194304|8388608)/'
run memcheck '^TensorCore/(mma_sync/latency/f16_m16n8k16_f32|wgmma/(latency|throughput)/f16/(ss/)?n:64/)'
run memcheck '^AsyncCopy/(load/(cp_async_cg|bulk|tensor|bulk_multicast)/L2|store/(bulk_store|tensor_store)/L2|latency/(bulk|tensor)/L2/bytes:4096/)'
# Energy's own kernels (the shared-memory stores, the rest); its other kernels are the features' above.
run memcheck '^Energy/(bytes/smem/write|rest/resident/warps_per_sm:32)'
# P2P needs a second GPU: the remote kernels on GPU 1's memory.
if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ]; then
  run memcheck '^P2P/(remote_read|remote_write|latency|atomics)/gpu:0/peer:1/'
fi
run racecheck '^Bandwidth/smem/ld.shared/width:16/'
run racecheck '^TensorCore/wgmma/throughput/f16/(ss|rs)/n:64/'
run racecheck '^SmemBanks/(latency|throughput)/width:4/stride:1/'
run racecheck '^Dsm/(latency/cluster:2|bandwidth/cluster:2/pattern:pairs)/'
run racecheck '^Atomics/shared/atom.add.u32/cta/contention:(all|distinct)/'
run racecheck '^Energy/bytes/smem/write'
run racecheck '^AsyncCopy/load/(ld_st/L2/width:16/unroll:1|cp_async_cg/L2/width:16/stages:8|bulk/L2/stage_bytes:4096/stages:2/pipelines:4)/'
run_tool memcheck "${memcheck[@]}"
run_tool racecheck "${racecheck[@]}"
echo "$failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# A Blackwell user's listing before a run (issue 70): the B200 and the RTX 5090 as described from
# published facts (results/reference/described/), listed without a GPU. Every benchmark built for
# Hopper alone (wgmma, the multicast load) is listed and named as skipped with its reason, and
# the count of those equals the count of such names; an H100's listing skips none of them.
set -u
bin=$1 dir=$2 h100=$3
failures=0
check() {  # check <profile> <expected hopper-only count regex> <reason words>
  local profile=$1 pattern=$2 reason=$3 names err rc n hopper said
  names=$("$bin" --gpu_profile="$profile" --benchmark_list_tests 2>/tmp/described.$$); rc=$?
  err=$(cat /tmp/described.$$); rm -f /tmp/described.$$
  n=$(printf '%s\n' "$names" | grep -c '^[A-Z][A-Za-z0-9]*/')
  hopper=$(printf '%s\n' "$names" | grep -cE "$pattern")
  said=$(printf '%s\n' "$err" | grep -F "$reason" | awk '{s += $1} END {print s + 0}')
  if [ "$rc" -ne 0 ] || [ "$n" -lt 5000 ] || [ "$hopper" -eq 0 ] || [ "$said" -ne "$hopper" ]; then
    echo "FAIL: $profile: exit $rc, $n listed, $hopper Hopper-only, $said named as skipped ('$reason')"
    printf '%s\n' "$err" | sed 's/^/  /'
    failures=$((failures + 1))
  else
    echo "ok: $(basename "$profile"): $n listed, the $hopper Hopper-only ones skipped with the reason"
  fi
}
check "$dir/nvidia-b200.json" '^(TensorCore/(wgmma|wgmma_sp|numerics/wgmma)/|Scheduling/sustained_clock/wgmma)' "wgmma is Hopper's (sm_90a"
check "$dir/nvidia-b200.json" '^AsyncCopy/load/bulk_multicast/' "the multicast load is built for sm_90a alone"
check "$dir/nvidia-geforce-rtx-5090.json" '^(TensorCore/(wgmma|wgmma_sp|numerics/wgmma)/|Scheduling/sustained_clock/wgmma)' "wgmma is Hopper's (sm_90a"
if "$bin" --gpu_profile="$h100" --benchmark_list_tests 2>&1 >/dev/null | grep -q "wgmma is Hopper's"; then
  echo "FAIL: an H100's listing skips wgmma"; failures=$((failures + 1))
else
  echo "ok: an H100's listing skips no wgmma benchmark"
fi
echo "$failures failed"
[ "$failures" -eq 0 ]

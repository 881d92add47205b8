#!/usr/bin/env bash
# Bad input gets exit code 2 and a one-line "archbench: error: ..." message, on any machine.
set -u
bin=$1
profile=${2:-}
failures=0
expect_2() {  # expect_2 <description> <args...>
  local what=$1; shift
  local err rc
  err=$("$bin" "$@" 2>&1 >/dev/null); rc=$?
  local lines; lines=$(printf '%s\n' "$err" | grep -c 'archbench: error:')
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ]; then
    echo "FAIL: $what: exit $rc, stderr: $err"; failures=$((failures + 1))
  else
    echo "ok: $what -> $(printf '%s' "$err" | grep 'archbench: error:')"
  fi
}
expect_2 "non-numeric --device" --device=abc
expect_2 "negative --device" --device=-1
expect_2 "non-numeric --watchdog" --watchdog=soon
expect_2 "--quick with --dense" --quick --dense
# Before any GPU call: a typo is named as such, and help and version need no GPU.
err=$("$bin" --no_such_flag 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s' "$err" | grep -q "unknown option '--no_such_flag'"; then
  echo "FAIL: unknown flag: exit $rc, stderr: $err"; failures=$((failures + 1))
else
  echo "ok: unknown flag -> $err"
fi
# A mistyped Google Benchmark flag is named too, not taken for one (and answered "no GPU").
err=$("$bin" --benchmark_bogus=1 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s' "$err" | grep -q "unknown option '--benchmark_bogus=1'"; then
  echo "FAIL: unknown Google Benchmark flag: exit $rc, stderr: $err"; failures=$((failures + 1))
else
  echo "ok: unknown Google Benchmark flag -> $err"
fi
for flag in --help --version --benchmark_help; do
  if ! "$bin" $flag >/dev/null 2>&1; then echo "FAIL: $flag does not exit 0"; failures=$((failures + 1)); else echo "ok: $flag exits 0"; fi
done

ARCHBENCH_DEVICE=x "$bin" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: ARCHBENCH_DEVICE=x"; failures=$((failures + 1)); }
expect_2 "out-of-range --device (or no GPU)" --device=999
if "$bin" --info >/dev/null 2>&1; then
  # A GPU is here: the GPU-only bad inputs.
  expect_2 "filter matching nothing" --benchmark_filter=NoSuchFeature
  expect_2 "unwritable output" --benchmark_filter=NoSuchFeature --benchmark_out=/proc/archbench/x.json
  expect_2 "unknown feature for a child" --archbench_feature=NoSuchFeature
  expect_2 "filter matching nothing, isolated" --isolate --benchmark_filter=NoSuchFeature
else
  expect_2 "no GPU" --benchmark_filter=MemLatency
  err=$("$bin" --benchmark_filter=MemLatency 2>&1 >/dev/null)
  case "$err" in
    *"no NVIDIA driver is installed"*|*"sees no device"*|*"older than this build"*|*"0 devices"*) echo "ok: the cause is named" ;;
    *) echo "FAIL: the no-GPU message names no cause: $err"; failures=$((failures + 1)) ;;
  esac
fi
# Listing without a GPU, for the GPU a committed run's context describes: the whole suite (an
# H100 SXM's registers about 8,800 benchmarks; the exact count moves with the sweeps), every
# feature of a one-GPU run present.
if [ -n "$profile" ]; then
  names=$("$bin" --gpu_profile="$profile" --benchmark_list_tests 2>/dev/null); rc=$?
  n=$(printf '%s\n' "$names" | grep -c '^[A-Z][A-Za-z0-9]*/')
  missing=""
  for f in MemLatency Pipeline Bandwidth Atomics SmemBanks Dsm Tlb Scheduling TensorCore Geometry Launch HostLink L2Persist; do
    printf '%s\n' "$names" | grep -q "^$f/" || missing="$missing $f"
  done
  if [ "$rc" -ne 0 ] || [ "$n" -lt 5000 ] || [ -n "$missing" ] || ! printf '%s\n' "$names" | grep -q '^MemLatency/chain/ld.cg/'; then
    [ -n "$missing" ] && echo "  features with no benchmark:$missing"
    echo "FAIL: --gpu_profile listing: exit $rc, $n names"; failures=$((failures + 1))
  else
    echo "ok: --gpu_profile lists $n benchmarks without a GPU"
  fi
  # No Bandwidth point inside the L2's transition (0.8x to 1.1x of the H100's 50 MiB in bytes
  # touched; a copy touches two arrays, and its transition begins at 0.7x).
  inside=$(printf '%s\n' "$names" | awk -F'/footprint:' -v l2=52428800 '/^Bandwidth\/(read|write|rmw|copy)\// {
      copy = $1 ~ /^Bandwidth\/copy\//; split($2, t, "/"); b = t[1] * (copy ? 2 : 1)
      if (b > (copy ? 0.7 : 0.8) * l2 && b < 1.1 * l2) print $0 }' | head -3)
  if [ -n "$inside" ]; then echo "FAIL: Bandwidth points inside the L2's transition: $inside"; failures=$((failures + 1)); \
  else echo "ok: no Bandwidth point inside the L2's transition"; fi
  n=$("$bin" --gpu_profile="$profile" --benchmark_list_tests --quick --benchmark_filter=Tlb 2>/dev/null | grep -c '^Tlb/')
  [ "$n" -gt 0 ] || { echo "FAIL: --gpu_profile with --quick and a filter listed $n"; failures=$((failures + 1)); }
  expect_2 "--gpu_profile without --benchmark_list_tests" --gpu_profile="$profile"
  expect_2 "--gpu_profile of a missing file" --gpu_profile=/no/such/run.json --benchmark_list_tests
fi
echo "$failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# The first hour: scripts/setup.sh answers a bad option in one line with exit 2, and a configure
# that lacks a library stops at once naming the package to install (no download retries).
# Usage: check_setup.sh SOURCE_DIR CMAKE
set -u
src=$1 cmake=$2
fail=0
out=$("$src/scripts/setup.sh" --bogus 2>&1); rc=$?
if [ $rc -ne 2 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then echo "FAIL: setup.sh --bogus: exit $rc, $out"; fail=1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
out=$("$cmake" -S "$src" -B "$tmp/b" -DCMAKE_CUDA_ARCHITECTURES=90 -DARCHBENCH_BUILD_TESTS=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON 2>&1); rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ] || ! printf '%s' "$out" | tr '\n' ' ' | grep -q "apt-get install libbenchmark-dev"; then
  echo "FAIL: configure without Google Benchmark: exit $rc, no package named:"; printf '%s\n' "$out" | tail -5; fail=1
fi
if [ $took -gt 120 ]; then echo "FAIL: configure without Google Benchmark took ${took} s"; fail=1; fi
[ $fail -eq 0 ] && echo ok
exit $fail

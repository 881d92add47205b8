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
# A CMake on PATH from 3.24 on counts, wherever it came from (pip, a vendor tarball); an older one,
# or none, is missing. dpkg-query is faked to know no package at all.
mkdir -p "$tmp/bin-new" "$tmp/bin-old"
printf '#!/bin/sh\nexit 1\n' > "$tmp/bin-new/dpkg-query"; cp "$tmp/bin-new/dpkg-query" "$tmp/bin-old/dpkg-query"
printf '#!/bin/sh\necho "cmake version 3.28.1"\n' > "$tmp/bin-new/cmake"
printf '#!/bin/sh\necho "cmake version 3.22.1"\n' > "$tmp/bin-old/cmake"
chmod +x "$tmp"/bin-*/*
for case in new old; do
  out=$(PATH="$tmp/bin-$case:$PATH" "$src/scripts/setup.sh" --missing 2>&1); rc=$?
  has=0; printf '%s\n' "$out" | tr ' ' '\n' | grep -qx cmake && has=1
  if [ $rc -ne 0 ] || { [ $case = new ] && [ $has = 1 ]; } || { [ $case = old ] && [ $has = 0 ]; }; then
    echo "FAIL: setup.sh --missing with a CMake $case on PATH: exit $rc, '$out'"; fail=1
  fi
done
# A failed pip install names its cause where pip's last line hides it (behind a proxy that
# intercepts TLS: "No matching distribution found" after the certificate errors).
printf '%s\n' "WARNING: Retrying after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed'))'" \
  "ERROR: No matching distribution found for nvidia-cuda-cuobjdump" > "$tmp/setup.log"
why=$(log="$tmp/setup.log"; eval "$(sed -n '/^cause() {/,/^}/p' "$src/scripts/setup.sh")"; cause)
case "$why" in *"certificate verify failed"*"PIP_CERT"*) ;; *) echo "FAIL: setup.sh's cause of a TLS failure: '$why'"; fail=1 ;; esac
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

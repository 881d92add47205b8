#!/usr/bin/env bash
# The build's wgmma launcher (cmake/check_wgmma_serialization.sh) must fail a compile in which
# ptxas serializes wgmma, and name C7510/C7519. Usage: wgmma_serialization_check.sh LAUNCHER NVCC SOURCE
set -u
launcher=$1 nvcc=$2 source=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if bash "$launcher" "$nvcc" -std=c++17 -gencode arch=compute_90a,code=sm_90a -Xptxas=-v -c "$source" \
     -o "$out/bad.o" 2>"$out/log"; then
  echo "FAIL: the launcher accepted a serialized wgmma"; cat "$out/log"; exit 1
fi
if ! grep -q -E "C75(10|19)" "$out/log"; then
  echo "FAIL: the compile failed without naming C7510/C7519:"; cat "$out/log"; exit 1
fi
echo "ok: a serialized wgmma fails the build:"; grep -E "C75(10|19)|error" "$out/log" | head -3

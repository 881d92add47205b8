#!/usr/bin/env bash
# Compiler launcher for the wgmma kernels (kernels/wgmma.cu, compiled with ptxas -v): fails the
# build when ptxas reports C7510 (wgmma serialized) or C7519 (warpgroup.arrive injected), which
# silently cut wgmma throughput several-fold. ptxas's per-kernel resource lines are dropped.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>"$log"
rc=$?
grep -v -E "ptxas info +: (Used|Compiling|Function properties|Compile time|[0-9]+ bytes gmem)|bytes stack frame" "$log" >&2
if grep -q -E "C75(10|19)" "$log"; then
  echo "error: ptxas serialized wgmma (C7510/C7519 above); archbench treats this as a build error" >&2
  exit 1
fi
exit $rc

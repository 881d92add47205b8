#!/usr/bin/env bash
# Compiles the device code of every kernel file the suite builds for all architectures (not the
# sm_90a-only ones) for one architecture: the default build without a visible GPU targets
# 75;80;89;90, and CI builds sm_90 alone, so an instruction guarded for the wrong architecture
# (mbarrier.try_wait is sm_90, not sm_80) would otherwise first fail on a user's machine.
# Usage: compile_for_arch.sh NVCC ARCH INCLUDE_DIR... -- FILE...
set -u
nvcc=$1 arch=$2; shift 2
includes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do includes+=("-I$1"); shift; done
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The files in parallel, one nvcc per core: each compile is single-threaded.
export nvcc arch out
printf '%s\n' "${includes[@]}" > "$out/includes"
compile_one() {
  local f=$1 tag
  tag=$(printf '%s' "$f" | tr '/.' '__')
  mapfile -t inc < "$out/includes"
  # Unoptimised (-O0 in both cicc and ptxas): the test asks what the architecture accepts, and
  # ptxas still checks every instruction against it; optimised, pipeline.cu alone took 22 of a
  # compile's 2-3 minutes on a 2-core machine (2.7 s at -O0).
  if ! "$nvcc" -std=c++17 -cubin -arch="sm_$arch" -Xcicc -O0 -Xptxas -O0 "${inc[@]}" -o "$out/$tag.cubin" "$f" >"$out/$tag.log" 2>&1; then
    echo "FAIL: $f for sm_$arch"; cat "$out/$tag.log"; return 1
  fi
}
export -f compile_one
failures=$(printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} bash -c 'compile_one "$1" || echo FAILED' _ {} | tee "$out/all" | grep -c '^FAILED$')
grep -v '^FAILED$' "$out/all"
echo "$# kernel files for sm_$arch, $failures failed"
[ "$failures" -eq 0 ]

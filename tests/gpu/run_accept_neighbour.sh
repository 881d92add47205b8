#!/usr/bin/env bash
# accept.py beside a noisy neighbour: the short acceptance run alone must read healthy (exit 0);
# the same run while a second process (noisy_neighbour, started and stopped here) streams DRAM must
# read NOT HEALTHY (exit 1) with the memory group named. Exit 77 (skipped) without a GPU.
set -u
bin=$1 neighbour=$2 accept=$3 python=${4:-python3}
if ! "$bin" --info >/dev/null 2>&1; then
  echo "no GPU visible: skipped"; exit 77
fi
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
filter=$("$python" "$accept" --print-filter --binary "$bin") || exit 1
run() {  # the short acceptance run into $tmp/$1.json, its verdict into $tmp/$1.txt; prints accept's exit
  "$bin" --benchmark_filter="$filter" --benchmark_out="$tmp/$1.json" --benchmark_out_format=json >/dev/null 2>"$tmp/$1.err" \
    || { echo "archbench failed:" >&2; tail -5 "$tmp/$1.err" >&2; echo 2; return; }
  "$python" "$accept" "$tmp/$1.json" >"$tmp/$1.txt" 2>&1
  echo $?
}
alone=$(run alone)
grep -E "^(Verdict|[0-9]+ passed)" "$tmp/alone.txt"
if [ "$alone" != 0 ]; then
  echo "FAIL: alone the board reads not healthy (exit $alone), so a neighbour cannot be told from it:"
  grep -E "FAIL|Verdict" "$tmp/alone.txt"; exit 1
fi
"$neighbour" 600 "$tmp/ready" & pid=$!
for _ in $(seq 1 300); do [ -e "$tmp/ready" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
[ -e "$tmp/ready" ] || { echo "FAIL: the neighbour did not start"; exit 1; }
beside=$(run beside)
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""
grep -E "FAIL|^Verdict" "$tmp/beside.txt"
if [ "$beside" != 1 ] || ! grep -q "^Verdict: NOT HEALTHY: .*memory" "$tmp/beside.txt"; then
  echo "FAIL: beside a DRAM-streaming neighbour accept.py read exit $beside, not NOT HEALTHY with memory named"; exit 1
fi
echo "ok: healthy alone, NOT HEALTHY (memory) beside the neighbour"

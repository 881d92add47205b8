#!/usr/bin/env bash
# tests/gpu/run_feature_quick.sh without a GPU, on a stand-in binary: a feature whose every
# benchmark is unsupported (Google Benchmark 1.7's 'unsupported:' error or 1.8's skip) is a skip (77), a good run a pass (0), and a result the script's own
# check cannot read a failure (1), never a skip.
set -u
script=$1 python=${2:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/bin" <<'SH'
#!/usr/bin/env bash
for a in "$@"; do case $a in --info) exit 0;; --benchmark_out=*) out=${a#--benchmark_out=};; esac; done
case $MODE in
  unsupported) echo '{"context":{},"benchmarks":[{"name":"X/a","error_occurred":true,"error_message":"unsupported: none"}]}' > "$out";;
  skipped) echo '{"context":{},"benchmarks":[{"name":"X/a","skipped":true,"skip_message":"none"}]}' > "$out";;
  ok) echo '{"context":{},"benchmarks":[{"name":"X/a"}]}' > "$out";;
  unreadable) echo '{"context":{}}' > "$out";;
esac
SH
chmod +x "$dir/bin"
echo "import sys; sys.exit(0)" > "$dir/validator.py"
failures=0
for case in "unsupported 77" "skipped 77" "ok 0" "unreadable 1"; do
  set -- $case
  MODE=$1 bash "$script" "$dir/bin" X "$dir/validator.py" "$python" >/dev/null 2>&1
  rc=$?
  if [ "$rc" -eq "$2" ]; then echo "ok: $1 -> $rc"; else echo "FAIL: $1 -> $rc, expected $2"; failures=$((failures + 1)); fi
done
[ "$failures" -eq 0 ]

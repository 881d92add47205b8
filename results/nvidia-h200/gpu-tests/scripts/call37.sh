#!/bin/bash
# Issue 65 (ctest -L gpu in 300 s): where the time of the biggest GPU tests goes. Profiling only.
S=$1; O=$OUT/r; mkdir -p $O
nvidia-smi -q | grep -i "part number\|GPU UUID" > $O/smi.txt 2>&1; cat $O/smi.txt
T0=$(date +%s)
cmake --preset tests -DARCHBENCH_GIT_SHA=$S > $O/build.log 2>&1 && cmake --build --preset tests -j16 >> $O/build.log 2>&1 || { grep -E "error" $O/build.log | head; cd $OUT && tar czf call37.tgz r; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
B=./build/tests/archbench
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N | cut -c1-14)" "$l"; done; }
t() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( ($(date +%s%N) - s) / 1000000 )) ms: $*"; }
t $B --info
t $B --info
t $B --quick --benchmark_filter='^NoSuchFeature/' --benchmark_out=$O/empty.json
t $B --quick --benchmark_filter='^Launch/' --benchmark_out=$O/launch.json
t python3 scripts/validate_results.py --no-errors $O/launch.json
t ./build/tests/tests/archbench_gpu_tests --gtest_filter='Harness*'
(echo start; stdbuf -oL $B --quick --benchmark_filter='^Energy/' --benchmark_out=$O/energy.json 2>&1; echo end) | stamp > $O/energy-stamped.txt
awk 'NR==1{p=$1} {printf "%6.2f %s\n", $1-p, substr($0, index($0,$2)); p=$1}' $O/energy-stamped.txt | grep -E "Energy/|end" | cut -c1-110
./build/tests/tests/archbench_gpu_tests --gtest_filter='Geometry*' 2>&1 | grep -E "OK \]|FAILED" > $O/geometry-gtest.txt; cat $O/geometry-gtest.txt
(echo start; bash -x tests/gpu/run_fault_injection.sh $B scripts/validate_results.py python3 2>&1; echo end) | stamp > $O/fault-stamped.txt
grep -E "exit|failed|archbench" $O/fault-stamped.txt | cut -c1-160 | head -12
(echo start; stdbuf -oL $B --quick --counters --benchmark_filter='^(Bandwidth|SmemBanks|Atomics|Pipeline/(latency|throughput))/' --benchmark_out=$O/counters.json 2>&1; echo end) | stamp > $O/counters-stamped.txt
python3 - $O/counters-stamped.txt <<'PY'
import sys, collections
lines = [l.split(' ', 1) for l in open(sys.argv[1])]
t = collections.Counter(); n = collections.Counter(); prev = float(lines[0][0])
for ts, rest in lines[1:]:
    ts = float(ts); name = rest.split()[0] if rest.split() else ''
    if '/' in name:
        key = '/'.join(name.split('/')[:2]); t[key] += ts - prev; n[key] += 1
    prev = ts
print('counters run: %.1f s' % (float(lines[-1][0]) - float(lines[0][0])))
for k, v in t.most_common(14): print('%7.1f s %4d  %s' % (v, n[k], k))
PY
echo "total $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf call37.tgz r && rm -rf r

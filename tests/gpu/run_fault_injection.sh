#!/usr/bin/env bash
# Faults injected into a real run under --isolate: a trapping kernel (a sticky CUDA error) and a
# kernel that never returns (the watchdog ends its child). Both cost their feature only: the
# other feature's results are all in the JSON, which stays valid. Exit 77 without a GPU.
# The other feature is Launch (16 benchmarks, under a second on an H200; Pipeline/latency, used
# before, took 8 s of each run), and the watchdog 5 s: every benchmark of both features, and a
# child's start-up, finish in well under that, so only the hung kernel meets it. Then the trap once
# more in a run of its own, for the health watch's XID events.
set -u
bin=$1 validator=$2 python=${3:-python3}
if ! "$bin" --info >/dev/null 2>&1; then
  echo "no GPU visible: skipped"; exit 77
fi
dir=$(mktemp -d)
failures=0
for fault in trap hang; do
  out=$dir/$fault.json
  start=$(date +%s)
  ARCHBENCH_FAULT=$fault "$bin" --isolate --quick --watchdog=5 --benchmark_filter='^(Fault|Launch)/' \
    --benchmark_out="$out" --benchmark_out_format=json >/dev/null 2>"$dir/$fault.err"
  rc=$? took=$(( $(date +%s) - start ))
  "$python" - "$out" "$fault" "$rc" "$took" "$(dirname "$validator")" <<'PY' || failures=$((failures + 1))
import json, sys
path, fault, rc, took = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
import resultfile  # the one rule that tells a skip from an error
doc = json.load(open(path))
b = doc["benchmarks"]
other = [x for x in b if x["name"].startswith("Launch/")]
fine = [x for x in other if not resultfile.failed(x)]  # measured, or skipped where the GPU lacks the path
print(f"{fault}: exit {rc} after {took} s; Launch {len(fine)}/{len(other)} fine; fault entries:")
for x in b:
    if x["name"].startswith("Fault/") and x.get("error_occurred"):
        print("   ", x["name"], "->", x["error_message"][:160])
faults = [x for x in b if x["name"].startswith("Fault/") and x.get("error_occurred")]
assert len(other) >= 10 and len(fine) == len(other), "the other feature's results must all be there"
assert faults, "the fault must be recorded as an error"
if fault == "hang":
    assert rc == 1 and any("watchdog" in x["error_message"] for x in faults), "the watchdog must end the hung child"
    assert took < 120, "the hang must be cut off"
else:
    assert any(x["name"].startswith("Fault/after_trap") for x in faults), "the sticky error fails the rest of the feature"
PY
done
# The health watch names the trap's XID (a program's: NVIDIA's catalogue lists 13 and 43 for a
# kernel's trap) in a run that writes its result file itself; where NVML lends no event API it
# says so instead. On an H100 (driver 580.159.04) the trap gave XID 43.
ARCHBENCH_FAULT=trap "$bin" --benchmark_filter='^Fault/' --results_dir="$dir/health" >/dev/null 2>"$dir/health.err"
"$python" - "$dir/health" <<'PY' || failures=$((failures + 1))
import glob, json, sys
doc = json.load(open(glob.glob(sys.argv[1] + "/*/*.json")[0]))
xid = doc["context"]["archbench_health"]["xid"]
print("health watch after a trap:", xid)
assert "not_available" in xid or set(xid["events"]) & {13, 31, 43}, "the trap's XID must be named"
PY
"$python" "$validator" "$dir/trap.json" "$dir/hang.json" || failures=$((failures + 1))
echo "$failures failed"
[ "$failures" -eq 0 ]

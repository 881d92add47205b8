#!/usr/bin/env bash
# The integrity screen on a real GPU, twice (--quick: 4 s each): clean, every screen finds nothing
# and covers every SM, and accept.py's verdict is healthy; then with bit flips planted
# (ARCHBENCH_INTEGRITY_PLANT) in one SM's FFMA and mma results and in one DRAM word, the screen
# names exactly that SM, lane, result and byte, and accept.py says NOT HEALTHY. Exit 77 without a GPU.
# usage: run_integrity_plant.sh ARCHBENCH ACCEPT_PY [PYTHON]
set -u
bin=$1 accept=$2 python=${3:-python3}
if ! "$bin" --info >/dev/null 2>&1; then
  echo "no GPU visible: skipped"; exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sm=${ARCHBENCH_TEST_PLANT_SM:-3} lane=7 byte=123456788
"$bin" --quick --benchmark_filter='^Integrity/' --benchmark_out="$dir/clean.json" --benchmark_out_format=json \
  >/dev/null 2>"$dir/clean.err" || { echo "FAIL: the clean screen exited $?"; tail -5 "$dir/clean.err"; exit 1; }
ARCHBENCH_INTEGRITY_PLANT="sm:$sm,lane:$lane,dram_byte:$byte" "$bin" --quick --benchmark_filter='^Integrity/' \
  --benchmark_out="$dir/planted.json" --benchmark_out_format=json >/dev/null 2>"$dir/planted.err" ||
  { echo "FAIL: the planted screen exited $?"; tail -5 "$dir/planted.err"; exit 1; }
"$python" "$accept" "$dir/clean.json" > "$dir/clean.txt"; clean_rc=$?
"$python" "$accept" "$dir/planted.json" > "$dir/planted.txt"; planted_rc=$?
cat "$dir/clean.txt"; echo; cat "$dir/planted.txt"
"$python" - "$dir" "$sm" "$lane" "$byte" "$clean_rc" "$planted_rc" <<'PY'
import json, sys
d, sm, lane, byte, clean_rc, planted_rc = sys.argv[1], *map(int, sys.argv[2:])
def screens(name):
    return {b["name"].split("/")[1]: b for b in json.load(open(f"{d}/{name}.json"))["benchmarks"]}
clean, planted = screens("clean"), screens("planted")
for s, b in clean.items():
    assert not b.get("error_occurred"), (s, b.get("error_message"))
    assert b["mismatches"] == 0 and b["mismatches_found"] == [], (s, b["mismatches_found"][:2])
    if s != "dram":
        assert b["sms_covered"] == b["sm_count"], (s, b["sms_covered"], b["sm_count"])
    rate = b.get("bytes_per_second") or b.get("checked_flop_per_second") or b["checked_bytes_per_second"]
    print(f"clean {s}: {b['screen_seconds']:.2f} s, {b['rounds']:.0f} rounds, rate {rate:.4g}"
          + (f", {b['pct_of_peak']:.1f} % of the DRAM peak" if "pct_of_peak" in b else ""))
for s in ("ffma", "mma"):
    found = planted[s]["mismatches_found"]
    assert found and all(m["sm"] == sm and m["lane"] == lane and m["warp"] == 0 for m in found), (s, found[:3])
    assert all(m["flipped_bits"] == "0x00000001" for m in found), (s, found[:3])
    assert all(m.get("result", 0) == lane * 8 for m in found) if s == "ffma" else \
        all((m["tile"], m["row"], m["column"]) == (0, lane // 4, (lane % 4) * 2) for m in found), (s, found[:3])
dram = planted["dram"]["mismatches_found"]
assert planted["dram"]["mismatches"] == 1 and dram[0]["byte"] == byte and dram[0]["flipped_bits"] == "0x00000001", dram
for s in ("smem", "l1"):
    assert planted[s]["mismatches"] == 0, (s, planted[s]["mismatches_found"][:2])
assert clean_rc == 0, f"accept.py on the clean screen: exit {clean_rc}"
assert planted_rc == 1, f"accept.py on the planted screen: exit {planted_rc}"
print(f"planted: SM {sm}, lane {lane} named in FFMA and mma; DRAM byte {byte} named")
PY

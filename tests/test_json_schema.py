#!/usr/bin/env python3
"""The schema validator accepts good archbench JSON and rejects each kind of broken file."""
import copy
import json
import os
import subprocess
import sys
import tempfile

validator, data_dir = sys.argv[1], sys.argv[2]
good = [os.path.join(data_dir, f) for f in sorted(os.listdir(data_dir)) if f.endswith(".json")]
failures = 0


def run(*args):
    return subprocess.run([sys.executable, validator, *args], capture_output=True, text=True)


def expect(ok, what, result):
    global failures
    if (result.returncode == 0) != ok:
        failures += 1
        print(f"FAIL: {what}: exit {result.returncode}\n{result.stdout}{result.stderr}")
    else:
        print(f"ok: {what}")


assert good, f"no fixture JSON in {data_dir}"
for g in good:
    expect(True, f"fixture {os.path.basename(g)} validates", run("--require-feature", "MemLatency", g))

doc = json.load(open(good[0]))
bench = next(b for b in doc["benchmarks"] if b["name"].startswith("MemLatency/fine/"))
breakages = {
    "missing context key": lambda d: d["context"].pop("gpu_l2_bytes"),
    "missing latency counter": lambda d: d["benchmarks"][0].pop("latency_cycles"),
    "missing fine counter": lambda d: next(b for b in d["benchmarks"] if b["name"] == bench["name"]).pop("timer_overhead_cycles"),
    "unknown feature": lambda d: d["benchmarks"].append(dict(d["benchmarks"][0], name="Bogus/x")),
    "non-finite counter": lambda d: d["benchmarks"][0].__setitem__("latency_ns", float("nan")),
    "no benchmarks list": lambda d: d.pop("benchmarks"),
}
with tempfile.TemporaryDirectory() as tmp:
    for what, breakit in breakages.items():
        d = copy.deepcopy(doc)
        breakit(d)
        p = os.path.join(tmp, "broken.json")
        with open(p, "w") as f:
            json.dump(d, f)
        expect(False, f"rejects {what}", run(p))
    errored = copy.deepcopy(doc)
    errored["benchmarks"][0] = {"name": errored["benchmarks"][0]["name"], "error_occurred": True,
                                "error_message": "cudaMalloc: out of memory"}
    p = os.path.join(tmp, "errored.json")
    json.dump(errored, open(p, "w"))
    expect(True, "an errored benchmark is allowed by default", run(p))
    expect(False, "an errored benchmark fails with --no-errors", run("--no-errors", p))
    p = os.path.join(tmp, "truncated.json")
    open(p, "w").write(open(good[0]).read()[:200])
    expect(False, "rejects truncated JSON", run(p))
    expect(False, "requires the named feature", run("--require-feature", "Bandwidth", good[0]))

print(f"{failures} failed")
sys.exit(1 if failures else 0)

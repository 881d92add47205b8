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
    features = sorted({b["name"].split("/")[0] for b in json.load(open(g))["benchmarks"]})
    args = [a for f in features for a in ("--require-feature", f)]
    expect(True, f"fixture {os.path.basename(g)} validates ({', '.join(features)})", run("--no-errors", *args, g))

doc = json.load(open(next(g for g in good if "memlatency" in g)))
bench = next(b for b in doc["benchmarks"] if b["name"].startswith("MemLatency/fine/"))
breakages = {
    "missing context key": lambda d: d["context"].pop("gpu_l2_bytes"),
    "missing latency counter": lambda d: d["benchmarks"][0].pop("latency_cycles"),
    "missing fine counter": lambda d: next(b for b in d["benchmarks"] if b["name"] == bench["name"]).pop("timer_overhead_cycles"),
    "unknown feature": lambda d: d["benchmarks"].append(dict(d["benchmarks"][0], name="Bogus/x")),
    "non-finite counter": lambda d: d["benchmarks"][0].__setitem__("latency_ns", float("nan")),
    "no benchmarks list": lambda d: d.pop("benchmarks"),
    "health object of another shape": lambda d: d["context"].__setitem__("archbench_health", {"counters": {"x": 3}}),
}
with tempfile.TemporaryDirectory() as tmp:
    for what, breakit in breakages.items():
        d = copy.deepcopy(doc)
        breakit(d)
        p = os.path.join(tmp, "broken.json")
        with open(p, "w") as f:
            json.dump(d, f)
        expect(False, f"rejects {what}", run(p))
    healthy = copy.deepcopy(doc)
    healthy["context"]["archbench_health"] = json.load(open(os.path.join(data_dir, "health", "fake_nvml_run.json")))
    p = os.path.join(tmp, "health.json")
    json.dump(healthy, open(p, "w"))
    expect(True, "the health watch's object validates", run(p))
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
    expect(False, "requires the named feature", run("--require-feature", "TensorCore", good[0]))

    # Pipeline: its counters, a rate above the physical limit, an op this GPU lacks.
    pipe = json.load(open(next(g for g in good if "pipeline" in g)))
    tput = next(i for i, b in enumerate(pipe["benchmarks"]) if b["name"].startswith("Pipeline/throughput/ffma/"))
    lat = next(i for i, b in enumerate(pipe["benchmarks"]) if b["name"].startswith("Pipeline/latency/"))
    pipe_breakages = {
        "missing thread_inst_per_clk_per_sm": lambda d: d["benchmarks"][tput].pop("inst_per_clk_per_sm"),
        "missing loop_overhead_cycles": lambda d: d["benchmarks"][lat].pop("loop_overhead_cycles"),
        "pct_of_peak above the limit": lambda d: d["benchmarks"][tput].__setitem__("pct_of_peak", 140.0),
    }
    for what, breakit in pipe_breakages.items():
        d = copy.deepcopy(pipe)
        breakit(d)
        p = os.path.join(tmp, "broken_pipeline.json")
        json.dump(d, open(p, "w"))
        expect(False, f"rejects Pipeline with {what}", run(p))
    d = copy.deepcopy(pipe)
    d["benchmarks"][lat] = {"name": d["benchmarks"][lat]["name"], "error_occurred": True,
                            "error_message": "unsupported: fma.oob needs sm_90; this GPU is sm_80"}
    p = os.path.join(tmp, "unsupported.json")
    json.dump(d, open(p, "w"))
    expect(True, "an op the GPU lacks ('unsupported: ...') is a skip, allowed with --no-errors", run("--no-errors", p))
    # Google Benchmark 1.8's own skip ("skipped": true, no counters) is a skip too; a plain error is not.
    d["benchmarks"][lat] = {"name": d["benchmarks"][lat]["name"], "skipped": True,
                            "skip_message": "fma.oob needs sm_90; this GPU is sm_80"}
    json.dump(d, open(p, "w"))
    expect(True, "a Google Benchmark 1.8 skip is allowed with --no-errors", run("--no-errors", p))
    d["benchmarks"][lat] = {"name": d["benchmarks"][lat]["name"], "error_occurred": True,
                            "error_message": "CUDA error: an illegal memory access was encountered"}
    json.dump(d, open(p, "w"))
    expect(False, "a failed benchmark is an error with --no-errors", run("--no-errors", p))

print(f"{failures} failed")
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""cv_table.py on synthetic repetitions: CV for throughput, spread for latency, misses listed."""
import json
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
doc = {"context": {"archbench_git_sha": "synthetic"}, "benchmarks": []}
for rep, (bw, lat, slow) in enumerate([(100.0, 32.0, 10.0), (100.5, 32.2, 12.0), (99.5, 32.1, 8.0)]):
    doc["benchmarks"] += [
        {"name": "Bandwidth/read/ld/width:16/footprint:1", "run_name": "Bandwidth/read/ld/width:16/footprint:1",
         "run_type": "iteration", "repetition_index": rep, "bytes_per_second": bw},
        {"name": "MemLatency/chain/ld.ca/footprint:1/stride:128", "run_name": "MemLatency/chain/ld.ca/footprint:1/stride:128",
         "run_type": "iteration", "repetition_index": rep, "latency_cycles": lat},
        {"name": "Atomics/global/atom.add.u32/x", "run_name": "Atomics/global/atom.add.u32/x",
         "run_type": "iteration", "repetition_index": rep, "atomics_per_second": slow},
    ]
doc["benchmarks"].append({"name": "Bandwidth/read/ld/width:16/footprint:1_cv", "run_type": "aggregate",
                          "aggregate_name": "cv", "bytes_per_second": 0.005})
with tempfile.TemporaryDirectory() as tmp:
    p = os.path.join(tmp, "rep.json")
    json.dump(doc, open(p, "w"))
    r = subprocess.run([sys.executable, script, p], capture_output=True, text=True)
    out = r.stdout
    print(out)
    checks = [
        r.returncode == 0,
        "Bandwidth bytes_per_second CV, %: 1/1 within 1" in out,   # CV 0.5 %
        "MemLatency latency spread, cycles: 1/1 within 1" in out,  # spread 0.2
        "Atomics atomics_per_second CV, %: 0/1 within 1" in out,   # CV 20 %
        "1 of 3 benchmarks miss their goal" in out and "Atomics/global/atom.add.u32/x" in out,
    ]
    r = subprocess.run([sys.executable, script, "--markdown", p], capture_output=True, text=True)
    checks.append("| Feature, metric |" in r.stdout)
    bad = subprocess.run([sys.executable, script, os.path.join(tmp, "missing.json")], capture_output=True, text=True)
    checks.append(bad.returncode == 2 and "missing.json" in bad.stderr and "Traceback" not in bad.stderr)
failed = checks.count(False)
print(f"{len(checks) - failed} passed, {failed} failed: {checks}")
sys.exit(1 if failed else 0)

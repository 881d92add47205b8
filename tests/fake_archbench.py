#!/usr/bin/env python3
"""A stand-in for archbench in the nightly and node tests: writes a result file with repetitions.
FAKE_BW_SCALE scales the bandwidth (a planted regression); FAKE_FAIL=1 writes nothing;
--device=N names GPU N (its uuid GPU-N) and FAKE_SLOW_DEVICE=N plants a slow one (80 % bandwidth)."""
import json
import os
import random
import sys

if os.environ.get("FAKE_FAIL"):
    sys.exit(1)
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchmark_out="))
reps = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--benchmark_repetitions=")), 1)
device = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--device=")), "1")
scale = float(os.environ.get("FAKE_BW_SCALE", "1"))
if os.environ.get("FAKE_SLOW_DEVICE") == device:
    scale *= 0.8
rng = random.Random()
bench = []
for i in range(reps):
    for name, counter, value in [("Bandwidth/read/ld/width:16/footprint:1", "bytes_per_second", 3.1e12 * scale),
                                 ("Pipeline/latency/ffma", "latency_cycles", 4.0)]:
        bench.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
                      "real_time": 1.0, counter: value * (1 + rng.gauss(0, 0.001))})
json.dump({"context": {"gpu_name": "NVIDIA H100 80GB HBM3", "gpu_uuid": f"GPU-{device}",
                       "host_name": os.environ.get("FAKE_HOST", "node0"), "gpu_driver_version": "580.159.04"},
           "benchmarks": bench}, open(out, "w"))

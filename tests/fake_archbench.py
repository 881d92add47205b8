#!/usr/bin/env python3
"""A stand-in for archbench in the nightly tests: writes a result file with repetitions.
FAKE_BW_SCALE scales the bandwidth (a planted regression); FAKE_FAIL=1 writes nothing."""
import json
import os
import random
import sys

if os.environ.get("FAKE_FAIL"):
    sys.exit(1)
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchmark_out="))
reps = next(int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--benchmark_repetitions="))
scale = float(os.environ.get("FAKE_BW_SCALE", "1"))
rng = random.Random()
bench = []
for i in range(reps):
    for name, counter, value in [("Bandwidth/read/ld/width:16/footprint:1", "bytes_per_second", 3.1e12 * scale),
                                 ("Pipeline/latency/ffma", "latency_cycles", 4.0)]:
        bench.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
                      "real_time": 1.0, counter: value * (1 + rng.gauss(0, 0.001))})
json.dump({"context": {"gpu_name": "NVIDIA H100 80GB HBM3", "gpu_uuid": "GPU-1"}, "benchmarks": bench}, open(out, "w"))

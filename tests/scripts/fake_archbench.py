#!/usr/bin/env python3
"""A stand-in for archbench in the nightly and node tests: writes a result file with repetitions.
FAKE_BW_SCALE scales the bandwidth (a planted regression); FAKE_FAIL=1 writes nothing;
--device=N names GPU N (its uuid GPU-N) and FAKE_SLOW_DEVICE=N plants a slow one (80 % bandwidth);
--archbench_feature=P2P writes the pairs of FAKE_GPUS GPUs, FAKE_SLOW_LINK=i-j a slow link;
--archbench_feature=HostLink a host copy."""
import datetime
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
feature = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--archbench_feature=")), None)
if feature and any(a.startswith("--benchmark_filter=") and feature not in a for a in sys.argv):
    # archbench when the filter matches none of the feature's benchmarks: the context alone, exit 2.
    json.dump({"context": {"gpu_name": "NVIDIA H200", "archbench_git_sha": "fake"}, "benchmarks": []}, open(out, "w"))
    sys.exit(2)
if "--archbench_feature=P2P" in sys.argv:
    # Every ordered pair of FAKE_GPUS GPUs over NVSwitch; FAKE_SLOW_LINK=i-j plants a link at 60 %.
    gpus = int(os.environ.get("FAKE_GPUS", "2"))
    slow = os.environ.get("FAKE_SLOW_LINK", "")
    bench = []
    for i in range(gpus):
        for j in range(gpus):
            if i == j:
                continue
            f = 0.6 if slow == f"{i}-{j}" else 1.0
            noise = lambda: 1 + rng.gauss(0, 0.002)
            bench += [{"name": f"P2P/link/gpu:{i}/peer:{j}", "run_type": "iteration", "real_time": 1.0,
                       "label": "nvswitch; 18 links x 25000 MB/s", "link_peak_bytes_per_second": 450e9},
                      {"name": f"P2P/copy/src:{i}/dst:{j}/dir:uni/size:268435456", "run_type": "iteration",
                       "real_time": 1.0, "bytes_per_second": 390e9 * f * noise()},
                      {"name": f"P2P/latency/gpu:{i}/peer:{j}/level:peer_dram", "run_type": "iteration",
                       "real_time": 1.0, "latency_ns": 1500 / f * noise()}]
    ctx = {"gpu_name": "NVIDIA H200", "gpu_uuid": "GPU-0", "host_name": os.environ.get("FAKE_HOST", "node0"),
           "gpu_driver_version": "580.159.04", "archbench_git_sha": "fake"}
    ctx.update({f"p2p_gpu{g}": f"NVIDIA H200 GPU-{g} 0000:{g:02x}:00.0" for g in range(gpus)})
    json.dump({"context": ctx, "benchmarks": bench}, open(out, "w"))
    sys.exit(0)
bench = []
# --archbench_feature=HostLink (run_node.py runs it one GPU at a time): a host copy alone.
points = [("HostLink/copy/dir:h2d/memory:pinned/size:67108864", "bytes_per_second", 55e9, "higher")] \
    if feature == "HostLink" else [("Bandwidth/read/ld/width:16/footprint:1", "bytes_per_second", 3.1e12 * scale, "higher"),
                                   ("Pipeline/latency/ffma", "latency_cycles", 4.0, "lower")]
for i in range(reps):
    for name, counter, value, how in points:
        bench.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
                      "real_time": 1.0, "label": f"primary={counter}:{how} | method=fake-1",
                      counter: value * (1 + rng.gauss(0, 0.001))})
json.dump({"context": {"gpu_name": os.environ.get("FAKE_GPU_NAME", "NVIDIA H100 80GB HBM3"), "gpu_uuid": f"GPU-{device}",
                       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "host_name": os.environ.get("FAKE_HOST", "node0"), "gpu_driver_version": "580.159.04",
                       "archbench_method_ids": "label"},
           "benchmarks": bench}, open(out, "w"))

#!/usr/bin/env python3
"""Runs archbench on every GPU of this node, one process per GPU in parallel, then compares them
(node_summary.py).

Usage: run_node.py [--binary PATH] [--out DIR] [--gpus N] [--serial] [--threshold PCT] [-- ARCHBENCH_ARGS...]

Each GPU N writes DIR/<host>/gpu<N>.json (archbench --device=N --benchmark_out=...). The features
run in parallel on different GPUs do not interfere (each measures its own device); --serial runs
them one after another (for features that share the node's links or host memory: P2P, and any
measurement of host-device transfers). GPUs: --gpus, or as many as nvidia-smi lists. Then
node_summary.py writes DIR/<host>/node_summary.{md,json}. Exit status: 2 when a GPU's run left no
result, 1 when node_summary flags a GPU, else 0.
"""
import argparse
import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=60).stdout
        return len([line for line in out.splitlines() if line.strip()])
    except (OSError, subprocess.TimeoutExpired):
        return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(HERE, "..", "build", "release", "archbench"))
    ap.add_argument("--out", default="results/node")
    ap.add_argument("--gpus", type=int)
    ap.add_argument("--serial", action="store_true")
    ap.add_argument("--threshold", type=float, default=5.0)
    ap.add_argument("archbench_args", nargs="*")
    args = ap.parse_args(argv)
    gpus = args.gpus if args.gpus is not None else gpu_count()
    if gpus <= 0:
        print("run_node.py: error: no GPU found (nvidia-smi lists none; give --gpus N)", file=sys.stderr)
        return 2
    node_dir = os.path.join(args.out, socket.gethostname())
    os.makedirs(node_dir, exist_ok=True)
    outputs = [os.path.join(node_dir, f"gpu{n}.json") for n in range(gpus)]

    def command(n):
        return [args.binary, f"--device={n}", f"--benchmark_out={outputs[n]}", "--benchmark_out_format=json",
                *args.archbench_args]

    failed = []
    if args.serial:
        for n in range(gpus):
            if subprocess.run(command(n)).returncode != 0:
                failed.append(n)
    else:
        procs = [subprocess.Popen(command(n)) for n in range(gpus)]
        failed = [n for n, p in enumerate(procs) if p.wait() != 0]
    missing = [n for n in range(gpus) if not os.path.exists(outputs[n])]
    if failed:
        print(f"run_node.py: the runs of GPU(s) {failed} exited with an error", file=sys.stderr)
    if missing:
        print(f"run_node.py: error: no result from GPU(s) {missing}", file=sys.stderr)
        return 2
    r = subprocess.run([sys.executable, os.path.join(HERE, "node_summary.py"), "--out", node_dir,
                        "--threshold", str(args.threshold), "--fail-on-outlier", *outputs])
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs archbench on every GPU of this node, one process per GPU in parallel, then compares them
(node_summary.py).

Usage: run_node.py [--binary PATH] [--out DIR] [--gpus N] [--serial] [--threshold PCT] [--integrity [SECONDS]]
                   [-- ARCHBENCH_ARGS...]

Each GPU N writes DIR/<host>/gpu<N>.json (archbench --device=N --skip_feature=P2P,HostLink
--benchmark_out=...). The features run in parallel on different GPUs do not interfere (each
measures its own device). HostLink measures the host's links and memory, which the GPUs share:
run on two GPUs at once, its copies read 10-20 % apart and a healthy GPU was flagged (two H200s,
2026-11-27). So it runs afterwards, one GPU at a time, into DIR/<host>/gpu<N>-hostlink.json;
--serial runs everything one GPU after another. Then, with two GPUs or more, one more process runs the
P2P feature over every pair of GPUs, alone on the node, into DIR/<host>/p2p.json (--no-p2p leaves
it out; a filter that matches no P2P benchmark skips it). GPUs: --gpus, or as many as nvidia-smi
lists. Then node_summary.py writes DIR/<host>/node_summary.{md,json}: GPUs against their
siblings, links against theirs, and the P2P matrices. Exit status: 2 when a GPU's run left no
result, 1 when node_summary flags a GPU or a link, else 0. --integrity screens every GPU's data
integrity afterwards (the Integrity feature, SECONDS each, default 30; every GPU at once: each screens
its own memory and SMs) into DIR/<host>/gpu<N>-integrity.json, which `accept.py --node` judges with
the GPU's run.
"""
import argparse
import json
import os
import socket
import subprocess
import sys

from archbench_tools import paths

# Features that measure what the node's GPUs share (the host's links and memory): never run on two
# GPUs at once.
HOST_SHARED = ["HostLink"]


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=60).stdout
        return len([line for line in out.splitlines() if line.strip()])
    except (OSError, subprocess.TimeoutExpired):
        return 0


def benchmarks_in(path):
    """How many benchmarks a result file holds (0 when it is missing, empty or not JSON)."""
    try:
        with open(path) as f:
            return len(json.load(f).get("benchmarks", []))
    except (OSError, ValueError, AttributeError):
        return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=paths.in_root("build", "release", "archbench", required=False))
    ap.add_argument("--out", default="results/node")
    ap.add_argument("--gpus", type=int)
    ap.add_argument("--serial", action="store_true")
    ap.add_argument("--no-p2p", action="store_true", help="do not run the P2P feature")
    ap.add_argument("--threshold", type=float, default=5.0)
    ap.add_argument("--integrity", nargs="?", type=float, const=30.0, metavar="SECONDS",
                    help="screen each GPU's data integrity afterwards, SECONDS each (default 30), all GPUs at once")
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
        skip = "P2P" if args.serial else ",".join(["P2P", *HOST_SHARED])
        return [args.binary, f"--device={n}", f"--skip_feature={skip}", f"--benchmark_out={outputs[n]}",
                "--benchmark_out_format=json", *args.archbench_args]

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
    results = list(outputs)
    if not args.serial:
        # The host-shared features, one GPU at a time (node_summary merges each GPU's files).
        for feature in HOST_SHARED:
            for n in range(gpus):
                out = os.path.join(node_dir, f"gpu{n}-{feature.lower()}.json")
                rc = subprocess.run([args.binary, f"--device={n}", f"--archbench_feature={feature}",
                                     f"--benchmark_out={out}", "--benchmark_out_format=json",
                                     *args.archbench_args]).returncode
                if benchmarks_in(out):
                    results.append(out)
                    if rc != 0:
                        print(f"run_node.py: the {feature} run of GPU {n} exited with {rc}; its finished "
                              "benchmarks are kept", file=sys.stderr)
                elif os.path.exists(out):
                    os.remove(out)  # the filter matched none of the feature's benchmarks (exit 2), or it failed
                    if rc not in (0, 2):
                        print(f"run_node.py: the {feature} run of GPU {n} exited with {rc} and left no result",
                              file=sys.stderr)
    if args.integrity is not None:
        if not 1 <= args.integrity <= 86400:
            print(f"run_node.py: error: --integrity {args.integrity:g}: seconds in 1..86400", file=sys.stderr)
            return 2
        screens = [os.path.join(node_dir, f"gpu{n}-integrity.json") for n in range(gpus)]
        procs = [subprocess.Popen([args.binary, f"--device={n}", "--archbench_feature=Integrity",
                                   f"--integrity_seconds={args.integrity:g}", f"--benchmark_out={screens[n]}",
                                   "--benchmark_out_format=json"]) for n in range(gpus)]
        for n, p in enumerate(procs):
            if p.wait() != 0 or not benchmarks_in(screens[n]):
                print(f"run_node.py: the integrity screen of GPU {n} exited with {p.returncode}"
                      + ("" if benchmarks_in(screens[n]) else " and left no result"), file=sys.stderr)
    if gpus >= 2 and not args.no_p2p:
        # Alone on the node: the pairs share links, so nothing else may run beside them.
        p2p = os.path.join(node_dir, "p2p.json")
        rc = subprocess.run([args.binary, "--device=0", "--archbench_feature=P2P", f"--benchmark_out={p2p}",
                             "--benchmark_out_format=json", *args.archbench_args]).returncode
        finished = benchmarks_in(p2p)
        if finished:
            results.append(p2p)
            if rc != 0:
                print(f"run_node.py: the P2P run exited with {rc}; its {finished} finished benchmark(s) are kept",
                      file=sys.stderr)
        elif rc == 2:  # archbench's "the filter matched no benchmark"
            print("run_node.py: no P2P benchmark matched the arguments; P2P skipped", file=sys.stderr)
            if os.path.exists(p2p):
                os.remove(p2p)
        else:
            print(f"run_node.py: error: the P2P run exited with {rc} and left no result", file=sys.stderr)
            return 2
    argv, env = paths.tool_command("fleet.node_summary", "--out", node_dir, "--threshold", str(args.threshold),
                                   "--fail-on-outlier", *results)
    r = subprocess.run(argv, env=env)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())

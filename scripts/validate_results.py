#!/usr/bin/env python3
"""Checks that archbench JSON files follow the suite's schema (stdlib only).

Usage: validate_results.py [--require-feature F]... [--no-errors] FILE...

Google Benchmark's JSON plus archbench's context keys; every benchmark named Feature/...;
per-feature counters present, finite and with units in their names. Exit 0 when every file
passes, 1 otherwise, with one line per problem.
"""
import argparse
import json
import math
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import features  # noqa: E402
import resultfile  # noqa: E402

CONTEXT_KEYS = [
    "date", "host_name", "executable",
    "gpu_name", "gpu_uuid", "gpu_compute_capability", "gpu_sm_count", "gpu_max_sm_clock_mhz",
    "gpu_mem_clock_mhz", "gpu_mem_bus_width_bits", "gpu_dram_peak_bytes_per_second",
    "gpu_total_mem_bytes", "gpu_l2_bytes", "gpu_max_persisting_l2_bytes", "gpu_smem_per_sm_bytes",
    "gpu_smem_per_block_bytes", "gpu_smem_per_block_optin_bytes", "gpu_ecc_enabled",
    "gpu_cuda_driver_api_version", "gpu_cuda_runtime_version", "nvml",
    "archbench_version", "archbench_git_sha", "archbench_cuda_flags", "archbench_quick",
]
FEATURES = set(features.names())  # benchmarks/features.json (Fault: injected by the reliability tests only)
COMMON_COUNTERS = ["sm_clock_mhz", "throttled"]
# Counters renamed since: files written before keep their old name.
OLD_NAMES = {"iterations": "iters", "thread_inst_per_clk_per_sm": "inst_per_clk_per_sm"}

FEATURE_COUNTERS = {
    "TensorCore": ["fill_zero"],
    "TensorCore/cublas": ["flops", "m", "n", "k", "gemms"],
    "MemLatency": ["latency_cycles", "latency_ns", "footprint_bytes", "stride_bytes", "smid",
                   "carveout_pct"],
    "Bandwidth": ["bytes_per_second", "bytes_per_clk_per_sm", "level", "passes", "blocks_per_sm", "warps_per_block",
                  "warps_per_sm", "occupancy_pct", "sms", "width_bytes", "footprint_per_sm_bytes"],
    # What users run (the driver's copy, CUB): no launch shape of the suite's, so not Bandwidth's list.
    "Bandwidth/reference": ["bytes_per_second", "footprint_bytes", "bytes_per_launch", "reps", "self_checked"],
    "Atomics": [],
    "Atomics/latency": ["latency_cycles", "latency_ns"],
    "Atomics/global": ["atomics_per_second", "atomics_per_clk", "atomics_per_clk_per_sm", "threads_per_address",
                       "addresses", "spacing_bytes", "iterations", "self_checked"],
    "Atomics/shared": ["atomics_per_second", "atomics_per_clk", "atomics_per_clk_per_sm", "threads_per_address",
                       "addresses", "spacing_bytes", "iterations", "self_checked"],
    "Pipeline/latency": ["latency_cycles", "latency_ns", "latency_raw_cycles", "loop_overhead_cycles"],
    "Pipeline/throughput": ["thread_inst_per_clk_per_sm", "results_per_clk_per_sm", "ops_per_second", "ilp",
                            "warps_per_sm", "blocks_per_sm", "sms", "registers_per_thread"],
    "SmemBanks/geometry": ["banks", "bank_width_bytes", "confidence", "cycles_per_wavefront", "rms_log_error"],
    "SmemBanks/latency": ["latency_cycles", "latency_ns", "model_wavefronts", "access_bytes", "self_checked"],
    "SmemBanks/throughput": ["cycles_per_access", "bytes_per_clk_per_sm", "bytes_per_second", "warps_per_sm",
                             "model_wavefronts", "conflict_ways", "access_bytes", "self_checked"],
    "Scheduling/timeline": ["makespan_ns", "sm_start_skew_ns", "block_finish_spread_ns", "coresident_blocks_per_sm",
                            "occupancy_blocks_per_sm", "waves_measured", "blocks", "warps_per_block", "sms"],
    "Scheduling/warp_schedulers": ["schedulers", "mapping_modulus", "sharing_slowdown", "separate_slowdown",
                                   "confidence", "pairs"],
    "Scheduling/sustained_clock": ["sm_clock_initial_mhz", "sm_clock_sustained_mhz", "sm_clock_min_mhz",
                                   "sm_clock_drop_pct", "seconds", "clock_samples", "flops"],
    "Launch/back_to_back": ["host_launch_ns", "host_launch_ns_p10", "host_launch_ns_p90", "gpu_gap_ns", "gpu_gap_ns_p10",
                            "gpu_gap_ns_p90", "launches_per_second", "launches", "param_bytes", "self_checked"],
    "Launch/end_to_end": ["end_to_end_ns", "end_to_end_ns_p10", "end_to_end_ns_p90", "launches", "param_bytes",
                          "self_checked"],
    "HostLink/link": ["pcie_gen", "pcie_width", "link_peak_bytes_per_second", "gpu_numa_node", "numa_nodes"],
    "HostLink/copy": ["bytes_per_second", "size_bytes", "copies", "self_checked", "host_numa_node", "gpu_numa_node"],
    "HostLink/sm": ["bytes_per_second", "footprint_bytes", "passes", "width_bytes"],
    "HostLink/latency": ["latency_ns", "latency_cycles", "footprint_bytes", "self_checked", "host_numa_node"],
    "L2Persist/kept": ["kept_bytes", "kept_fraction", "persisting_read_bytes_per_second", "setaside_bytes", "window_bytes",
                       "hit_ratio", "hit_cycles", "miss_cycles", "probe_cycles", "self_checked"],
    "L2Persist/capacity": ["capacity_bytes", "capacity_over_setaside", "max_persisting_bytes", "kept_bytes"],
    "L2Persist/reset": ["kept_bytes_without_reset", "kept_bytes_after_reset", "window_bytes", "setaside_bytes"],
    "Tlb/latency": ["latency_cycles", "latency_ns", "footprint_bytes", "stride_bytes", "elements", "self_checked"],
    "Tlb/geometry": ["page_size_bytes", "page_size_confidence", "levels"],
    # Energy: the differential figure, its variants' agreement, the powers and clocks behind it.
    "Energy/op": ["pj_per_op", "pj_per_op_with_static", "pj_per_op_all_in", "pair_spread_pct", "power_w", "rest_power_w",
                  "rest_sm_clock_mhz", "clock_mismatch_pct", "energy_update_period_ms", "ops_per_second"],
    "Energy/mma_sync": ["pj_per_flop", "pj_per_flop_with_static", "pj_per_flop_all_in", "pair_spread_pct", "power_w",
                        "rest_power_w", "rest_sm_clock_mhz", "clock_mismatch_pct", "flops_per_second"],
    "Energy/wgmma": ["pj_per_flop", "pj_per_flop_with_static", "pj_per_flop_all_in", "pair_spread_pct", "power_w",
                     "rest_power_w", "rest_sm_clock_mhz", "clock_mismatch_pct", "flops_per_second"],
    "Energy/bytes": ["pj_per_byte", "pj_per_bit", "pj_per_byte_with_static", "pair_spread_pct", "power_w", "rest_power_w",
                     "clock_mismatch_pct", "bytes_per_second"],
    "Energy/host": ["pj_per_byte", "pj_per_bit", "pj_per_byte_with_static", "pair_spread_pct", "power_w", "rest_power_w",
                    "bytes_per_second", "copy_bytes"],
    "Energy/p2p": ["pj_per_byte", "pj_per_bit", "pj_per_byte_local", "pj_per_byte_peer", "pair_spread_pct", "power_w",
                   "rest_power_w", "power_w_local", "power_w_peer", "bytes_per_second", "link_peak_bytes_per_second"],
    "Energy/rest": ["power_w", "window_s", "energy_updates", "warps_per_sm"],
    "Energy/counter": ["energy_update_period_ms", "energy_min_step_mj", "energy_read_ms", "power_update_period_ms"],
    "AsyncCopy/load": ["bytes_per_second", "global_bytes_per_second", "bytes_per_clk_per_sm", "bytes_in_flight_per_sm",
                       "footprint_bytes", "blocks", "sms", "passes", "stages"],
    "AsyncCopy/store": ["bytes_per_second", "global_bytes_per_second", "bytes_per_clk_per_sm", "bytes_in_flight_per_sm",
                        "footprint_bytes", "blocks", "sms", "passes", "stages"],
    "AsyncCopy/latency": ["latency_cycles", "latency_min_cycles", "latency_p90_cycles", "bytes_per_clk", "bytes"],
    "Dsm/latency": ["local_lds_cycles", "local_cluster_cycles", "remote_cycles", "remote_min_cycles",
                    "remote_max_cycles", "cluster_size", "self_checked"],
    "P2P": ["gpu"],
    "P2P/link": ["can_access_peer", "native_atomics", "performance_rank", "nvlink_links", "link_peak_bytes_per_second",
                 "pcie_gen", "pcie_width", "topology_level"],
    "P2P/copy": ["bytes_per_second", "size_bytes", "copies", "peer_access", "self_checked"],
    "P2P/remote_read": ["bytes_per_second", "bytes_per_clk_per_sm", "footprint_bytes", "passes", "width_bytes", "sms"],
    "P2P/remote_write": ["bytes_per_second", "bytes_per_clk_per_sm", "footprint_bytes", "passes", "width_bytes", "sms",
                         "self_checked"],
    "P2P/latency": ["latency_cycles", "latency_ns", "footprint_bytes", "steps", "self_checked"],
    "P2P/atomics": ["atomics_per_second", "atomics_per_clk", "threads_per_address", "iterations", "self_checked"],
    "Dsm/bandwidth": ["bytes_per_clk_per_sm", "bytes_per_clk_per_cluster", "bytes_per_second", "cluster_size",
                      "clusters", "sms", "self_checked"],
}
FINE_COUNTERS = ["latency_p95_cycles", "latency_p95_ns", "timer_overhead_cycles",
                 "latency_net_cycles", "samples"]


def check_file(path, required_features, no_errors):
    problems = []
    doc = resultfile.load(path)  # ResultError: main() says so in one line, exit 2
    ctx = doc.get("context")
    benches = doc.get("benchmarks")
    if not isinstance(ctx, dict):
        return [f"{path}: no 'context' object"]
    if not isinstance(benches, list):
        return [f"{path}: no 'benchmarks' list"]
    for k in CONTEXT_KEYS:
        if k not in ctx:
            problems.append(f"{path}: context lacks '{k}'")
    try:
        if int(ctx.get("gpu_sm_count", "0")) <= 0 or int(ctx.get("gpu_l2_bytes", "0")) <= 0:
            problems.append(f"{path}: context gpu_sm_count/gpu_l2_bytes not positive")
    except ValueError:
        problems.append(f"{path}: context gpu_sm_count/gpu_l2_bytes not integers")
    seen = set()
    for b in benches:
        name = b.get("name", "")
        feature = name.split("/", 1)[0]
        if feature not in FEATURES:
            problems.append(f"{path}: '{name}': unknown feature '{feature}'")
            continue
        seen.add(feature)
        if not resultfile.measured(b):
            # A skip (resultfile.skip_reason: a feature this GPU lacks) is not a failure.
            if no_errors and resultfile.failed(b):
                problems.append(f"{path}: '{name}': error: {b.get('error_message', '?')}")
            continue
        if b.get("run_type") == "aggregate":
            continue
        family = "/".join(name.split("/", 2)[:2])
        wanted = COMMON_COUNTERS + FEATURE_COUNTERS.get(feature, []) + FEATURE_COUNTERS.get(family, [])
        if name == "P2P/matrix" or name.startswith("P2P/matrix/"):  # one counter per metric and pair: NAME[i][j]
            wanted = COMMON_COUNTERS + ["gpus"]
        if family == "Bandwidth/reference":
            wanted = COMMON_COUNTERS + FEATURE_COUNTERS[family]
        if feature == "MemLatency" and name.startswith("MemLatency/fine/"):
            wanted = wanted + FINE_COUNTERS
        for c in wanted:
            v = b.get(c, b.get(OLD_NAMES.get(c, c)))
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                problems.append(f"{path}: '{name}': counter '{c}' missing or not finite")
        pct = b.get("pct_of_peak")
        if isinstance(pct, (int, float)) and pct > 105:
            problems.append(f"{path}: '{name}': pct_of_peak {pct:.1f} above the physical limit")
        # Since archbench_primary_metrics=label every benchmark declares what compare.py compares.
        if ctx.get("archbench_primary_metrics") == "label":
            label = b.get("label", "")
            if not isinstance(label, str) or not label.startswith("primary="):
                problems.append(f"{path}: '{name}': no primary metric declared in its label")
            else:
                for item in label.split(" | ", 1)[0][len("primary="):].split(","):
                    counter, _, how = item.rpartition(":")
                    if how not in ("higher", "lower") and not how.endswith("%"):
                        problems.append(f"{path}: '{name}': malformed primary declaration '{item}'")
                    elif not isinstance(b.get(counter), (int, float)):
                        problems.append(f"{path}: '{name}': declared primary metric '{counter}' not reported")
                # Since archbench_method_ids=label the label carries the method identifier too.
                if ctx.get("archbench_method_ids") == "label" and not re.search(r" \| method=[0-9a-f]{12}( \||$)", label):
                    problems.append(f"{path}: '{name}': no method identifier in its label")
        if (feature == "MemLatency" or family == "Pipeline/latency") and b.get("latency_cycles", 0) <= 0:
            problems.append(f"{path}: '{name}': latency_cycles not positive")
    for f in required_features:
        if f not in seen:
            problems.append(f"{path}: no benchmark of feature '{f}'")
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--require-feature", action="append", default=[])
    ap.add_argument("--no-errors", action="store_true", help="a benchmark that errored fails the file")
    args = ap.parse_args(argv)
    problems = []
    for p in args.files:
        try:
            problems += check_file(p, args.require_feature, args.no_errors)
        except resultfile.ResultError as e:
            print(f"validate_results.py: error: {e}", file=sys.stderr)
            return 2
    for line in problems:
        print(line)
    print(f"{len(args.files)} file(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

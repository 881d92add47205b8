#!/usr/bin/env python3
"""Checks that archbench JSON files follow the suite's schema (stdlib only).

Usage: validate_results.py [--require-feature F]... [--no-errors] FILE...

Google Benchmark's JSON plus archbench's context keys; every benchmark named Feature/...;
per-feature counters present, finite and with units in their names. Exit 0 when every file
passes, 1 otherwise, with one line per problem.
"""
import argparse
import math
import re
import sys
from archbench_tools.tables import counters  # noqa: E402
from archbench_tools.tables import features  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

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
# What each family must report, and the old names of renamed counters: the counter catalogue
# (benchmarks/counters.json, scripts/counters.py), as is every counter's existence and direction.
REQUIRED = counters.required()
COMMON_COUNTERS = REQUIRED["(every benchmark)"]
FINE_COUNTERS = REQUIRED["MemLatency/fine"]
FEATURE_COUNTERS = {k: v for k, v in REQUIRED.items() if k not in ("(every benchmark)", "MemLatency/fine")}
OLD_NAMES = counters.renamed()
DIRECTION = counters.direction()


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
    health = ctx.get("archbench_health")  # fixtures/harness/health.hpp: an object, each counter read or why not
    if health is not None and not (isinstance(health, dict) and isinstance(health.get("counters"), dict) and all(
            isinstance(c, dict) and ("not_available" in c or "before" in c) for c in health["counters"].values())):
        problems.append(f"{path}: context archbench_health is not the health watch's object "
                        "(counters, each with 'before' or 'not_available')")
    seen = set()
    catalogue, catalogued = counters.patterns(), {}  # once a file; {counter: documented?}
    for b in benches:
        name = b.get("name", "")
        feature = resultfile.feature(b)
        if feature not in FEATURES:
            problems.append(f"{path}: '{name}': unknown feature '{feature}'")
            continue
        seen.add(feature)
        if not resultfile.fields_match_name(b):
            problems.append(f"{path}: '{name}': its family or axes fields disagree with its name")
        if not resultfile.measured(b):
            # A skip (resultfile.skip_reason: a feature this GPU lacks) is not a failure.
            if no_errors and resultfile.failed(b):
                problems.append(f"{path}: '{name}': error: {b.get('error_message', '?')}")
            continue
        if b.get("run_type") == "aggregate":
            continue
        family = "/".join(resultfile.family_parts(b)[:2])
        wanted = COMMON_COUNTERS + FEATURE_COUNTERS.get(feature, []) + FEATURE_COUNTERS.get(family, [])
        if resultfile.is_under(resultfile.family(b), "P2P/matrix"):  # one counter per metric and pair: NAME[i][j]
            wanted = COMMON_COUNTERS + ["gpus"]
        if family == "Bandwidth/reference":
            wanted = COMMON_COUNTERS + FEATURE_COUNTERS[family]
        if resultfile.is_under(resultfile.family(b), "MemLatency/fine"):
            wanted = wanted + FINE_COUNTERS
        for c in sorted(counters.counters_of({"benchmarks": [b]})):
            if c not in catalogued:
                catalogued[c] = not counters.uncatalogued([c], catalogue)
            if catalogued[c]:
                continue
            problems.append(f"{path}: '{name}': counter '{c}' is not in the catalogue (benchmarks/counters.json, benchmarks/<source>.counters.json)")
        for c in wanted:
            v = b.get(c, b.get(OLD_NAMES.get(c, c)))
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                problems.append(f"{path}: '{name}': counter '{c}' missing or not finite")
        pct = b.get("pct_of_peak")
        if isinstance(pct, (int, float)) and pct > 105:
            problems.append(f"{path}: '{name}': pct_of_peak {pct:.1f} above the physical limit")
        # Since archbench_primary_metrics=label every benchmark declares what compare.py compares.
        if ctx.get("archbench_primary_metrics") == "label":
            try:
                primary, method, _ = resultfile.declared(b)
            except resultfile.LabelError as e:
                problems.append(f"{path}: '{name}': {e}")
                primary, method = None, None
            if primary == []:
                problems.append(f"{path}: '{name}': no primary metric declared (its fields or its label)")
            for counter, how, tol in primary or []:
                item = f"{counter}:{how if how != 'value' else f'{tol:g}%'}"
                if how not in ("higher", "lower", "value"):
                    problems.append(f"{path}: '{name}': malformed primary declaration '{item}'")
                elif DIRECTION.get(counter) != how:
                    problems.append(f"{path}: '{name}': primary '{item}' is not the catalogue's direction "
                                    f"for '{counter}' ({DIRECTION.get(counter, 'none')})")
                elif not isinstance(b.get(counter), (int, float)):
                    problems.append(f"{path}: '{name}': declared primary metric '{counter}' not reported")
            # Since archbench_method_ids=label every entry carries its method identifier too.
            if primary and ctx.get("archbench_method_ids") == "label" and not re.fullmatch(r"[0-9a-f]{12}", method or ""):
                problems.append(f"{path}: '{name}': no method identifier (its fields or its label)")
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

#!/usr/bin/env python3
"""Every published reference in results/reference/ names its source, and every value in it is a
positive number with its own provenance (table or figure) under a known quantity.

Usage: check_references.py REFERENCE_DIR
"""
import json
import os
import sys

KNOWN = {"l1_hit_latency_cycles", "l2_hit_latency_cycles", "dram_latency_cycles", "smem_latency_cycles",
         "smem_2way_latency_cycles", "smem_32way_latency_cycles", "l1_bytes", "l1_line_bytes", "l2_bytes",
         "l2_line_bytes", "smem_banks", "smem_bank_bytes", "l1_tlb_coverage_bytes", "l2_tlb_coverage_bytes",
         "tlb_page_bytes", "l2_read_shared_bytes_per_second", "dram_read_bytes_per_second",
         "l1_fetch_bytes", "l2_fetch_bytes", "l1_read_bytes_per_second", "l2_read_bytes_per_second",
         "l2_write_bytes_per_second", "dram_write_bytes_per_second", "dram_copy_bytes_per_second",
         "smem_read_bytes_per_clk_per_sm", "fp32_gemm_flop_per_second", "f16_gemm_flop_per_second",
         "s8_gemm_ops_per_second", "fp64_gemm_flop_per_second"}
# What an importer's value carries beside its provenance (scripts/import_references.py).
SOURCE_KEYS = {"repository", "commit", "file"}
ref_dir = sys.argv[1]
problems = []
# Every reference names its model among the public facts (release date, chip, level sizes).
facts_path = os.path.join(ref_dir, "facts", "gpus.json")
facts = json.load(open(facts_path))["gpus"] if os.path.isfile(facts_path) else {}
files = sorted(f for f in os.listdir(ref_dir) if f.endswith(".json"))
if not files:
    problems.append(f"{ref_dir}: no reference files")
for f in files:
    path = os.path.join(ref_dir, f)
    try:
        doc = json.load(open(path))
    except ValueError as e:
        problems.append(f"{path}: not JSON: {e}")
        continue
    ctx = doc.get("context", {})
    for key in ["gpu_name", "gpu_architecture", "provenance"]:
        if not ctx.get(key):
            problems.append(f"{path}: context lacks {key}")
    model = ctx.get("gpu_model")
    if model not in facts:
        problems.append(f"{path}: gpu_model {model!r} is not in {facts_path}")
    elif ctx.get("gpu_release") != facts[model]["release"]:
        problems.append(f"{path}: gpu_release {ctx.get('gpu_release')!r} differs from {facts_path}'s")
    if ctx.get("reference") is not True:
        problems.append(f"{path}: context.reference is not true")
    for b in doc.get("benchmarks", []):
        quantity = b.get("name", "").split("/", 1)[-1]
        if not b.get("name", "").startswith("Reference/") or quantity not in KNOWN:
            problems.append(f"{path}: unknown quantity {b.get('name')!r}")
        if not isinstance(b.get("value"), (int, float)) or b["value"] <= 0:
            problems.append(f"{path}: {b.get('name')}: value {b.get('value')!r} is not a positive number")
        if not b.get("provenance"):
            problems.append(f"{path}: {b.get('name')}: no provenance")
        if "source" in b and not (isinstance(b["source"], dict) and SOURCE_KEYS <= set(b["source"])):
            problems.append(f"{path}: {b.get('name')}: its source lacks one of {sorted(SOURCE_KEYS)}")
for p in problems:
    print("FAIL:", p)
print(f"{len(files)} reference file(s), {len(problems)} problem(s)")
sys.exit(1 if problems else 0)

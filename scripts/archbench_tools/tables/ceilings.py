#!/usr/bin/env python3
"""The ceilings of a GPU, from one archbench run: what each level of the memory hierarchy, each
precision and each unit delivers at best, beside the theoretical figure the suite computes, with the
latencies and capacities of the levels; every figure traced to the benchmark it comes from.

Usage:
    ceilings.py RUN.json [--json OUT]      print the ceilings; --json writes them (docs/output.md,
                                           "Ceilings": format archbench-ceilings, version 1)

As a library: ceilings.ceilings(doc, path) -> the same dictionary, from resultfile.load(path).
A figure the run lacks (a quick run, a filter) is listed as not measured, with the reason, never
guessed. Exit codes: 0 written, 2 bad input (one line on stderr).
"""
import argparse
import json
import os
import sys
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402

FORMAT = "archbench-ceilings"
VERSION = 1


def _method(b):
    try:
        return resultfile.declared(b)[1]
    except resultfile.LabelError:
        return None


_number = run_model.number  # one rule for a positive number in the context


def _source(name, b):
    return {"benchmark": name, "method": _method(b)}


def _missing(what, why):
    return {"not_measured": f"{what}: {why}"}


# --- Bandwidth per level ----------------------------------------------------------------------------
# (level, kind, which benchmarks (run.select's arguments), the counter that ranks the candidates, the
# theoretical figure: "entry" (its peak_bytes_per_second), "dram" (the context's), "link"
# (link_peak_bytes_per_second), None)
def _level(want):
    return lambda key, b: b.get("level") == want


def _between_two_gpus(key, b):
    pair = resultfile.pair_of(b)
    return pair is not None and pair[0] != pair[1]


BANDWIDTH = [
    ("shared memory", "read", dict(family=("Bandwidth/smem", "Bandwidth/headline/smem/read")), "bytes_per_clk_per_sm",
     "entry"),
    ("L1", "read", dict(family=("Bandwidth/read", "Bandwidth/shape/L1/read", "Bandwidth/l1", "Bandwidth/headline/L1/read"),
                        where=_level(1)), "bytes_per_clk_per_sm", "entry"),
    ("L2, data shared by every SM", "read", dict(role="l2_read"), "bytes_per_clk_per_sm", None),
    ("L2, each SM its own slice", "read", dict(family="Bandwidth/l2/private/ld.cg"), "bytes_per_clk_per_sm", None),
    ("L2", "write", dict(family="Bandwidth/write", where=_level(2)), "bytes_per_clk_per_sm", None),
    ("L2", "copy", dict(family="Bandwidth/copy", where=_level(2)), "bytes_per_clk_per_sm", None),
    ("DRAM", "read", dict(role="dram_read"), "bytes_per_second", "dram"),
    ("DRAM", "write", dict(role="dram_write"), "bytes_per_second", "dram"),
    ("DRAM", "copy", dict(role="dram_copy"), "bytes_per_second", "dram"),
    ("host link, pinned", "host to device", dict(family="HostLink/copy", dir="h2d", memory="pinned"), "bytes_per_second",
     "link"),
    ("host link, pinned", "device to host", dict(family="HostLink/copy", dir="d2h", memory="pinned"), "bytes_per_second",
     "link"),
    ("peer link", "copy, one way", dict(family="P2P/copy", dir="uni", where=_between_two_gpus), "bytes_per_second", "entry"),
]


def bandwidth(run):
    out = []
    dram_peak = _number(run.ctx, "gpu_dram_peak_bytes_per_second")
    for level, kind, which, rank, theory in BANDWIDTH:
        row = {"level": level, "kind": kind}
        hit = run.best(rank, **which)
        if hit is None:
            row.update(_missing(f"{level} {kind}", "no such benchmark in this run"))
            out.append(row)
            continue
        name, b = hit
        peak = {"entry": b.get("peak_bytes_per_second"), "dram": dram_peak,
                "link": b.get("link_peak_bytes_per_second"), None: None}[theory]
        row.update({"bytes_per_second": b.get("bytes_per_second"), "bytes_per_clk_per_sm": b.get("bytes_per_clk_per_sm"),
                    "sm_clock_mhz": b.get("sm_clock_mhz"), "theoretical_bytes_per_second": peak,
                    "ratio": b["bytes_per_second"] / peak if peak and b.get("bytes_per_second") else None,
                    **_source(name, b)})
        out.append(row)
    return out


# --- Compute per precision and unit -----------------------------------------------------------------
# (precision, unit, family): the best over the run's launch shapes (every SM where swept).
PIPELINE = [
    ("FP64", "FMA (DFMA)", "Pipeline/throughput/dfma"),
    ("FP32", "FMA (FFMA)", "Pipeline/throughput/ffma"),
    ("FP16", "FMA x2 (HFMA2)", "Pipeline/throughput/hfma2"),
    ("BF16", "FMA x2 (HFMA2.BF16)", "Pipeline/throughput/bf16x2_fma"),
    ("INT32", "multiply-add (IMAD)", "Pipeline/throughput/imad"),
    ("FP32", "SFU (MUFU.RSQ)", "Pipeline/throughput/mufu_rsq"),
]
# (unit, the families' common part, the data type of a family under it): the 2:4 sparse forms' rates
# are dense-equivalent FLOP/s against twice the dense peak; mma.sync's families name the input and
# the accumulator types ("f16_f32"), the rows the input's.
TENSOR = [("wgmma", "TensorCore/wgmma/throughput", lambda part: part),
          ("mma.sync", "TensorCore/mma_sync/throughput", lambda part: part.split("_")[0] if "_" in part else None),
          ("wgmma.sp, 2:4 sparse", "TensorCore/wgmma_sp/throughput", lambda part: part),
          ("cuBLAS", "TensorCore/cublas", lambda part: part)]


def _tensor_type(run, key, common, type_of):
    """The data type of a tensor benchmark under `common` (the family part after it), or None."""
    parts = run.family(key).split("/")
    depth = len(common.split("/"))
    # a type part followed by more of the family or by axes (never the family's last part alone)
    if len(parts) <= depth or (len(parts) == depth + 1 and not run.axes(key)):
        return None
    return type_of(parts[depth])


def compute(run):
    out = []
    for precision, unit, family in PIPELINE:
        row = {"precision": precision, "unit": unit}
        hit = run.best("results_per_clk_per_sm", family=family)
        if hit is None:
            row.update(_missing(f"{precision} {unit}", "no such benchmark in this run"))
        else:
            name, b = hit
            fma = b.get("flops_per_result") == 2
            row.update({"per_second": b.get("flops") if fma else b.get("ops_per_second"),
                        "per_second_unit": "FLOP/s" if fma else "results/s",
                        "results_per_clk_per_sm": b["results_per_clk_per_sm"],
                        "peak_results_per_clk_per_sm": b.get("peak_results_per_clk_per_sm"),
                        "ratio": (b.get("pct_of_peak") or 0) / 100 or None, "sm_clock_mhz": b.get("sm_clock_mhz"),
                        **_source(name, b)})
        out.append(row)
    for unit, common, type_of in TENSOR:
        of_type = {}
        for key, _ in run.select(family=common):
            t = _tensor_type(run, key, common, type_of)
            if t:
                of_type.setdefault(t, set()).add(key)
        types = sorted(of_type)
        if not types:
            out.append({"precision": "tensor", "unit": unit, **_missing(f"tensor cores ({unit})", "not in this run")})
        for t in types:
            hit = run.best("flop_per_clk_per_sm", family=common, where=lambda key, b, keys=of_type[t]: key in keys)
            if hit is None:  # measured on fewer SMs than the GPU has only
                out.append({"precision": t, "unit": f"tensor cores ({unit})",
                            **_missing(f"tensor cores ({unit}) {t}", "no shape of it ran on every SM")})
                continue
            name, b = hit
            out.append({"precision": t, "unit": f"tensor cores ({unit})", "per_second": b.get("flops"),
                        "per_second_unit": "FLOP/s", "flop_per_clk_per_sm": b["flop_per_clk_per_sm"],
                        "peak_flop_per_clk_per_sm": b.get("peak_flop_per_clk_per_sm"),
                        "theoretical_per_second": b.get("peak_flops"),
                        "ratio": (b.get("pct_of_peak") or 0) / 100 or None, "sm_clock_mhz": b.get("sm_clock_mhz"),
                        **_source(name, b)})
    return out


# --- Latencies and capacities -----------------------------------------------------------------------
def latency(run):
    rows = []

    def add(level, hit, counter, ns_counter=None, why="no such benchmark in this run"):
        if isinstance(hit, str):  # a role (results/roles.py): the benchmark that plays it on this GPU
            hit, why = run.role(hit), run.missing(hit) or why
        if hit is None or not isinstance(hit[1].get(counter), (int, float)):
            rows.append({"level": level, **_missing(level, why)})
            return
        name, b = hit
        row = {"level": level, "cycles": b[counter], **_source(name, b)}
        clock = b.get("sm_clock_mhz")
        row["ns"] = b.get(ns_counter) if ns_counter and b.get(ns_counter) else (b[counter] * 1e3 / clock if clock else None)
        rows.append(row)

    add("L1 hit (ld.ca chain, a few lines)", "l1_chain", "latency_cycles", "latency_ns")
    near_far = run.best("near_median_cycles", family="Geometry/l2/sm_map")
    add("L2 hit, near partition (median SM)", near_far, "near_median_cycles")
    add("L2 hit, far partition (median SM)", near_far, "far_median_cycles")
    add("L2 hit, every SM x slice (median)", run.best("median_cycles", family="Geometry/l2/slice_map"), "median_cycles")
    add("L2 hit (ld.cg chain, one SM, within an eighth of the L2)", "l2_chain", "latency_cycles", "latency_ns")
    add("DRAM (ld.cg chain, the largest footprint past 2x the L2)", "dram_chain", "latency_cycles", "latency_ns")
    tlb = run.best("levels", family="Tlb/geometry/ld.cg", mapping="managed")
    for i in (1, 2):
        add(f"TLB miss, level {i} (penalty over a hit, managed memory)", tlb, f"level{i}_miss_penalty_cycles",
            f"level{i}_miss_penalty_ns")
    return rows


def capacity(run):
    rows = []

    def add(level, hit, counter):
        if hit is None or not isinstance(hit[1].get(counter), (int, float)) or hit[1][counter] <= 0:
            rows.append({"level": level, **_missing(level, "not in this run (or not found by it)")})
        else:
            rows.append({"level": level, "bytes": hit[1][counter], **_source(*hit)})

    add("L1 (no shared-memory carveout)", run.role("l1_capacity"), "capacity_bytes")
    l2 = run.best("capacity_bytes", family="Geometry/l2/capacity")
    add("L2", l2, "capacity_bytes")
    add("L2, near partition", l2, "near_partition_bytes")
    tlb = run.best("levels", family="Tlb/geometry/ld.cg", mapping="managed")
    add("TLB page (managed memory)", tlb, "page_size_bytes")
    for i in (1, 2):
        add(f"TLB reach, level {i} (managed memory)", tlb, f"level{i}_reach_bytes")
    return rows


def ceilings(doc, path=""):
    """The ceilings of the run `doc` (a loaded result file) as the documented dictionary."""
    run = run_model.Run(doc, path)
    ctx = run.ctx
    return {
        "format": FORMAT, "version": VERSION,
        "run": {"file": os.path.basename(path) if path else None, "gpu_name": ctx.get("gpu_name"),
                "gpu_uuid": ctx.get("gpu_uuid"), "board_part": ctx.get("gpu_board_part_number"),
                "commit": ctx.get("archbench_git_sha"), "date": ctx.get("date"),
                "quick": str(ctx.get("archbench_quick", "")).lower() == "true",
                "sm_count": _number(ctx, "gpu_sm_count"), "max_sm_clock_mhz": _number(ctx, "gpu_max_sm_clock_mhz")},
        "bandwidth": bandwidth(run), "compute": compute(run), "latency": latency(run), "capacity": capacity(run),
    }


def _fmt(v, unit=""):
    if v is None:
        return "-"
    for scale, p in ((1e12, "T"), (1e9, "G"), (1e6, "M")):
        if abs(v) >= scale and unit:
            return f"{v / scale:.3f} {p}{unit}"
    return f"{v:.4g}{(' ' + unit) if unit else ''}"


def _section(lines, title, rows, head, body):
    """One section of the table: a row's head, then its figures, or "not measured"."""
    lines.append(f"{title}:")
    for x in rows:
        lines.append(head(x) + (" not measured" if "not_measured" in x else " " + body(x)))


def _bandwidth_line(b):
    ratio = (f"{100 * b['ratio']:.1f} % of {_fmt(b['theoretical_bytes_per_second'], 'B/s')}" if b["ratio"]
             else "no theoretical figure")
    return (f"{_fmt(b['bytes_per_second'], 'B/s'):>12s} {_fmt(b['bytes_per_clk_per_sm']):>8s} B/clk/SM  {ratio}  "
            f"[{b['benchmark']}]")


def _compute_line(x):
    per_clk = x.get("flop_per_clk_per_sm") or x.get("results_per_clk_per_sm")
    ratio = f"{100 * x['ratio']:.1f} % of peak" if x.get("ratio") else "no published peak"
    return (f"{_fmt(x['per_second'], x['per_second_unit'].split('/')[0] + '/s'):>16s} {_fmt(per_clk):>8s} /clk/SM  "
            f"{ratio}  [{x['benchmark']}]")


def render(c):
    r = c["run"]
    lines = [f"ceilings of {r['gpu_name']} {r['gpu_uuid']} (part {r['board_part']}), commit {str(r['commit'])[:12]}"
             + (" (a quick run)" if r["quick"] else "")]
    _section(lines, "bandwidth", c["bandwidth"], lambda b: f"  {b['level'] + ', ' + b['kind']:42s}", _bandwidth_line)
    _section(lines, "compute", c["compute"], lambda x: f"  {x['precision'] + ', ' + x['unit']:42s}", _compute_line)
    _section(lines, "latency", c["latency"], lambda x: f"  {x['level']:58s}",
             lambda x: f"{x['cycles']:8.1f} cycles {_fmt(x.get('ns')):>8s} ns  [{x['benchmark']}]")
    _section(lines, "capacity", c["capacity"], lambda x: f"  {x['level']:58s}",
             lambda x: f"{x['bytes']:14.0f} B  [{x['benchmark']}]")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="an archbench result file (.json or .json.gz)")
    ap.add_argument("--json", metavar="OUT", help="write the ceilings as JSON (docs/output.md, 'Ceilings')")
    args = ap.parse_args(argv)
    doc = resultfile.load_or_exit(args.run, "ceilings.py")
    c = ceilings(doc, args.run)
    if not any("not_measured" not in x for section in ("bandwidth", "compute", "latency", "capacity") for x in c[section]):
        print(f"ceilings.py: error: {args.run}: measures none of the ceilings (a run of another feature?)", file=sys.stderr)
        return 2
    if args.json:
        try:
            with open(args.json + ".part", "w") as f:
                json.dump(c, f, indent=1)
                f.write("\n")
            os.replace(args.json + ".part", args.json)
        except OSError as e:
            print(f"ceilings.py: error: {args.json}: cannot write: {e.strerror or e}", file=sys.stderr)
            return 2
    print("\n".join(render(c)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

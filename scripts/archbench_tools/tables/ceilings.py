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
import re
import sys
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import roles  # noqa: E402

FORMAT = "archbench-ceilings"
VERSION = 1


def _method(b):
    try:
        return resultfile.declared(b)[1]
    except resultfile.LabelError:
        return None


def _number(ctx, key):
    try:
        v = float(ctx.get(key, ""))
        return v if v > 0 else None
    except ValueError:
        return None


class Run:
    """The measured benchmark entries of a run, by name (no '/iterations:N', no '/manual_time').
    A ceiling is the whole GPU's: shapes that ran on fewer SMs than the GPU has (the sweeps' sms
    axis) are left out of every choice."""

    def __init__(self, doc):
        self.ctx = doc["context"]
        self.sm_count = _number(self.ctx, "gpu_sm_count")
        self.entries = {}
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" or not resultfile.measured(b):
                continue
            name = re.sub(r"/(manual|real)_time$", "", compare.benchmark_key(b.get("run_name") or b.get("name", "")))
            self.entries.setdefault(name, b)

    def every_sm(self, name, b):
        m = re.search(r"/sms:(\d+)(/|$)", name)
        sms = int(m.group(1)) if m else b.get("sms")
        return not (self.sm_count and isinstance(sms, (int, float)) and 0 < sms < self.sm_count)

    def best(self, rx, counter, where=None, lowest=False):
        """(name, entry) of the matching benchmark with the highest (lowest) `counter`, or None."""
        hits = [(n, b) for n, b in self.entries.items() if re.search(rx, n) and isinstance(b.get(counter), (int, float))
                and (where is None or where(n, b)) and self.every_sm(n, b)]
        if not hits:
            return None
        return (min if lowest else max)(hits, key=lambda t: t[1][counter])


def _source(name, b):
    return {"benchmark": name, "method": _method(b)}


def _missing(what, why):
    return {"not_measured": f"{what}: {why}"}


# --- Bandwidth per level ----------------------------------------------------------------------------
# (level, kind, benchmark regex, the counter that ranks the candidates, a filter, the theoretical
# figure: "entry" (its peak_bytes_per_second), "dram" (the context's), "link" (link_peak...), None)
def _level(want):
    return lambda n, b: b.get("level") == want


BANDWIDTH = [
    ("shared memory", "read", r"^Bandwidth/(smem/|headline/smem/read$)", "bytes_per_clk_per_sm", None, "entry"),
    ("L1", "read", r"^Bandwidth/(read/|shape/L1/read/|l1/|headline/L1/read$)", "bytes_per_clk_per_sm", _level(1), "entry"),
    ("L2, data shared by every SM", "read", r"^Bandwidth/headline/L2/read$", "bytes_per_clk_per_sm", None, None),
    ("L2, each SM its own slice", "read", r"^Bandwidth/l2/private/ld\.cg/", "bytes_per_clk_per_sm", None, None),
    ("L2", "write", r"^Bandwidth/write/", "bytes_per_clk_per_sm", _level(2), None),
    ("L2", "copy", r"^Bandwidth/copy/", "bytes_per_clk_per_sm", _level(2), None),
    ("DRAM", "read", r"^Bandwidth/headline/DRAM/read$", "bytes_per_second", None, "dram"),
    ("DRAM", "write", r"^Bandwidth/headline/DRAM/write$", "bytes_per_second", None, "dram"),
    ("DRAM", "copy", r"^Bandwidth/headline/DRAM/copy$", "bytes_per_second", None, "dram"),
    ("host link, pinned", "host to device", r"^HostLink/copy/dir:h2d/memory:pinned/", "bytes_per_second", None, "link"),
    ("host link, pinned", "device to host", r"^HostLink/copy/dir:d2h/memory:pinned/", "bytes_per_second", None, "link"),
    ("peer link", "copy, one way", r"^P2P/copy/src:(\d+)/dst:(?!\1/)\d+/dir:uni/", "bytes_per_second", None, "entry"),
]


def bandwidth(run):
    out = []
    dram_peak = _number(run.ctx, "gpu_dram_peak_bytes_per_second")
    for level, kind, rx, rank, where, theory in BANDWIDTH:
        row = {"level": level, "kind": kind}
        hit = run.best(rx, rank, where)
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
# (precision, unit, benchmark regex): the best over the run's launch shapes (every SM where swept).
PIPELINE = [
    ("FP64", "FMA (DFMA)", r"^Pipeline/throughput/dfma/"),
    ("FP32", "FMA (FFMA)", r"^Pipeline/throughput/ffma/"),
    ("FP16", "FMA x2 (HFMA2)", r"^Pipeline/throughput/hfma2/"),
    ("BF16", "FMA x2 (HFMA2.BF16)", r"^Pipeline/throughput/bf16x2_fma/"),
    ("INT32", "multiply-add (IMAD)", r"^Pipeline/throughput/imad/"),
    ("FP32", "SFU (MUFU.RSQ)", r"^Pipeline/throughput/mufu_rsq/"),
]
# The 2:4 sparse forms' rates are dense-equivalent FLOP/s against twice the dense peak.
TENSOR = [("wgmma", r"^TensorCore/wgmma/throughput/([^/]+)/"), ("mma.sync", r"^TensorCore/mma_sync/throughput/([^/_]+)_"),
          ("wgmma.sp, 2:4 sparse", r"^TensorCore/wgmma_sp/throughput/([^/]+)/"), ("cuBLAS", r"^TensorCore/cublas/([^/]+)/")]


def compute(run):
    out = []
    for precision, unit, rx in PIPELINE:
        row = {"precision": precision, "unit": unit}
        hit = run.best(rx, "results_per_clk_per_sm")
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
    for unit, rx in TENSOR:
        types = sorted({m.group(1) for n in run.entries if (m := re.search(rx, n))})
        if not types:
            out.append({"precision": "tensor", "unit": unit, **_missing(f"tensor cores ({unit})", "not in this run")})
        for t in types:
            hit = run.best(rx.replace("([^/]+)", re.escape(t)).replace("([^/_]+)", re.escape(t)), "flop_per_clk_per_sm")
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
def _role(run, role):
    """(name, entry) of the benchmark that plays `role` on this run's GPU (results/roles.py), or None."""
    key = roles.find(role, run.entries.values(), run.ctx)
    if key is None:
        return None
    name = key.replace("/manual_time", "")
    return (name, run.entries[name]) if name in run.entries else None


def latency(run):
    rows = []

    def add(level, hit, counter, ns_counter=None, why="no such benchmark in this run"):
        if hit is None or not isinstance(hit[1].get(counter), (int, float)):
            rows.append({"level": level, **_missing(level, why)})
            return
        name, b = hit
        row = {"level": level, "cycles": b[counter], **_source(name, b)}
        clock = b.get("sm_clock_mhz")
        row["ns"] = b.get(ns_counter) if ns_counter and b.get(ns_counter) else (b[counter] * 1e3 / clock if clock else None)
        rows.append(row)

    add("L1 hit (ld.ca chain, a few lines)", _role(run, "l1_chain"), "latency_cycles", "latency_ns",
        roles.missing_reason("l1_chain", run.entries.values(), run.ctx) or "no such benchmark in this run")
    near_far = run.best(r"^Geometry/l2/sm_map$", "near_median_cycles")
    add("L2 hit, near partition (median SM)", near_far, "near_median_cycles")
    add("L2 hit, far partition (median SM)", near_far, "far_median_cycles")
    add("L2 hit, every SM x slice (median)", run.best(r"^Geometry/l2/slice_map$", "median_cycles"), "median_cycles")
    add("L2 hit (ld.cg chain, one SM, within an eighth of the L2)", _role(run, "l2_chain"), "latency_cycles", "latency_ns",
        roles.missing_reason("l2_chain", run.entries.values(), run.ctx) or "no such benchmark in this run")
    add("DRAM (ld.cg chain, the largest footprint past 2x the L2)", _role(run, "dram_chain"), "latency_cycles",
        "latency_ns", roles.missing_reason("dram_chain", run.entries.values(), run.ctx) or "no such benchmark in this run")
    tlb = run.best(r"^Tlb/geometry/ld\.cg/mapping:managed$", "levels")
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

    add("L1 (no shared-memory carveout)", run.best(r"^Geometry/l1/capacity/carveout:0$", "capacity_bytes"), "capacity_bytes")
    l2 = run.best(r"^Geometry/l2/capacity$", "capacity_bytes")
    add("L2", l2, "capacity_bytes")
    add("L2, near partition", l2, "near_partition_bytes")
    tlb = run.best(r"^Tlb/geometry/ld\.cg/mapping:managed$", "levels")
    add("TLB page (managed memory)", tlb, "page_size_bytes")
    for i in (1, 2):
        add(f"TLB reach, level {i} (managed memory)", tlb, f"level{i}_reach_bytes")
    return rows


def ceilings(doc, path=""):
    """The ceilings of the run `doc` (a loaded result file) as the documented dictionary."""
    run = Run(doc)
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

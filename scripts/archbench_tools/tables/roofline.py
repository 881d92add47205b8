#!/usr/bin/env python3
"""The empirical hierarchical roofline of a GPU, from one archbench run, with a user's kernels on it
from an Nsight Compute CSV (docs/roofline.md).

Usage:
    roofline.py RUN.json --out FILE.svg|.png [--kernels NCU.csv] [--json OUT.json]

The roofs are the run's ceilings (scripts/ceilings.py): per level (L1, L2, DRAM) the best read
rate, and the copy rate beside it (a kernel that writes as much as it reads tops out there); per
precision the best compute rate (FFMA, DFMA, HFMA2, wgmma per data type); the suite's theoretical
figures dashed where it computes one (L1, DRAM). With --kernels, every kernel of the CSV
(`ncu --csv --page raw`, the metrics in docs/roofline.md) is placed once per level, at its
arithmetic intensity there (FLOPs / bytes moved at that level), as NERSC's hierarchical roofline
does; the table says, per kernel and level, how close it runs to the roof that applies to it (its
read/write mix, at its own SM clock where the CSV has it). Exit codes: 0 written, 2 bad input
(one line on stderr).
"""
import argparse
import csv
import json
import os
import re
import sys
from archbench_tools.tables import ceilings as ceilings_mod  # noqa: E402
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

FORMAT = "archbench-roofline"
VERSION = 1

# --- The roofs ---------------------------------------------------------------------------------------
# level -> {kind: the ceilings' (level, kind)}. The L2's read roof is data each SM reads alone: what a
# streaming kernel meets (a shared read, every SM the same lines, is faster: drawn dotted).
LEVEL_ROWS = {
    "L1": {"read": ("L1", "read")},
    "L2": {"read": ("L2, each SM its own slice", "read"), "shared": ("L2, data shared by every SM", "read"),
           "write": ("L2", "write"), "copy": ("L2", "copy")},
    "DRAM": {"read": ("DRAM", "read"), "write": ("DRAM", "write"), "copy": ("DRAM", "copy")},
}
LEVELS = ("L1", "L2", "DRAM")
# A kernel's precisions as the CSV counts them -> the ceilings' compute row (precision, unit).
COMPUTE_ROWS = {
    "FP64": ("FP64", "FMA (DFMA)"), "FP32": ("FP32", "FMA (FFMA)"), "FP16": ("FP16", "FMA x2 (HFMA2)"),
    "tensor fp16": ("f16", "tensor cores (wgmma)"), "tensor bf16": ("bf16", "tensor cores (wgmma)"),
    "tensor tf32": ("tf32", "tensor cores (wgmma)"), "tensor fp64": ("f64", "tensor cores (mma.sync)"),
    "tensor int8": ("s8", "tensor cores (wgmma)"), "tensor fp8": ("e4m3", "tensor cores (wgmma)"),
}


def _rate(row):
    """A ceiling row as (bytes or FLOP per second, per clock per SM or None, its SM clock in Hz)."""
    if not row or "not_measured" in row:
        return None
    per_clk = row.get("bytes_per_clk_per_sm", row.get("flop_per_clk_per_sm"))
    value = row.get("bytes_per_second", row.get("per_second"))
    clock = (row.get("sm_clock_mhz") or 0) * 1e6
    return (value, per_clk, clock) if value else None


def roofs(ceil):
    """{"bandwidth": {level: {kind: (B/s, B/clk/SM or None, clock Hz)}}, "theoretical": {level: B/s},
    "compute": {precision: (FLOP/s, FLOP/clk/SM or None, clock Hz, benchmark)}, "sm_count"}."""
    bw_rows = {(r["level"], r["kind"]): r for r in ceil["bandwidth"]}
    out = {"bandwidth": {}, "theoretical": {}, "compute": {}, "sm_count": ceil["run"].get("sm_count"),
           "sources": {}}
    for level, kinds in LEVEL_ROWS.items():
        for kind, key in kinds.items():
            rate = _rate(bw_rows.get(key))
            if rate:
                out["bandwidth"].setdefault(level, {})[kind] = rate
                out["sources"][f"{level} {kind}"] = bw_rows[key]["benchmark"]
        peak = (bw_rows.get(kinds["read"]) or {}).get("theoretical_bytes_per_second")
        if peak:
            out["theoretical"][level] = peak
    comp_rows = {(r["precision"], r["unit"]): r for r in ceil["compute"]}
    for precision, key in COMPUTE_ROWS.items():
        row = comp_rows.get(key)
        rate = _rate(row)
        if rate and (row.get("per_second_unit") in (None, "FLOP/s")):
            per_clk = rate[1] if rate[1] else (rate[0] / (out["sm_count"] * rate[2]) if out["sm_count"] and rate[2] else None)
            out["compute"][precision] = (rate[0], per_clk, rate[2], row["benchmark"])
            out["sources"][precision] = row["benchmark"]
    return out


def attainable_bandwidth(level_roofs, write_fraction, sm_clock_hz=None, sm_count=None):
    """The bandwidth a kernel can reach at a level, for its share of bytes written (None: all read):
    the time per byte interpolated between the read (0), copy (0.5) and write (1) ceilings, at the
    kernel's SM clock where given (the L1 and L2 move with it; the DRAM does not)."""
    def at_clock(rate):
        value, per_clk, clock = rate
        if sm_clock_hz and per_clk and sm_count and clock:
            return per_clk * sm_count * sm_clock_hz
        return value
    read = at_clock(level_roofs["read"])
    if not write_fraction:
        return read
    copy = at_clock(level_roofs["copy"]) if "copy" in level_roofs else read
    write = at_clock(level_roofs["write"]) if "write" in level_roofs else copy
    w = min(max(write_fraction, 0.0), 1.0)
    inv = (1 / read + (1 / copy - 1 / read) * w / 0.5) if w <= 0.5 else (1 / copy + (1 / write - 1 / copy) * (w - 0.5) / 0.5)
    return 1 / inv


# --- The kernels: an Nsight Compute CSV (raw page) ------------------------------------------------------
UNIT_SCALE = {"": 1, "byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12, "sector": 32,
              "inst": 1, "ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3,
              "s": 1, "second": 1, "hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9, "cycle/second": 1,
              "cycle/nsecond": 1e9, "cycle/usecond": 1e6}
TIME = "gpu__time_duration.sum"
DEVICE = "device__attribute_display_name"  # the GPU's name, as the run's gpu_name
CLOCKS = ("smsp__cycles_elapsed.avg.per_second", "sm__cycles_elapsed.avg.per_second")
# FLOPs per precision (Nsight Compute's own roofline counts: an FMA is two).
FLOP_TERMS = {
    "FP64": {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum": 2, "sm__sass_thread_inst_executed_op_dadd_pred_on.sum": 1,
             "sm__sass_thread_inst_executed_op_dmul_pred_on.sum": 1},
    "FP32": {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum": 2, "sm__sass_thread_inst_executed_op_fadd_pred_on.sum": 1,
             "sm__sass_thread_inst_executed_op_fmul_pred_on.sum": 1},
    "FP16": {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum": 2, "sm__sass_thread_inst_executed_op_hadd_pred_on.sum": 1,
             "sm__sass_thread_inst_executed_op_hmul_pred_on.sum": 1},
}
# Tensor-core FLOPs: the sm__ops_path_tensor_* counters count math operations, one per FLOP (an
# 8192^3 f16 GEMM of 320x128 tiles counts 2 m n k x 1.0156, the tiles' padding, on an H200).
TENSOR_RX = re.compile(r"^sm__ops_path_tensor(?:_op_[a-z]+)?_src_([a-z0-9]+)(?:_dst_[a-z0-9]+)?\.sum$")
TENSOR_TYPE = {"fp16": "tensor fp16", "bf16": "tensor bf16", "tf32": "tensor tf32", "fp64": "tensor fp64",
               "int8": "tensor int8", "fp8": "tensor fp8", "e4m3": "tensor fp8", "e5m2": "tensor fp8"}
BYTES = {"L1": ("l1tex__t_bytes.sum",), "L2": ("lts__t_bytes.sum",), "DRAM": ("dram__bytes.sum",)}
SPLITS = {"L1": ("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"),
          "L2": ("lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum"),
          "DRAM": ("dram__bytes_read.sum", "dram__bytes_write.sum")}


def _value(text, unit):
    text = (text or "").replace(",", "").strip()
    if text in ("", "n/a", "N/A"):
        return None
    try:
        v = float(text)
    except ValueError:
        return None
    scale = UNIT_SCALE.get(unit.strip().lower())
    if scale is None:
        raise compare.InputError(f"unknown unit {unit!r}")
    return v * scale


def read_kernels(path):
    """The kernels of an Nsight Compute raw-page CSV: [{id, name, device, seconds, clock_hz, flops:
    {precision: FLOPs}, bytes: {level: bytes}, write_fraction: {level: share}}]."""
    try:
        with open(path, newline="") as f:
            rows = [r for r in csv.reader(f) if r]
    except OSError as e:
        raise compare.InputError(f"{path}: cannot read: {e.strerror or e}")
    except (UnicodeDecodeError, csv.Error) as e:
        raise compare.InputError(f"{path}: not a CSV ({e})")
    start = next((i for i, r in enumerate(rows) if "Kernel Name" in r and TIME in r), None)
    if start is None or len(rows) < start + 3:
        raise compare.InputError(f"{path}: not an Nsight Compute raw-page CSV with {TIME} "
                                 "(ncu --csv --page raw --metrics ...; docs/roofline.md)")
    header, units = rows[start], rows[start + 1]
    col = {h: i for i, h in enumerate(header)}
    has_flops = any(m in col for terms in FLOP_TERMS.values() for m in terms) or any(TENSOR_RX.match(h) for h in header)
    has_bytes = any(m in col for ms in BYTES.values() for m in ms) or any(m in col for s in SPLITS.values() for m in s)
    if not has_flops or not has_bytes:
        raise compare.InputError(f"{path}: lacks the {'FLOP' if not has_flops else 'byte'} counters the roofline needs "
                                 "(docs/roofline.md lists them)")

    def get(r, name):
        i = col.get(name)
        return _value(r[i], units[i]) if i is not None and i < len(r) else None

    kernels = []
    for r in rows[start + 2:]:
        seconds = get(r, TIME)
        if not seconds:
            continue
        flops = {}
        for precision, terms in FLOP_TERMS.items():
            total = sum((get(r, m) or 0) * k for m, k in terms.items())
            if total:
                flops[precision] = total
        for h in header:
            m = TENSOR_RX.match(h)
            if m and (v := get(r, h)):
                key = TENSOR_TYPE.get(m.group(1), f"tensor {m.group(1)}")
                flops[key] = flops.get(key, 0) + v
        moved, writes = {}, {}
        for level in LEVELS:
            rd, wr = (get(r, m) for m in SPLITS[level])
            total = next((v for v in (get(r, m) for m in BYTES[level]) if v is not None), None)
            if total is None and rd is not None and wr is not None:
                total = rd + wr
            if total:
                moved[level] = total
                if rd is not None and wr is not None and rd + wr > 0:
                    writes[level] = wr / (rd + wr)
        clock = next((v for v in (get(r, c) for c in CLOCKS) if v), None)
        kernels.append({"id": r[col["ID"]] if "ID" in col else str(len(kernels)), "name": r[col["Kernel Name"]],
                        "device": r[col[DEVICE]] if DEVICE in col and col[DEVICE] < len(r) else None,
                        "seconds": seconds, "clock_hz": clock, "flops": flops, "bytes": moved, "write_fraction": writes})
    if not kernels:
        raise compare.InputError(f"{path}: no kernel with a duration")
    return kernels


def place(kernel, rf):
    """A kernel on the roofline: its precision (the one with most FLOPs), FLOP/s, and per level its
    intensity, the roof that applies there (the level's bandwidth for its read/write mix x the
    intensity, capped by the precision's compute roof) and the share of it reached."""
    if not kernel["flops"]:
        return {"kernel": kernel, "precision": None, "why": "no floating-point or tensor operations counted"}
    precision = max(kernel["flops"], key=kernel["flops"].get)
    flops = kernel["flops"][precision]
    perf = flops / kernel["seconds"]
    comp = rf["compute"].get(precision)
    clock, sms = kernel["clock_hz"], rf["sm_count"]
    compute_roof = None
    if comp:
        compute_roof = comp[1] * sms * clock if clock and comp[1] and sms else comp[0]
    levels = {}
    for level in LEVELS:
        if level not in kernel["bytes"] or level not in rf["bandwidth"] or "read" not in rf["bandwidth"][level]:
            continue
        ai = flops / kernel["bytes"][level]
        bw = attainable_bandwidth(rf["bandwidth"][level], kernel["write_fraction"].get(level), clock, sms)
        roof = min(ai * bw, compute_roof) if compute_roof else ai * bw
        levels[level] = {"intensity": ai, "bytes": kernel["bytes"][level], "bandwidth_roof": bw,
                         "write_fraction": kernel["write_fraction"].get(level), "roof": roof, "of_roof": perf / roof}
    binding = max(levels, key=lambda lv: levels[lv]["of_roof"]) if levels else None
    if binding and compute_roof and levels[binding]["roof"] >= compute_roof * (1 - 1e-9):
        binding = "compute"  # every level's roof is the precision's: the kernel is compute-bound
    return {"kernel": kernel, "precision": precision, "flops": flops, "per_second": perf, "compute_roof": compute_roof,
            "levels": levels, "binding": binding}


# --- Output ------------------------------------------------------------------------------------------
def document(ceil, rf, placed):
    return {"format": FORMAT, "version": VERSION, "run": ceil["run"],
            "roofs": {"bandwidth": {lv: {k: v[0] for k, v in kinds.items()} for lv, kinds in rf["bandwidth"].items()},
                      "theoretical_bandwidth": rf["theoretical"],
                      "compute": {p: {"per_second": v[0], "per_clk_per_sm": v[1], "sm_clock_hz": v[2], "benchmark": v[3]}
                                  for p, v in rf["compute"].items()},
                      "sources": rf["sources"]},
            "kernels": [{"id": p["kernel"]["id"], "name": p["kernel"]["name"], "precision": p["precision"],
                         "flops": p.get("flops"), "per_second": p.get("per_second"), "sm_clock_hz": p["kernel"]["clock_hz"],
                         "compute_roof": p.get("compute_roof"), "binding_level": p.get("binding"),
                         "levels": p.get("levels", {}), **({"why": p["why"]} if "why" in p else {})} for p in placed]}


def table(placed):
    lines = [f"{'kernel':44s} {'precision':12s} {'TFLOP/s':>9s}  " + "  ".join(f"{lv + ' AI':>8s} {'of roof':>7s}" for lv in LEVELS)]
    for p in placed:
        k = p["kernel"]
        label = f"{k['id']} {k['name']}"[:44]
        if p["precision"] is None:
            lines.append(f"{label:44s} not placed: {p['why']}")
            continue
        cells = []
        for lv in LEVELS:
            d = p["levels"].get(lv)
            cells.append(f"{d['intensity']:8.3g} {100 * d['of_roof']:6.1f}%" if d else f"{'-':>8s} {'-':>7s}")
        mark = f"  bound by {p['binding']}" if p["binding"] else ""
        lines.append(f"{label:44s} {p['precision']:12s} {p['per_second'] / 1e12:9.3f}  " + "  ".join(cells) + mark)
    return "\n".join(lines)


COLOURS = {"L1": "#1b9e77", "L2": "#d95f02", "DRAM": "#7570b3"}
MARKERS = {"L1": "o", "L2": "s", "DRAM": "^"}


def draw(rf, placed, out, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 6))
    shown = [p for p in placed if p.get("precision")]
    precisions = sorted({p["precision"] for p in shown} | ({"FP32", "FP64", "tensor fp16"} if not shown else set()))
    precisions = [p for p in precisions if p in rf["compute"]] or list(rf["compute"])[:3]
    xs = [10 ** (e / 20) for e in range(-60, 101)]  # 1e-3 .. 1e5 FLOP/byte
    top = max(rf["compute"][p][0] for p in precisions) if precisions else 1e15
    for level in LEVELS:
        kinds = rf["bandwidth"].get(level, {})
        for kind, style, width in (("read", "-", 2.0), ("copy", (0, (1, 1)), 1.0), ("shared", (0, (4, 2)), 0.8)):
            if kind in kinds:
                bw = kinds[kind][0]
                ys = [min(x * bw, top) for x in xs]
                ax.plot(xs, ys, color=COLOURS[level], ls=style, lw=width,
                        label=f"{level} {kind if kind != 'shared' else 'read, data every SM reads'}: {bw / 1e12:.2f} TB/s")
        if level in rf["theoretical"]:
            bw = rf["theoretical"][level]
            ax.plot(xs, [min(x * bw, top) for x in xs], color=COLOURS[level], ls="--", lw=0.8, alpha=0.6,
                    label=f"{level} theoretical: {bw / 1e12:.2f} TB/s")
    for p in precisions:
        v = rf["compute"][p][0]
        ax.axhline(v, color="0.25", lw=1.2)
        ax.text(xs[-1], v, f"{p}: {v / 1e12:.1f} TFLOP/s ", ha="right", va="bottom", fontsize=8)
    for i, p in enumerate(shown):
        for level, d in p["levels"].items():
            ax.plot(d["intensity"], p["per_second"], MARKERS[level], color=f"C{i % 10}", ms=7, mec="black", mew=0.5)
        first = min(d["intensity"] for d in p["levels"].values()) if p["levels"] else 1
        ax.annotate(f"{p['kernel']['id']}: {p['kernel']['name'][:28]}", (first, p["per_second"]), fontsize=7,
                    xytext=(-4, 4), textcoords="offset points", ha="right", color=f"C{i % 10}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP per byte at the level)")
    ax.set_ylabel("FLOP/s")
    ax.set_xlim(xs[0], xs[-1])
    lows = [p["per_second"] for p in shown] + [top / 1e5]
    ax.set_ylim(min(lows) / 3, top * 3)
    ax.grid(True, which="major", alpha=0.3)
    handles = ax.get_legend_handles_labels()
    handles[0].extend(plt.Line2D([], [], marker=MARKERS[lv], ls="", color="0.5", mec="black") for lv in LEVELS)
    handles[1].extend(f"a kernel at {lv}" for lv in LEVELS)
    ax.legend(*handles, fontsize=7, loc="lower right")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="an archbench result file (JSON, .json.gz)")
    ap.add_argument("--out", required=True, help="the picture (.svg or .png)")
    ap.add_argument("--kernels", metavar="NCU.csv", help="Nsight Compute raw-page CSV of the kernels to place")
    ap.add_argument("--json", metavar="OUT", help="write the roofs and the kernels' places (format archbench-roofline)")
    args = ap.parse_args(argv)
    try:
        if not args.out.endswith((".svg", ".png")):
            raise compare.InputError(f"--out {args.out}: give a .svg or .png file")
        doc = resultfile.load_or_exit(args.run, "roofline.py")
        ceil = ceilings_mod.ceilings(doc, args.run)
        rf = roofs(ceil)
        if not rf["bandwidth"] or not rf["compute"]:
            raise compare.InputError(f"{args.run}: no bandwidth or compute ceiling in this run (Bandwidth, Pipeline and "
                                     "TensorCore give them)")
        placed = []
        if args.kernels:
            kernels = read_kernels(args.kernels)
            gpu = ceil["run"].get("gpu_name")
            other = {k["device"] for k in kernels if k["device"] and gpu and k["device"] != gpu}
            if other:
                raise compare.InputError(f"{args.kernels}: the kernels ran on {', '.join(sorted(other))}, the run is of {gpu}")
            placed = [place(k, rf) for k in kernels]
            print(table(placed))
        title = f"{ceil['run'].get('gpu_name')} ({ceil['run'].get('commit')}, {os.path.basename(args.run)})"
        try:
            draw(rf, placed, args.out, title)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(document(ceil, rf, placed), f, indent=1)
                    f.write("\n")
        except OSError as e:
            raise compare.InputError(f"cannot write: {e.strerror or e}")
        print(f"roofline.py: wrote {args.out}" + (f" and {args.json}" if args.json else ""))
    except compare.InputError as e:
        print(f"roofline.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

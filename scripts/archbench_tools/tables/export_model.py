#!/usr/bin/env python3
"""The measured GPU as a machine model for simulators and analytical models (docs/export-model.md).

Usage:
    export_model.py RUN.json --format accel-sim [--base SHIPPED.config] [--out gpgpusim.config]
    export_model.py RUN.json --format json [--out machine.json]
    export_model.py RUN.json --format mt4g [--out GPU.json]

accel-sim: a GPGPU-Sim / Accel-Sim `gpgpusim.config` whose every option the run measured is filled
from it, each with a comment naming its source (a benchmark, or the device's properties). With
--base (a config Accel-Sim ships, from your own checkout: this tool carries no text of Accel-Sim's),
every other option of the base follows, marked "not measured: from the base"; a tuple option of
which the run measured only some parts keeps the base's other parts and says which. Without --base
only the measured options are written. json: the same model as a documented machine file
(format archbench-machine, version 1): sizes, lines, latencies, the ceilings per level and
precision, the per-opcode latencies and initiation intervals. mt4g: MT4G's result JSON (the keys
and units of caps-tum/mt4g's sample results, which sys-sage reads), each figure's method naming
its archbench benchmark; what the suite does not measure is left out. Exit codes: 0 written, 2 bad
input (one line on stderr).
"""
import argparse
import json
import os
import re
import sys
from archbench_tools.tables import ceilings as ceilings_mod  # noqa: E402
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402

FORMAT = "archbench-machine"
VERSION = 1


class Source:
    """One measured figure and where it comes from."""

    def __init__(self, value, source):
        self.value, self.source = value, source


_ctx_number = run_model.number  # one rule for a positive number in the context


def measured(doc, path):
    """{quantity: Source} of everything the exporters use, from the run (absent where not measured)."""
    ctx = doc["context"]
    run = run_model.Run(doc, path)
    ceil = ceilings_mod.ceilings(doc, path)
    out = {}
    props = "the device's properties (CUDA, NVML), the run's context"
    for key, ctx_key in (("sm_count", "gpu_sm_count"), ("sm_clock_mhz", "gpu_max_sm_clock_mhz"),
                         ("mem_clock_mhz", "gpu_mem_clock_mhz"), ("regs_per_sm", "gpu_regs_per_sm"),
                         ("threads_per_sm", "gpu_max_threads_per_sm"), ("blocks_per_sm", "gpu_max_blocks_per_sm"),
                         ("smem_per_sm", "gpu_smem_per_sm_bytes"), ("smem_per_block", "gpu_smem_per_block_bytes"),
                         ("mem_bus_bits", "gpu_mem_bus_width_bits")):
        v = _ctx_number(ctx, ctx_key)
        if v:
            out[key] = Source(int(v), f"{props} ({ctx_key})")
    cc = str(ctx.get("gpu_compute_capability", ""))
    if re.fullmatch(r"\d+\.\d+", cc):
        out["compute_capability"] = Source(cc, f"{props} (gpu_compute_capability)")

    def entry(counter, **which):
        hit = run.best(counter, **which)
        return (hit[0], hit[1][counter]) if hit else None

    for key, counter, which in (("l1_line", "line_bytes", dict(role="l1_line")),
                                ("l2_line", "line_bytes", dict(family="Geometry/l2/line")),
                                ("l1_bytes", "capacity_bytes", dict(role="l1_capacity")),
                                ("l2_bytes", "capacity_bytes", dict(family="Geometry/l2/capacity")),
                                ("l2_partitions", "partitions", dict(family="Geometry/l2/capacity")),
                                ("smem_banks", "banks", dict(family="SmemBanks/geometry")),
                                ("smem_latency", "latency_cycles", dict(family="SmemBanks/latency", width=4, stride=1))):
        hit = entry(counter, **which)
        if hit:
            out[key] = Source(hit[1], hit[0])
    for row in ceil["latency"]:
        for key, prefix in (("l1_latency", "L1 hit"), ("l2_latency", "L2 hit (ld.cg chain"), ("dram_latency", "DRAM")):
            if row["level"].startswith(prefix) and "cycles" in row:
                out[key] = Source(row["cycles"], row["benchmark"])
    # The SM's warp schedulers (sub-partitions), as Scheduling infers them from warps that slow
    # each other: the units an initiation interval is per.
    sched = entry("schedulers", family="Scheduling/warp_schedulers")
    if sched:
        out["schedulers"] = Source(int(sched[1]), sched[0])
    # Per opcode: the dependent chain's latency, and the initiation interval of one of the SM's
    # sub-partition units: schedulers x 32 lanes / the best results per clock per SM.
    for op in ("ffma", "fadd", "fmul", "dfma", "dadd", "dmul", "imad", "iadd3", "imul", "mufu_rsq", "hfma2"):
        lat = entry("latency_cycles", family=f"Pipeline/latency/{op}")
        if lat:
            out[f"lat_{op}"] = Source(lat[1], lat[0])
        thr = entry("results_per_clk_per_sm", family=f"Pipeline/throughput/{op}")
        if thr and thr[1] > 0 and sched:
            out[f"ii_{op}"] = Source(max(1, round(sched[1] * 32 / thr[1])),
                                     f"{thr[0]} ({thr[1]:.1f} results/clk/SM over {sched[1]:.0f} schedulers, {sched[0]})")
    return out, ceil


# --- Accel-Sim -----------------------------------------------------------------------------------------
# option -> how to fill it: a function of the measured figures giving (value text, source text), or
# None where the run lacks what it needs. Latencies as Accel-Sim defines them: the L2's is the L2 hit
# less the L1 hit, the DRAM's the DRAM access less the L2 hit.
def _one(m, key, fmt="{:.0f}"):
    return (fmt.format(m[key].value), m[key].source) if key in m else None


def _diff(m, a, b, words):
    """A latency difference in SM cycles: GPGPU-Sim holds its ROP and DRAM queues' requests until
    gpu_sim_cycle (the core clock's count) reaches the entry time plus the option (l2cache.cc)."""
    if a in m and b in m:
        return f"{m[a].value - m[b].value:.0f}", f"{words}: {m[a].value:.1f} - {m[b].value:.1f} SM cycles ({m[a].source}; {m[b].source})"
    return None


def _clocks(m, base):
    """<core>:<interconnect>:<L2>:<DRAM> MHz: the core's and the memory's are measured."""
    if "sm_clock_mhz" not in m:
        return None
    parts = (base or "").split(":") if base else []
    icnt = parts[1] if len(parts) == 4 else None
    l2 = parts[2] if len(parts) == 4 else None
    dram = str(m["mem_clock_mhz"].value) if "mem_clock_mhz" in m else (parts[3] if len(parts) == 4 else None)
    if icnt is None or l2 is None or dram is None:
        return None
    note = "core: " + m["sm_clock_mhz"].source + ("; DRAM: " + m["mem_clock_mhz"].source if "mem_clock_mhz" in m else "")
    return f"{m['sm_clock_mhz'].value}:{icnt}:{l2}:{dram}", note + "; interconnect and L2: not measured, from the base"


def _tuple(m, base, keys, what):
    """A comma tuple (Accel-Sim's ADD,MAX,MUL,MAD,DIV order) with the measured parts filled and the
    rest kept from the base; None without a base when any part is missing."""
    parts = base.split(",") if base else [None] * len(keys)
    if len(parts) != len(keys):
        return None
    filled, kept = [], []
    for i, (name, key) in enumerate(keys):
        if key and key in m:
            parts[i] = f"{m[key].value:.0f}"
            filled.append(f"{name} {m[key].source}")
        elif parts[i] is None:
            return None
        else:
            kept.append(name)
    if not filled:
        return None
    return ",".join(parts), f"{what}: " + "; ".join(filled) + (f"; {', '.join(kept)}: not measured, from the base" if kept else "")


def _dl1(m, base):
    """<sets>:<line>:<ways>,...: the line is measured, the sets and ways are not (Geometry/l1/sets_ways
    finds none on Hopper's unified L1)."""
    if "l1_line" not in m or not base:
        return None
    head, _, rest = base.partition(",")
    f = head.split(":")
    if len(f) != 4:
        return None
    f[2] = f"{m['l1_line'].value:.0f}"
    return ":".join(f) + "," + rest, f"line {m['l1_line'].source}; sets, ways and the rest: not measured, from the base"


INT_KEYS = (("ADD", "lat_iadd3"), ("MAX", None), ("MUL", "lat_imul"), ("MAD", "lat_imad"), ("DIV", None))
FP_KEYS = (("ADD", "lat_fadd"), ("MAX", None), ("MUL", "lat_fmul"), ("MAD", "lat_ffma"), ("DIV", None))
DP_KEYS = (("ADD", "lat_dadd"), ("MAX", None), ("MUL", "lat_dmul"), ("MAD", "lat_dfma"), ("DIV", None))
II_INT = tuple((n, k.replace("lat_", "ii_") if k else None) for n, k in INT_KEYS)
II_FP = tuple((n, k.replace("lat_", "ii_") if k else None) for n, k in FP_KEYS)
II_DP = tuple((n, k.replace("lat_", "ii_") if k else None) for n, k in DP_KEYS)

ACCEL_SIM = [
    ("-gpgpu_n_clusters", lambda m, b: _one(m, "sm_count")),
    ("-gpgpu_n_cores_per_cluster", lambda m, b: ("1", "one SM per cluster: every SM counted in -gpgpu_n_clusters")
        if "sm_count" in m else None),
    ("-gpgpu_clock_domains", _clocks),
    ("-gpgpu_shader_registers", lambda m, b: _one(m, "regs_per_sm")),
    ("-gpgpu_shader_core_pipeline", lambda m, b: (f"{m['threads_per_sm'].value}:32", m["threads_per_sm"].source)
        if "threads_per_sm" in m else None),
    ("-gpgpu_shader_cta", lambda m, b: _one(m, "blocks_per_sm")),
    ("-gpgpu_shmem_size", lambda m, b: _one(m, "smem_per_sm")),
    ("-gpgpu_shmem_sizeDefault", lambda m, b: _one(m, "smem_per_sm")),
    ("-gpgpu_shmem_per_block", lambda m, b: _one(m, "smem_per_block")),
    ("-gpgpu_shmem_num_banks", lambda m, b: _one(m, "smem_banks")),
    ("-gpgpu_smem_latency", lambda m, b: _one(m, "smem_latency")),
    ("-gpgpu_unified_l1d_size", lambda m, b: (f"{m['l1_bytes'].value / 1024:.0f}",
        f"KiB of data the L1 holds with no shared-memory carveout ({m['l1_bytes'].value:.0f} B, {m['l1_bytes'].source})")
        if "l1_bytes" in m else None),
    ("-gpgpu_cache:dl1", _dl1),
    ("-gpgpu_l1_latency", lambda m, b: _one(m, "l1_latency")),
    ("-gpgpu_l2_rop_latency", lambda m, b: _diff(m, "l2_latency", "l1_latency", "the L2 hit less the L1 hit")),
    ("-dram_latency", lambda m, b: _diff(m, "dram_latency", "l2_latency", "the DRAM access less the L2 hit")),
    ("-gpgpu_n_chiplet_partition", lambda m, b: _one(m, "l2_partitions")),
    ("-ptx_opcode_latency_int", lambda m, b: _tuple(m, b, INT_KEYS, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_initiation_int", lambda m, b: _tuple(m, b, II_INT, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_latency_fp", lambda m, b: _tuple(m, b, FP_KEYS, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_initiation_fp", lambda m, b: _tuple(m, b, II_FP, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_latency_dp", lambda m, b: _tuple(m, b, DP_KEYS, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_initiation_dp", lambda m, b: _tuple(m, b, II_DP, "ADD,MAX,MUL,MAD,DIV")),
    ("-ptx_opcode_latency_sfu", lambda m, b: _one(m, "lat_mufu_rsq")),
    ("-ptx_opcode_initiation_sfu", lambda m, b: _one(m, "ii_mufu_rsq")),
]


def parse_config(path):
    """[(option, value, line)] of a gpgpusim.config, comments and blank lines as (None, None, line)."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise compare.InputError(f"{path}: cannot read: {e.strerror or e}")
    except UnicodeDecodeError:
        raise compare.InputError(f"{path}: not a text config")
    out = []
    for line in lines:
        m = re.match(r"^\s*(-\S+)\s+(.*?)\s*$", line)
        out.append((m.group(1), m.group(2), line) if m and not line.lstrip().startswith("#") else (None, None, line))
    if not any(o for o, _, _ in out):
        raise compare.InputError(f"{path}: no -option value lines: not a gpgpusim.config")
    return out


def accel_sim(m, run_name, base_path=None):
    base = parse_config(base_path) if base_path else None
    base_values = {o: v for o, v, _ in base or [] if o}
    if base is not None and "compute_capability" in m:
        major, minor = base_values.get("-gpgpu_compute_capability_major"), base_values.get("-gpgpu_compute_capability_minor")
        if major and minor and f"{major}.{minor}" != m["compute_capability"].value:
            raise compare.InputError(f"{base_path}: a config for compute capability {major}.{minor}; the run's GPU is "
                                     f"{m['compute_capability'].value}")
    filled = {}
    for option, fill in ACCEL_SIM:
        got = fill(m, base_values.get(option))
        if got:
            filled[option] = got
    head = [f"# gpgpusim.config of the GPU measured in {run_name} (scripts/export_model.py; docs/export-model.md)",
            "# Options marked 'measured' come from the run, with the benchmark or property each is from."]
    lines = list(head)
    if base is None:
        lines.append("# No --base: only the measured options follow; append them to a shipped config.")
        for option, (value, source) in filled.items():
            lines += [f"# measured: {source}", f"{option} {value}"]
        return "\n".join(lines) + "\n", filled
    lines.append(f"# Every other option: not measured, from the base {os.path.basename(base_path)}.")
    seen = set()
    for option, value, line in base:
        if option in filled:
            new, source = filled[option]
            lines += [f"# measured: {source}" + (f" (the base: {value})" if value != new else " (as the base)"),
                      f"{option} {new}"]
            seen.add(option)
        elif option:
            lines.append(f"{line}  # not measured: from the base")
        else:
            lines.append(line)
    for option in filled:
        if option not in seen:
            new, source = filled[option]
            lines += [f"# measured: {source} (not in the base)", f"{option} {new}"]
    return "\n".join(lines) + "\n", filled


def machine(m, ceil):
    return {"format": FORMAT, "version": VERSION, "run": ceil["run"],
            "measured": {k: {"value": s.value, "source": s.source} for k, s in sorted(m.items())},
            "bandwidth": ceil["bandwidth"], "compute": ceil["compute"], "latency": ceil["latency"],
            "capacity": ceil["capacity"]}


# --- MT4G ----------------------------------------------------------------------------------------------
# MT4G's result JSON (caps-tum/mt4g, sample_results/*.json; read by sys-sage): the same keys and
# units, each measured figure's "method" naming the archbench benchmark it comes from. Keys the
# suite does not measure are left out, never filled with a guess.
GIB = 2 ** 30


def _measure(entry, counter, method, confidence=None, randomized=False):
    if entry is None or not isinstance(entry.get(counter), (int, float)) or entry[counter] <= 0:
        return None
    out = {"method": f"archbench {method}", "randomized": randomized, "size": int(entry[counter]), "unit": "bytes"}
    if confidence is not None:
        out["confidence"] = confidence
    return out


def _latency(run, key):
    """MT4G's latency block: the chain's mean (a long dependent chain: its average), and the
    per-access p50/p95 of Mei & Chu's fine chase at the same footprint and stride (MemLatency's
    "fine" family beside the "chain" one) where the run has it."""
    b = run.entries.get(key)
    if not b or not isinstance(b.get("latency_cycles"), (int, float)):
        return None
    out = {"mean": b["latency_cycles"], "method": f"archbench {key}", "unit": "cycles"}
    parts = run.family(key).split("/")
    fine_key = run.one_key("/".join([parts[0], "fine", *parts[2:]]), **run.axes(key)) if parts[1:2] == ["chain"] else None
    fine = run.entries.get(fine_key) if fine_key else None
    if fine and isinstance(fine.get("latency_cycles"), (int, float)):
        out.update(p50=fine["latency_cycles"], p95=fine.get("latency_p95_cycles"),
                   sampleSize=int(fine.get("samples", 0)) or None, method=f"archbench {key}; p50, p95: {fine_key}")
    return {k: v for k, v in out.items() if v is not None}


def mt4g(doc, m, ceil):
    run = run_model.Run(doc)
    ctx = doc["context"]
    lat = {row["level"].split(" (")[0]: row["benchmark"] for row in ceil["latency"] if "benchmark" in row}
    bw = {(row["level"], row["kind"]): row for row in ceil["bandwidth"] if "not_measured" not in row}

    def chain(level):
        name = lat.get(level)
        return _latency(run, name) if name else None

    def gib(key):
        row = bw.get(key)
        return {"unit": "GiB/s", "value": row["bytes_per_second"] / GIB, "method": f"archbench {row['benchmark']}"} \
            if row else None

    def ctx_value(key, unit, scale=1):
        v = _ctx_number(ctx, key)
        return {"unit": unit, "value": int(v * scale)} if v else None

    l1cap, l1line = run.one("Geometry/l1/capacity", carveout=0), run.one("Geometry/l1/line")
    l2cap, l2line = run.one("Geometry/l2/capacity"), run.one("Geometry/l2/line")
    fill_ca, fill_cg = run.one("Geometry/fill/ld.ca"), run.one("Geometry/fill/ld.cg")
    ro = run.one("Geometry/readonly/capacity")
    const = run.one("Geometry/constant/capacity")
    ffma = run.best("results_per_clk_per_sm", family="Pipeline/throughput/ffma")
    mem = {
        "l1": {"amountPerMultiprocessor": 1,
               "latency": chain("L1 hit"),
               "lineSize": _measure(l1line, "line_bytes", "Geometry/l1/line", l1line and l1line.get("confidence")),
               "size": _measure(l1cap, "capacity_bytes", "Geometry/l1/capacity/carveout:0", l1cap and l1cap.get("confidence")),
               "fetchGranularity": _measure(fill_ca, "l1_fill_bytes", "Geometry/fill/ld.ca", fill_ca and fill_ca.get("confidence")),
               "missPenalty": {"unit": "cycles", "value": l1cap["miss_penalty_cycles"]} if l1cap and l1cap.get("miss_penalty_cycles") else None},
        "l2": {"latency": chain("L2 hit"),
               "lineSize": _measure(l2line, "line_bytes", "Geometry/l2/line", l2line and l2line.get("confidence")),
               "fetchGranularity": _measure(fill_cg, "l2_fill_bytes", "Geometry/fill/ld.cg", fill_cg and fill_cg.get("confidence")),
               "segmentSize": _measure(l2cap, "near_partition_bytes", "Geometry/l2/capacity",
                                       l2cap and l2cap.get("near_partition_confidence")),
               "size": ctx_value("gpu_l2_bytes", "bytes"),
               "missPenalty": {"unit": "cycles", "value": m["dram_latency"].value - m["l2_latency"].value}
               if "dram_latency" in m and "l2_latency" in m else None,
               "persistingL2CacheMaxSize": ctx_value("gpu_max_persisting_l2_bytes", "bytes"),
               "readBandwidth": gib(("L2, each SM its own slice", "read")), "writeBandwidth": gib(("L2", "write"))},
        "main": {"latency": chain("DRAM"), "memoryBusWidth": ctx_value("gpu_mem_bus_width_bits", "bit"),
                 "memoryClockRate": ctx_value("gpu_mem_clock_mhz", "kHz", 1000),
                 "totalGlobalMem": ctx_value("gpu_total_mem_bytes", "bytes"),
                 "readBandwidth": gib(("DRAM", "read")), "writeBandwidth": gib(("DRAM", "write"))},
        "shared": {"latency": {"mean": m["smem_latency"].value, "method": f"archbench {m['smem_latency'].source}",
                               "unit": "cycles"} if "smem_latency" in m else None,
                   "sharedMemPerBlock": ctx_value("gpu_smem_per_block_bytes", "bytes"),
                   "sharedMemPerMultiProcessor": ctx_value("gpu_smem_per_sm_bytes", "bytes"),
                   "reservedSharedMemPerBlock": ctx_value("gpu_reserved_smem_per_block_bytes", "bytes")},
        "readOnly": {"amountPerMultiprocessor": 1,
                     "size": _measure(ro, "capacity_bytes", "Geometry/readonly/capacity", ro and ro.get("confidence")),
                     "latency": {"mean": ro["hit_cycles"], "method": "archbench Geometry/readonly/capacity", "unit": "cycles"}
                     if ro and ro.get("hit_cycles") else None},
        "constant": {"l1": {"amountPerMultiprocessor": 1,
                            "size": _measure(const, "level1_capacity_bytes", "Geometry/constant/capacity",
                                             const and const.get("level1_confidence")),
                            "latency": {"mean": const["level1_hit_cycles"], "method": "archbench Geometry/constant/capacity",
                                        "unit": "cycles"} if const and const.get("level1_hit_cycles") else None},
                     "totalConstMem": {"unit": "bytes", "value": int(const["bank_bytes"])} if const and const.get("bank_bytes") else None},
    }

    def prune(d):
        return {k: prune(v) if isinstance(v, dict) else v for k, v in d.items() if v is not None and v != {}}
    cc = str(ctx.get("gpu_compute_capability", "0.0")).split(".")
    doc_out = {
        "compute": {"maxBlocksPerMultiProcessor": m["blocks_per_sm"].value if "blocks_per_sm" in m else None,
                    "maxThreadsPerMultiProcessor": m["threads_per_sm"].value if "threads_per_sm" in m else None,
                    "multiProcessorCount": m["sm_count"].value,
                    # FP32 lanes: the FFMA peak the suite computes for this GPU (measured: 99 % of it)
                    "numberOfCoresPerMultiProcessor": round(ffma[1].get("peak_results_per_clk_per_sm")
                                                            or ffma[1]["results_per_clk_per_sm"]) if ffma else None,
                    "regsPerMultiProcessor": m["regs_per_sm"].value if "regs_per_sm" in m else None, "warpSize": 32},
        "general": {"clockRate": {"unit": "kHz", "value": m["sm_clock_mhz"].value * 1000} if "sm_clock_mhz" in m else None,
                    "computeCapability": {"major": int(cc[0]), "minor": int(cc[1])} if len(cc) == 2 and cc[0].isdigit() else None,
                    "name": ctx.get("gpu_name"), "vendor": "NVIDIA"},
        "memory": mem,
        "meta": {"tool": f"archbench {ctx.get('archbench_git_sha', '')}", "driver": ctx.get("gpu_driver_version"),
                 "timestamp": ctx.get("date"), "board": ctx.get("gpu_uuid")},
    }
    return prune(doc_out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="an archbench result file (JSON, .json.gz)")
    ap.add_argument("--format", required=True, choices=("accel-sim", "json", "mt4g"))
    ap.add_argument("--base", metavar="CONFIG", help="accel-sim: a shipped gpgpusim.config whose unmeasured options follow")
    ap.add_argument("--out", help="the file to write (default: standard output)")
    args = ap.parse_args(argv)
    try:
        if args.base and args.format != "accel-sim":
            raise compare.InputError("--base goes with --format accel-sim")
        doc = resultfile.load_or_exit(args.run, "export_model.py")
        m, ceil = measured(doc, args.run)
        if "sm_count" not in m:
            raise compare.InputError(f"{args.run}: no GPU properties in its context: not a run of archbench's")
        if args.format == "accel-sim":
            text, filled = accel_sim(m, os.path.basename(args.run), args.base)
        elif args.format == "mt4g":
            text, filled = json.dumps(mt4g(doc, m, ceil), indent=4) + "\n", m
        else:
            text, filled = json.dumps(machine(m, ceil), indent=1) + "\n", m
        if args.out:
            try:
                with open(args.out, "w") as f:
                    f.write(text)
            except OSError as e:
                raise compare.InputError(f"{args.out}: cannot write: {e.strerror or e}")
            print(f"export_model.py: wrote {args.out} ({len(filled)} measured)")
        else:
            sys.stdout.write(text)
    except compare.InputError as e:
        print(f"export_model.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

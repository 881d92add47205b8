#!/usr/bin/env python3
"""Public measurements of other GPUs as archbench references, made from the sources' own files.

Usage:
    import_references.py mt4g FILE.json... [--commit SHA] [--out DIR]
    import_references.py gpu-benches DIR [--commit SHA] [--out DIR]
    import_references.py ai-kernels DIR [--commit SHA] [--out DIR]
    import_references.py chipbenchmarker README.md [--commit SHA] [--out DIR]

mt4g: MT4G's result JSON (github.com/caps-tum/mt4g, sample_results/<GPU>.json), each figure with
its method (p-chase), its sample and confidence where MT4G gives them. gpu-benches: RRZE
gpu-benches' result files (github.com/RRZE-HPC/gpu-benches; DIR holds gpu-latency/, gpu-l2-cache/,
gpu-cache/, gpu-stream/ as the repository does), each figure computed from the rows it names: a
latency is the median over the data sets inside one level, a bandwidth the best row or the mean
of a window, as each quantity says. ai-kernels: the latency curves of Mark Dewing's AI_kernels
(github.com/markdewing/AI_kernels; DIR holds latency/data/<gpu>.dat: bytes, KiB, MiB, cycles per
footprint), read in the same level windows as gpu-latency's. chipbenchmarker: the Performance
table of ChipBenchmarker's README (github.com/chanzhennan/ChipBenchmarker), one row per GPU, each
value the cell its column names. The level windows come from the GPU's public L1 and L2 sizes
(results/reference/facts/gpus.json), never from the curve a tool drew.

Writes one file per GPU and source into DIR (default results/reference/): mt4g-<gpu>.json,
rrze-gpu-benches-<gpu>.json, ai-kernels-<gpu>.json, chipbenchmarker-<gpu>.json, in the reference format (docs/references.md): every value a positive
number with a `source` (repository, commit, file, the rows or keys used) and a one-line
`provenance`. The source files the committed references were made from are in
tests/data/sources/ (tests/scripts/test_import_references.py makes them again and compares).
Exit codes: 0 written, 2 bad input (one line).
"""
import argparse
import json
import os
import re
import statistics
import sys

from archbench_tools import paths

FACTS = paths.in_root("results", "reference", "facts", "gpus.json", required=False)
MT4G_REPO, MT4G_COMMIT = "github.com/caps-tum/mt4g", "4cc55662a9541a40e91909c61d543c524ae04fcb"
RRZE_REPO, RRZE_COMMIT = "github.com/RRZE-HPC/gpu-benches", "1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b"
AIK_REPO, AIK_COMMIT = "github.com/markdewing/AI_kernels", "d916a39bf01685df536f09aa11eadc35758956b9"
CHIPB_REPO, CHIPB_COMMIT = "github.com/chanzhennan/ChipBenchmarker", "f556fbe12a980ab0478c44739927023834a63cc9"
GIB = 1024.0 ** 3

# MT4G's device names, and gpu-benches' file stems, to the model ids of gpus.json.
MT4G_MODELS = {"NVIDIA A100-PCIE-40GB": "a100-40", "NVIDIA GeForce RTX 2080 Ti": "rtx-2080-ti",
               "NVIDIA H100 80GB HBM3": "h100-sxm", "NVIDIA H100 NVL": "h100-nvl", "NVIDIA T1000": "t1000",
               "Quadro P6000": "p6000", "Tesla V100-PCIE-16GB": "v100", "AMD Instinct MI100": "mi100",
               "AMD Instinct MI210": "mi210", "AMD Instinct MI300X VF": "mi300x"}
RRZE_MODELS = {"a100_40": "a100-40", "a100_80": "a100-80", "a40": "a40", "gh200": "gh200", "h100_pcie": "h100-pcie",
               "h200": "h200", "l40": "l40", "mi100": "mi100", "mi210": "mi210", "mi300a": "mi300a",
               "mi300x": "mi300x", "rx6900xt": "rx-6900-xt", "v100": "v100"}
# AI_kernels' curve files. Its "RTX 2000" is an RTX A2000: the README's table gives it a 128 KiB L1,
# a 3 MiB L2 and 6 GiB of memory, which only the Ampere GA106 board of that name has (the Ada
# "RTX 2000" has a 12 MB L2 and 16 GB); its curve's L2 edge (near 3 MB) agrees.
AIK_MODELS = {"4090": "rtx-4090", "5090": "rtx-5090", "a100sxm": "a100-80", "b200": "b200", "b300": "b300",
              "gh200": "gh200", "h100sxm": "h100-sxm", "rtx2000": "rtx-a2000", "rtxpro6000": "rtx-pro-6000",
              "v100": "v100"}
# ChipBenchmarker's row labels. Its MXC500 (MetaX) has no public cache sizes or release month to
# place it by; it is left out.
CHIPB_MODELS = {"CUDA A100(80G)": "a100-80", "CUDA H800(80G)": "h800-pcie", "AMD MI210(64G)": "mi210",
                "AMD RX7900(20G)": "rx-7900-xt"}


class InputError(Exception):
    pass


def load_facts(path=FACTS):
    try:
        return json.load(open(path))["gpus"]
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"{path}: not the GPU facts file ({e})")


def reference(model, facts, source_name, provenance, clock_mhz=None):
    f = facts[model]
    ctx = {"gpu_name": f"{f['vendor']} {f['name']} ({source_name})", "gpu_model": model, "gpu_vendor": f["vendor"],
           "gpu_chip": f["chip"], "gpu_architecture": f["architecture"], "gpu_release": f["release"],
           "reference": True, "reference_source": source_name, "provenance": provenance,
           "note": "Figures from the source's own published files, each naming the keys or rows it comes from; "
                   "the source's code is not used. Latencies in cycles at the clock the source gives."}
    if clock_mhz:
        ctx["gpu_max_sm_clock_mhz"] = clock_mhz
    return {"context": ctx, "benchmarks": []}


def add(doc, quantity, value, source, provenance, method=None):
    if value is None or not value > 0:
        return
    b = {"name": f"Reference/{quantity}", "run_type": "reference", "value": round(float(value), 4),
         "source": source, "provenance": provenance}
    if method:
        b["method"] = method
    doc["benchmarks"].append(b)


# --- MT4G ------------------------------------------------------------------------------------------

def _get(d, *keys):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def import_mt4g(path, facts, commit=MT4G_COMMIT):
    try:
        doc = json.load(open(path))
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}")
    except ValueError as e:
        raise InputError(f"{path}: not JSON ({e})")
    name = _get(doc, "general", "name")
    mem = doc.get("memory") if isinstance(doc, dict) else None
    if not isinstance(name, str) or not isinstance(mem, dict):
        raise InputError(f"{path}: not an MT4G result (no general.name or memory)")
    if name not in MT4G_MODELS:
        raise InputError(f"{path}: MT4G device {name!r} is not in the model table (scripts/import_references.py)")
    model = MT4G_MODELS[name]
    clock = _get(doc, "general", "clockRate")
    clock_mhz = clock["value"] / 1000.0 if isinstance(clock, dict) and clock.get("unit") == "kHz" else None
    fname = os.path.basename(path)
    ref = reference(model, facts, "MT4G", f"MT4G ({MT4G_REPO}) at {commit[:12]}: sample_results/{fname}, "
                    f"its measurement of {name}", clock_mhz)

    def src(keys):
        return {"repository": MT4G_REPO, "commit": commit, "file": f"sample_results/{fname}", "keys": keys}

    def latency(level, quantity):
        lat = _get(mem, level, "latency")
        if isinstance(lat, dict) and lat.get("unit") == "cycles" and "p50" in lat:
            keys = f"memory.{level}.latency.p50"
            add(ref, quantity, lat["p50"], src(keys),
                f"sample_results/{fname}: {keys} (median of {lat.get('measurements')} of a {lat.get('method')})",
                lat.get("method"))

    def size(level, key, quantity):
        s = _get(mem, level, key)
        if isinstance(s, dict) and s.get("unit") == "bytes":
            value = s.get("size", s.get("value"))
            conf = s.get("confidence")
            keys = f"memory.{level}.{key}"
            if conf is not None and conf < 0.5:
                return  # MT4G's own confidence says it did not find it
            add(ref, quantity, value, src(keys),
                f"sample_results/{fname}: {keys}" + (f" (confidence {conf:.3f})" if conf is not None else ""),
                s.get("method"))

    def bandwidth(level, key, quantity):
        b = _get(mem, level, key)
        if isinstance(b, dict) and b.get("unit") == "GiB/s":
            keys = f"memory.{level}.{key}"
            add(ref, quantity, b["value"] * GIB, src(keys), f"sample_results/{fname}: {keys} (GiB/s)")

    latency("l1", "l1_hit_latency_cycles")
    latency("l2", "l2_hit_latency_cycles")
    latency("main", "dram_latency_cycles")
    latency("shared", "smem_latency_cycles")
    size("l1", "size", "l1_bytes")
    size("l1", "lineSize", "l1_line_bytes")
    size("l1", "fetchGranularity", "l1_fetch_bytes")
    size("l2", "size", "l2_bytes")
    size("l2", "lineSize", "l2_line_bytes")
    size("l2", "fetchGranularity", "l2_fetch_bytes")
    bandwidth("l2", "readBandwidth", "l2_read_bytes_per_second")
    bandwidth("l2", "writeBandwidth", "l2_write_bytes_per_second")
    bandwidth("main", "readBandwidth", "dram_read_bytes_per_second")
    bandwidth("main", "writeBandwidth", "dram_write_bytes_per_second")
    return f"mt4g-{model}.json", ref


# --- RRZE gpu-benches ------------------------------------------------------------------------------

NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def _rows(path, pattern):
    try:
        text = open(path).read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}")
    rows = [m.groups() for m in re.finditer(pattern, text, re.M)]
    if not rows:
        raise InputError(f"{path}: no row of the tool's output format")
    return rows


def _clock(path):
    """The SM clock (MHz) a file gives: gpu-latency's clock column (median), else the highest of
    the `clock:` line (it starts at the idle clock and ramps up)."""
    text = open(path).read()
    column = [float(c) for c in re.findall(r"^\s*\d+\s+(\d+)\s+" + NUMBER + r"\s+" + NUMBER + r"\s+" + NUMBER, text, re.M)]
    if column:
        return statistics.median(column)
    m = re.search(r"^clock:((?:\s+\d+)+)", text, re.M)
    return max(float(c) for c in m.group(1).split()) if m else None


def _rrze_source(commit, rel, rows):
    return {"repository": RRZE_REPO, "commit": commit, "file": rel, "rows": rows}


def _window(rows, lo, hi):
    return [(x, y) for x, y in rows if lo <= x <= hi]


def _kb(n):
    return f"{n / 1024:g} kB" if n < 1 << 20 else f"{n / (1 << 20):g} MB"


def level_latencies(rows, gpu):
    """(quantity, median cycles, lo, hi, what, points) per level of a latency curve [(bytes, cycles)],
    each the median inside its level's window from the GPU's public L1 and L2 sizes."""
    l1, l2 = gpu.get("l1_bytes"), gpu.get("l2_bytes")
    if not l1 or not l2:
        return
    for quantity, lo, hi, what in (("l1_hit_latency_cycles", 2048, l1 / 2, "inside half the L1"),
                                   ("l2_hit_latency_cycles", 4 * l1, l2 / 4, "from 4x the L1 to a quarter of the L2"),
                                   ("dram_latency_cycles", 4 * l2, 16 * l2, "from 4x to 16x the L2")):
        w = _window(rows, lo, hi)
        if len(w) >= 3:
            yield quantity, statistics.median(y for _, y in w), lo, hi, what, w


def rrze_latency(path, rel, gpu, ref, commit):
    """gpu-latency: columns iterations, clock, data set (kB), ns, cycles...; the median cycles per level."""
    rows = [(float(r[0]) * 1024, float(r[1])) for r in
            _rows(path, rf"^\s*\d+\s+\d+\s+({NUMBER})\s+{NUMBER}\s+({NUMBER})")]
    for quantity, value, lo, hi, what, w in level_latencies(rows, gpu):
        add(ref, quantity, value, _rrze_source(commit, rel, f"data sets {_kb(lo)}-{_kb(hi)}"),
            f"{rel}: median of the cycles column over its {len(w)} data sets of {_kb(w[0][0])}-{_kb(w[-1][0])} "
            f"({what}), a pointer chase by one thread", "p-chase")


def rrze_l2_cache(path, rel, gpu, ref, commit):
    """gpu-l2-cache: block chunk (kB), data set (kB), time, spread, GB/s; blocks read chunks other blocks read too."""
    rows = [(float(r[0]) * 1024, float(r[1]) * 1e9) for r in
            _rows(path, rf"^\s*{NUMBER}\s+kB\s+({NUMBER})\s+kB\s+{NUMBER}ms\s+{NUMBER}%\s+({NUMBER})\s+GB/s")]
    l2 = gpu.get("l2_bytes")
    if not l2:
        return
    w = _window(rows, l2 / 3 * 0.8, l2 / 3 * 1.2)
    if w:
        add(ref, "l2_read_shared_bytes_per_second", statistics.mean(y for _, y in w),
            _rrze_source(commit, rel, "data sets within 20 % of a third of the L2"),
            f"{rel}: mean of the effective bandwidth over its {len(w)} data sets within 20 % of a third of the "
            f"{_kb(l2)} L2 (blocks read chunks that other blocks read too: data shared by SMs)")
    w = _window(rows, 8 * l2, float("inf"))
    if len(w) >= 3:
        add(ref, "dram_read_bytes_per_second", statistics.median(y for _, y in w),
            _rrze_source(commit, rel, "data sets of 8x the L2 and more"),
            f"{rel}: median of the effective bandwidth over its {len(w)} data sets of 8x the L2 and more")


def rrze_cache(path, rel, gpu, ref, commit):
    """gpu-cache: data set (kB), time, spread, GB/s; every SM reads its own data set again and again."""
    rows = [(float(r[0]) * 1024, float(r[1]) * 1e9) for r in
            _rows(path, rf"^\s*({NUMBER})\s+kB\s+{NUMBER}ms\s+{NUMBER}%\s+({NUMBER})\s+GB/s")]
    l1 = gpu.get("l1_bytes")
    if not l1:
        return
    w = _window(rows, 0, l1 / 2)
    if w:
        x, y = max(w, key=lambda t: t[1])
        add(ref, "l1_read_bytes_per_second", y,
            _rrze_source(commit, rel, "the best of the data sets up to half the L1"),
            f"{rel}: the best effective bandwidth of its {len(w)} data sets up to half the {_kb(l1)} L1 (at {_kb(x)})")


def rrze_stream(path, rel, gpu, ref, commit):
    """gpu-stream: block, smBlocks, threads, occ%, GB/s of init, read, scale, triad, 3pt, 5pt per launch shape."""
    rows = _rows(path, rf"^[^|\n]*\|\s+GB/s:\s+({NUMBER})\s+({NUMBER})\s+({NUMBER})")
    for column, quantity, what in ((0, "dram_write_bytes_per_second", "init (stores only)"),
                                   (2, "dram_copy_bytes_per_second", "scale (a read and a write per element)")):
        values = [float(r[column]) * 1e9 for r in rows]
        add(ref, quantity, max(values),
            _rrze_source(commit, rel, f"the best launch shape of {what.split()[0]}"),
            f"{rel}: the best of its {len(values)} launch shapes' {what} bandwidth")


TOOLS = (("gpu-latency", rrze_latency), ("gpu-l2-cache", rrze_l2_cache), ("gpu-cache", rrze_cache),
         ("gpu-stream", rrze_stream))


def import_gpu_benches(root, facts, commit=RRZE_COMMIT):
    if not os.path.isdir(root):
        raise InputError(f"{root}: no such folder (a checkout of gpu-benches, or tests/data/sources/gpu-benches)")
    out = {}
    for tool, reader in TOOLS:
        folder = os.path.join(root, tool)
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            stem = f[:-4] if f.endswith(".txt") else None
            if stem not in RRZE_MODELS:
                continue
            model = RRZE_MODELS[stem]
            if model not in out:
                out[model] = reference(model, facts, "RRZE gpu-benches",
                                       f"RRZE gpu-benches ({RRZE_REPO}) at {commit[:12]}: its published result files "
                                       f"(gpu-latency, gpu-l2-cache, gpu-cache, gpu-stream)")
            path = os.path.join(folder, f)
            clock = _clock(path)
            if clock and ("gpu_max_sm_clock_mhz" not in out[model]["context"] or tool == "gpu-latency"):
                out[model]["context"]["gpu_max_sm_clock_mhz"] = clock
            reader(path, f"{tool}/{f}", facts[model], out[model], commit)
    if not out:
        raise InputError(f"{root}: no result file of a known GPU under gpu-latency/, gpu-l2-cache/, gpu-cache/ or gpu-stream/")
    return [(f"rrze-gpu-benches-{m}.json", ref) for m, ref in sorted(out.items()) if ref["benchmarks"]]


# --- AI_kernels ------------------------------------------------------------------------------------

def import_ai_kernels(root, facts, commit=AIK_COMMIT):
    folder = os.path.join(root, "latency", "data")
    if not os.path.isdir(folder):
        raise InputError(f"{root}: no latency/data/ folder (a checkout of AI_kernels, or tests/data/sources/ai-kernels)")
    out = []
    for f in sorted(os.listdir(folder)):
        stem = f[:-4] if f.endswith(".dat") else None
        if stem not in AIK_MODELS:
            continue
        model, rel = AIK_MODELS[stem], f"latency/data/{f}"
        rows = [(float(r[0]), float(r[1])) for r in
                _rows(os.path.join(folder, f), rf"^\s*(\d+)\s+\d+\s+\d+\s+({NUMBER})\s*$")]
        ref = reference(model, facts, "AI_kernels",
                        f"AI_kernels ({AIK_REPO}) at {commit[:12]}: {rel}, its latency curve (clocks not locked, "
                        f"latency/README.md)")
        for quantity, value, lo, hi, what, w in level_latencies(rows, facts[model]):
            add(ref, quantity, value,
                {"repository": AIK_REPO, "commit": commit, "file": rel, "rows": f"footprints {_kb(lo)}-{_kb(hi)}"},
                f"{rel}: median of the cycles column over its {len(w)} footprints of {_kb(w[0][0])}-{_kb(w[-1][0])} "
                f"({what}), a pointer chase by one thread", "p-chase")
        if ref["benchmarks"]:
            out.append((f"ai-kernels-{model}.json", ref))
    if not out:
        raise InputError(f"{folder}: no latency curve of a known GPU ({', '.join(sorted(AIK_MODELS))}.dat)")
    return out


# --- ChipBenchmarker -------------------------------------------------------------------------------

# Its Performance table's columns (the header's text) to quantities: (quantity, unit the cell is
# in, the factor to the quantity's unit). GB/s are read as 10^9 bytes per second.
CHIPB_COLUMNS = {"Dram BW (Read)": ("dram_read_bytes_per_second", "GB/s", 1e9),
                 "Dram BW (Write)": ("dram_write_bytes_per_second", "GB/s", 1e9),
                 "Dram BW (Copy)": ("dram_copy_bytes_per_second", "GB/s", 1e9),
                 "Dram Latency (cycles)": ("dram_latency_cycles", "", 1),
                 "L2 BW": ("l2_read_bytes_per_second", "GB/s", 1e9),
                 "L2 Latency (cycles)": ("l2_hit_latency_cycles", "", 1),
                 "L1 Latency (cycles)": ("l1_hit_latency_cycles", "", 1),
                 "Smem BW (Measured) (byte/cycle)": ("smem_read_bytes_per_clk_per_sm", "", 1),
                 "Smem Latency (cycles)": ("smem_latency_cycles", "", 1)}


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def import_chipbenchmarker(path, facts, commit=CHIPB_COMMIT):
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}")
    start = next((i for i, l in enumerate(lines) if l.strip() == "## Performance"), None)
    if start is None or start + 3 >= len(lines) or not lines[start + 2].lstrip().startswith("|"):
        raise InputError(f"{path}: no '## Performance' table (ChipBenchmarker's README.md)")
    header = _cells(lines[start + 2])
    out = []
    for n, line in enumerate(lines[start + 4:], start + 5):
        if not line.lstrip().startswith("|"):
            break
        cells = _cells(line)
        label = re.sub(r"^\[(.*?)\]\(.*\)$", r"\1", cells[0])
        if label not in CHIPB_MODELS:
            continue
        model = CHIPB_MODELS[label]
        ref = reference(model, facts, "ChipBenchmarker",
                        f"ChipBenchmarker ({CHIPB_REPO}) at {commit[:12]}: README.md's Performance table, the "
                        f"row of {label}")
        for column, cell in zip(header, cells):
            if column not in CHIPB_COLUMNS:
                continue
            quantity, unit, factor = CHIPB_COLUMNS[column]
            m = re.fullmatch(rf"({NUMBER})\s*{re.escape(unit)}", cell)
            if not m:
                continue  # a cell the source has not measured (its hammer sign) or left empty
            add(ref, quantity, float(m.group(1)) * factor,
                {"repository": CHIPB_REPO, "commit": commit, "file": "README.md", "rows": f"line {n}: {label}"},
                f"README.md: the Performance table's {column!r} of {label} ({cell}, line {n})")
        if ref["benchmarks"]:
            out.append((f"chipbenchmarker-{model}.json", ref))
    if not out:
        raise InputError(f"{path}: no row of a known GPU in the Performance table ({', '.join(CHIPB_MODELS)})")
    return out


def write(out_dir, name, doc):
    path = os.path.join(out_dir, name)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="source", required=True)
    m = sub.add_parser("mt4g", help="MT4G result JSON files")
    m.add_argument("files", nargs="+")
    m.add_argument("--commit", default=MT4G_COMMIT)
    g = sub.add_parser("gpu-benches", help="a gpu-benches checkout (or its result files in the same folders)")
    g.add_argument("dir")
    g.add_argument("--commit", default=RRZE_COMMIT)
    a = sub.add_parser("ai-kernels", help="an AI_kernels checkout (or its latency/data/ files)")
    a.add_argument("dir")
    a.add_argument("--commit", default=AIK_COMMIT)
    c = sub.add_parser("chipbenchmarker", help="ChipBenchmarker's README.md")
    c.add_argument("readme")
    c.add_argument("--commit", default=CHIPB_COMMIT)
    for p in (m, g, a, c):
        p.add_argument("--out", default=paths.in_root("results", "reference", required=False))
    args = ap.parse_args(argv)
    try:
        if not os.path.isdir(args.out) or not os.access(args.out, os.W_OK):
            raise InputError(f"--out {args.out}: not a folder this user can write")
        facts = load_facts()
        if args.source == "mt4g":
            made = [import_mt4g(f, facts, args.commit) for f in args.files]
        elif args.source == "gpu-benches":
            made = import_gpu_benches(args.dir, facts, args.commit)
        elif args.source == "ai-kernels":
            made = import_ai_kernels(args.dir, facts, args.commit)
        else:
            made = import_chipbenchmarker(args.readme, facts, args.commit)
        for name, doc in made:
            path = write(args.out, name, doc)
            print(f"{path}: {len(doc['benchmarks'])} value(s)")
    except InputError as e:
        print(f"import_references.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Plots and a Markdown report for archbench runs: every feature's plots, the cross-generation
plot, and a table of what the suite inferred (the geometry table).

Usage: report.py [--out DIR] [--reference DIR] FILE...
       report.py --latest RESULTS_DIR      (the newest run of every GPU under RESULTS_DIR)

Writes DIR/index.md (default: a `report` folder next to the first file) and the same report as
DIR/index.html for a browser, with the plots (PNG and SVG) beside them. Features a file lacks are skipped quietly; a file that is not archbench JSON is
named in a one-line error (exit 2).
"""
import argparse
import glob
import json
import os
import statistics
import sys

from archbench_tools import paths
from archbench_tools.tables import features  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402

# One line under each plot of the report: what it shows. A feature's are in its row of the table
# (benchmarks/features.json, `captions`); the generations' plots are no feature's.
CAPTIONS = {
    **features.captions(),
    "generations_latency": "This GPU's latencies against published values of earlier GPUs.",
    "generations_release": "Across generations by release: latencies, capacities, bandwidths and throughputs of this GPU (black stars) beside every published figure (docs/references.md names each source and method).",
}

PLOTS = features.plots()  # benchmarks/features.json, in its order



def split_probability(b):
    """The L2 home split's probability: l2_split_probability, or in files of 2026-11-24 the same
    figure under l2_split_confidence; before that day that name held robust separations (>1)."""
    if "l2_split_probability" in b:
        return f"split probability {b['l2_split_probability']:.2f}"
    v = b.get("l2_split_confidence")
    if v is None:
        return "split probability not reported"
    return f"split probability {v:.2f}" if v <= 1 else f"split: {v:.1f} robust sds (legacy counter)"


def fmt_bytes(n):
    for unit, size in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]:
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n:g} B"


def _flat_sweep(doc, op, axes):
    """What a TLB case without an inferred level read, from its own sweep (Tlb/latency/<op> with
    the case's axes, over strides and footprints): its latencies, how far it went, and whether it
    stayed at the L1's hit latency throughout."""
    run = run_model.Run(doc)
    pts = [b for _, b in run.select(family=f"Tlb/latency/{op}", counter="latency_cycles", **axes)
           if isinstance(b.get("footprint_bytes"), (int, float))]
    if not pts:
        return ""
    lo, hi = min(b["latency_cycles"] for b in pts), max(b["latency_cycles"] for b in pts)
    l1 = [b["hit_cycles"] for _, b in run.select(family="Geometry/l1/capacity", counter="hit_cycles")]
    at_l1 = " (the L1's hit latency: each chase's few lines stay in the L1, and no TLB miss shows)" \
        if l1 and abs(statistics.median(l1) - (lo + hi) / 2) < 2 and hi - lo < 2 else ""
    return (f": its {len(pts)} chases read {lo:.1f}-{hi:.1f} cycles up to "
            f"{fmt_bytes(max(b['footprint_bytes'] for b in pts))}{at_l1}")


def geometry_rows(doc):
    """(quantity, value, where it comes from) for every inference the run made."""
    rows = []
    for b in doc.get("benchmarks", []):
        name = b.get("name", "").split("/iterations")[0]
        if not resultfile.measured(b):
            continue
        family, axes = resultfile.family(b), resultfile.axes(b)
        # a TLB case: the op after the family's two parts and the case's axes ("ld.cg/mapping:managed")
        case = "/".join(family.split("/")[2:] + [f"{k}:{v}" for k, v in axes.items()])
        if family == "SmemBanks/geometry" and not axes:
            rows.append(("shared-memory banks", f"{int(b['banks'])} x {int(b['bank_width_bytes'])} B, "
                         f"{b['cycles_per_wavefront']:.2f} cycles per wavefront", f"confidence {b['confidence']:.3f}", name))
        elif resultfile.is_under(family, "Tlb/geometry") and b.get("levels", 0) > 0:
            page = fmt_bytes(b["page_size_bytes"]) if b.get("page_size_bytes") else "not seen"
            for i in range(1, int(b["levels"]) + 1):
                rows.append((f"TLB level {i} ({case})",
                             f"{b[f'level{i}_entries']:.0f} entries of {page}, reach {fmt_bytes(b[f'level{i}_reach_bytes'])}, "
                             f"miss +{b[f'level{i}_miss_penalty_cycles']:.0f} cycles",
                             f"confidence {b[f'level{i}_confidence']:.2f}", name))
        elif resultfile.is_under(family, "Tlb/geometry"):
            rows.append((f"TLB ({case})", "no level inferred" + _flat_sweep(doc, family.split("/")[2], axes), "", name))
        elif family == "Geometry/l1/capacity":
            rows.append((f"L1 capacity, carveout hint {int(b['carveout_pct'])} %",
                         f"{fmt_bytes(b['capacity_bytes'])} (misses from {fmt_bytes(b['onset_bytes'])}), "
                         f"hit {b['hit_cycles']:.0f} cycles, miss +{b['miss_penalty_cycles']:.0f}",
                         f"confidence {b['confidence']:.2f}", name))
        elif family in ("Geometry/l1/line", "Geometry/l2/line") and not axes:
            level = resultfile.family_parts(b)[1].upper()
            value = f"{int(b['line_bytes'])} B" if b.get("line_bytes") else "not inferred"
            rows.append((f"{level} line (allocation unit)", value, f"confidence {b['confidence']:.2f}", name))
        elif family == "Geometry/l1/sets_ways" and not axes:
            value = f"{int(b['ways'])} ways x {int(b['sets'])} sets" if b.get("ways") else \
                f"not inferred: {resultfile.label_note(b) or 'no floor at power-of-two spacings'}"
            rows.append(("L1 sets and ways", value, f"confidence {b['confidence']:.2f}", name))
        elif family == "Geometry/fill/ld.ca" and not axes:
            rows.append(("L1 fill from L2 (sector)", f"{int(b['l1_fill_bytes'])} B", f"confidence {b['confidence']:.2f}", name))
        elif family == "Geometry/fill/ld.cg" and not axes:
            rows.append(("L2 fill from DRAM", f"{int(b['l2_fill_bytes'])} B", f"confidence {b['confidence']:.2f}", name))
        elif family == "Geometry/l2/capacity" and not axes:
            if "far_partition_bytes" in b:  # each partition by its own SM (docs/geometry.md)
                value = (f"{fmt_bytes(b['capacity_bytes'])} ({100 * b['capacity_vs_api']:.1f} % of the API's): partitions "
                         f"{fmt_bytes(b['near_partition_bytes'])} + {fmt_bytes(b['far_partition_bytes'])}; "
                         f"hit {b['near_hit_cycles']:.0f} cycles; the misses of a zigzag chase just past one "
                         f"partition {b['dram_cycles']:.0f} (not the DRAM latency: a chain over the whole memory, "
                         f"MemLatency's, reads more)")
                if "capacity_vs_api_enabled" in b:  # --counters: the slices of enabled channels
                    value += (f"; {100 * b['capacity_vs_api_enabled']:.1f} % of the {int(b['l2_slices'])} slices "
                              f"that carry data ({fmt_bytes(b['api_l2_enabled_bytes'])})")
            else:  # one search over every line (results before the partition chases)
                value = (f"{fmt_bytes(b['capacity_bytes'])} ({100 * b['capacity_vs_api']:.1f} % of the API's), "
                         f"near part {fmt_bytes(b['near_partition_bytes'])}; hit near {b['near_hit_cycles']:.0f} / "
                         f"far {b['far_hit_cycles']:.0f} cycles, DRAM {b['dram_cycles']:.0f}")
            rows.append(("L2 capacity", value, f"confidence {b['capacity_confidence']:.2f} / "
                         f"{b.get('near_partition_confidence', 0):.2f}", name))
        elif family == "Geometry/l2/sm_map" and not axes:
            rows.append(("L2 latency over the SMs", f"near {b['near_min_cycles']:.0f}-{b['near_max_cycles']:.0f} "
                         f"(median {b['near_median_cycles']:.0f}), far {b['far_min_cycles']:.0f}-{b['far_max_cycles']:.0f} "
                         f"(median {b['far_median_cycles']:.0f}) cycles", f"{int(b['near_sms'])} SMs", name))
        elif resultfile.is_under(family, "Atomics/global") and "l2_near_atomic_cycles" in b and not any(
                r[0] == "L2 home partitions" for r in rows):
            rows.append(("L2 home partitions", f"near {b['l2_near_atomic_cycles']:.0f} / far {b['l2_far_atomic_cycles']:.0f} "
                         f"cycles per probe step, {100 * b['l2_near_fraction']:.0f} % near",
                         split_probability(b), name))
    return rows


def load(path):
    return resultfile.load_or_exit(path, "report.py")


WALL_PREFIX = "archbench_wall_seconds_"  # the run's time accounting (docs/output.md)


def time_lines(doc, slowest=5):
    """'Where the time went': each feature's wall seconds from the context, largest first, with
    start-up and total, then the slowest benchmarks (their wall_time_s); [] for a run written
    before the time accounting."""
    ctx = doc["context"]
    parts = {k[len(WALL_PREFIX):]: v for k, v in ctx.items() if k.startswith(WALL_PREFIX)}
    if not parts:
        return []
    def seconds(v):
        try:
            return float(v)
        except (TypeError, ValueError):
            return 0.0
    total = seconds(parts.pop("total", 0))
    lines = ["| Part | Seconds | Share |", "|---|---|---|"]
    for name, v in sorted(parts.items(), key=lambda kv: -seconds(kv[1])):
        share = f"{100 * seconds(v) / total:.0f} %" if total > 0 else ""
        lines.append(f"| {name} | {seconds(v):.1f} | {share} |")
    lines.append(f"| total | {total:.1f} | |")
    timed = sorted((b for b in doc["benchmarks"] if isinstance(b.get("wall_time_s"), (int, float))),
                   key=lambda b: -b["wall_time_s"])[:slowest]
    if timed:
        lines += ["", "Slowest benchmarks (set-up and calibration included):", ""]
        lines += [f"- {b['wall_time_s']:.1f} s `{b['name']}`" for b in timed]
    return lines


# Features a run may lack and still be whole: P2P runs apart on a node (run_node.py), Fault only
# under fault injection, Energy only when asked for (benchmarks/features.json, `run`).
OPTIONAL_FEATURES = features.optional()


def features_of(doc):
    return {resultfile.feature(b) for b in doc.get("benchmarks", []) if isinstance(b, dict)}


def declared_features(doc):
    """The features the binary that wrote the run registers (its context names each one's method),
    or None for a run written before method identifiers."""
    keys = [k[len("archbench_method_"):] for k in doc.get("context", {}) if k.startswith("archbench_method_")]
    keys = [k for k in keys if k != "ids"]
    return set(keys) or None


def is_complete(doc, legacy_most):
    """A whole default run: every feature the binary registers has a benchmark (a run from before
    method identifiers: as many features as the fullest such run of its GPU); not quick, no
    planted fault."""
    ctx = doc.get("context", {})
    if ctx.get("archbench_quick") == "true" or ctx.get("archbench_fault"):
        return False
    declared = declared_features(doc)
    have = features_of(doc) - OPTIONAL_FEATURES
    return declared - OPTIONAL_FEATURES <= have if declared else len(have) >= legacy_most


def latest_runs(results_dir):
    """Per GPU folder (and its subfolders; `reference/` holds published values, not runs), the
    newest complete run by the run's own date (context, else file name: git gives every file the
    checkout's time). A GPU without a complete run gets its newest run of the most features, said
    on stderr. Returns [(gpu folder, file)]."""
    if not os.path.isdir(results_dir):
        print(f"report.py: error: --latest {results_dir}: no such directory", file=sys.stderr)
        sys.exit(2)
    chosen = []
    for gpu_dir in sorted(glob.glob(os.path.join(results_dir, "*", ""))):
        gpu = os.path.basename(os.path.normpath(gpu_dir))
        if gpu == "reference":
            continue
        runs = []
        for p in sorted(glob.glob(os.path.join(gpu_dir, "**", "*.json"), recursive=True) +
                        glob.glob(os.path.join(gpu_dir, "**", "*.json.gz"), recursive=True)):
            if os.sep + "report" + os.sep in p[len(gpu_dir) - 1:]:
                continue
            try:
                doc = resultfile.load(p)
                runs.append((resultfile.run_date(p, doc), p, doc))
            except resultfile.ResultError as e:
                print(f"report.py: note: {e}: not a run, skipped", file=sys.stderr)
        if not runs:
            continue
        legacy_most = max((len(features_of(d) - OPTIONAL_FEATURES) for _, _, d in runs if not declared_features(d)), default=0)
        complete = [r for r in runs if is_complete(r[2], legacy_most)]
        if complete:
            chosen.append((gpu_dir, max(complete, key=lambda r: (r[0], r[1]))[1]))
        else:
            date, path, doc = max(runs, key=lambda r: (len(features_of(r[2])), r[0], r[1]))
            print(f"report.py: note: {gpu}: no complete run; drew {os.path.relpath(path, results_dir)}, the newest "
                  f"with the most features ({len(features_of(doc))})", file=sys.stderr)
            chosen.append((gpu_dir, path))
    if not chosen:
        print(f"report.py: error: --latest {results_dir}: no run under it", file=sys.stderr)
        sys.exit(2)
    return chosen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--latest", metavar="RESULTS_DIR")
    ap.add_argument("--out")
    ap.add_argument("--list", action="store_true",
                    help="with --latest: print the runs it would report, each with its report's folder, and draw nothing")
    ap.add_argument("--reference", default=paths.in_root("results", "reference", required=False),
                    help="folder of published references for the cross-generation plot")
    args = ap.parse_args(argv)
    if not args.files and not args.latest:
        ap.error("no input: give FILE... or --latest RESULTS_DIR")
    if args.latest and args.out:
        ap.error("--latest writes each GPU's report in its own folder: drop --out")
    if args.list and not args.latest:
        ap.error("--list says which runs --latest would report: give --latest RESULTS_DIR")
    jobs = []  # (files, output folder)
    if args.files:
        files = list(args.files)
        jobs.append((files, args.out or os.path.join(os.path.dirname(os.path.abspath(files[0])), "report",
                                                     run_stem(files[0]))))
    if args.latest:
        for gpu_dir, f in latest_runs(args.latest):
            jobs.append(([f], os.path.join(gpu_dir, "report", run_stem(f))))
    if args.list:
        for files, out in jobs[1 if args.files else 0:]:
            print(f"{files[0]}\t{os.path.join(out, 'index.md')}")
        return 0
    for files, out in jobs:
        rc = write_report(files, out, args.reference)
        if rc:
            return rc
    return 0


def run_stem(path):
    name = os.path.basename(path)
    return name[:-len(".json.gz")] if name.endswith(".json.gz") else os.path.splitext(name)[0]


def _tb(v):
    return f"{v / 1e12:.2f} TB/s" if v else "-"


def _source_link(benchmark):
    """A ceiling's benchmark, linked to its feature's plots below."""
    feature = resultfile.feature_of_name(benchmark)
    return f"[`{benchmark}`](#feature-{feature.lower()})"


def text(value):
    """A value from a run's context as Markdown text: HTML's special characters escaped, so that a
    context holding markup (a '<script>' in a GPU's name) shows as text in a browser, as the dashboard
    shows it."""
    import html
    return html.escape(str(value), quote=False)


def gpu_card(path, doc, out):
    """The report's first section for one run: the GPU's card. The roofline (a picture written to
    `out`), then the hierarchy (capacity, latency, read/write/copy bandwidth per level) and the compute
    ceilings, each figure linked to the feature that measured it (ceilings.py, roofline.py)."""
    from archbench_tools.tables import ceilings
    from archbench_tools.tables import roofline
    c = ceilings.ceilings(doc, path)
    if all("not_measured" in x for x in c["bandwidth"] + c["compute"] + c["latency"] + c["capacity"]):
        return []
    r = c["run"]
    lines = ["", f"## {text(r['gpu_name'])}: the GPU's card (`{os.path.basename(path)}`)", "",
             f"Board {text(r['gpu_uuid'])} (part {text(r['board_part'])}), commit `{str(r['commit'])[:12]}`"
             + (f", {r['sm_count']:.0f} SMs" if r["sm_count"] else "")
             + (f" at up to {r['max_sm_clock_mhz']:.0f} MHz" if r["max_sm_clock_mhz"] else "")
             + (" (a quick run: fewer points)" if r["quick"] else "") + "."]
    rf = roofline.roofs(c)
    if rf["bandwidth"] and rf["compute"]:
        picture = f"roofline-{run_stem(path)}.png"
        roofline.draw(rf, [], os.path.join(out, picture), f"{r['gpu_name']} ({run_stem(path)})")
        lines += ["", f"![roofline]({picture})", "",
                  "The measured roofs: per level the best read (solid) and copy (dotted) rate, per precision "
                  "the best compute rate; dashed, the suite's theoretical figures. `scripts/roofline.py RUN "
                  "--kernels NCU.csv` places your kernels on it (docs/roofline.md)."]
    measured = lambda rows: [x for x in rows if "not_measured" not in x]  # noqa: E731
    caps = {x["level"]: x for x in measured(c["capacity"])}
    lats = {x["level"].split(" (")[0]: x for x in measured(c["latency"])}
    bws = {(x["level"], x["kind"]): x for x in measured(c["bandwidth"])}
    lines += ["", "| Level | Capacity | Latency | Read | Write | Copy | Sources |", "|---|---|---|---|---|---|---|"]
    rows = [("Shared memory", None, None, ("shared memory", "read"), None, None),
            ("L1", "L1 (no shared-memory carveout)", "L1 hit", ("L1", "read"), None, None),
            ("L2", "L2", "L2 hit", ("L2, each SM its own slice", "read"), ("L2", "write"), ("L2", "copy")),
            ("L2, data every SM reads", None, None, ("L2, data shared by every SM", "read"), None, None),
            ("DRAM", None, "DRAM", ("DRAM", "read"), ("DRAM", "write"), ("DRAM", "copy"))]
    for label, cap, lat, *kinds in rows:
        cap_row, lat_row = caps.get(cap), lats.get(lat)
        cells = [(f"{cap_row['bytes'] / 2 ** 20:.2f} MiB" if cap_row["bytes"] >= 2 ** 20 else f"{cap_row['bytes'] / 1024:.1f} KiB")
                 if cap_row else "-",
                 f"{lat_row['cycles']:.1f} cycles ({lat_row['ns']:.1f} ns)" if lat_row and lat_row.get("ns") else "-"]
        sources = [x["benchmark"] for x in (cap_row, lat_row) if x]
        for key in kinds:
            b = bws.get(key) if key else None
            cells.append(f"{_tb(b['bytes_per_second'])} ({b['bytes_per_clk_per_sm']:.1f} B/clk/SM)"
                         if b and b.get("bytes_per_clk_per_sm") else (_tb(b["bytes_per_second"]) if b else "-"))
            if b:
                sources.append(b["benchmark"])
        lines.append(f"| {label} | " + " | ".join(cells) + " | " + ", ".join(_source_link(s) for s in sources) + " |")
    lines += ["", "| Precision | Unit | Rate | Per clock per SM | Of the peak | Source |", "|---|---|---|---|---|---|"]
    for x in measured(c["compute"]):
        per_clk = x.get("flop_per_clk_per_sm") or x.get("results_per_clk_per_sm") or 0.0
        unit = x["per_second_unit"]
        rate = f"{x['per_second'] / 1e12:.1f} T{unit.split('/')[0]}/s" if x.get("per_second") else "-"
        lines.append(f"| {x['precision']} | {x['unit']} | {rate} | {per_clk:.1f} | "
                     f"{100 * x['ratio']:.1f} % | {_source_link(x['benchmark'])} |" if x.get("ratio") else
                     f"| {x['precision']} | {x['unit']} | {rate} | {per_clk:.1f} | - | {_source_link(x['benchmark'])} |")
    return lines


# Each quantity the public record and a run both give: (key, what, scale, unit).
PUBLIC_QUANTITIES = [("l1_hit_latency_cycles", "L1 hit latency", 1, "cycles"),
                     ("l2_hit_latency_cycles", "L2 hit latency", 1, "cycles"),
                     ("dram_latency_cycles", "DRAM latency", 1, "cycles"),
                     ("smem_latency_cycles", "shared-memory latency", 1, "cycles"),
                     ("l2_bytes", "L2 capacity", 1 / 2 ** 20, "MiB"),
                     ("l1_read_bytes_per_second", "L1 read", 1e-12, "TB/s"),
                     ("l2_read_shared_bytes_per_second", "L2 read, data shared by SMs", 1e-12, "TB/s"),
                     ("dram_read_bytes_per_second", "DRAM read", 1e-12, "TB/s"),
                     ("dram_write_bytes_per_second", "DRAM write", 1e-12, "TB/s"),
                     ("dram_copy_bytes_per_second", "DRAM copy", 1e-12, "TB/s"),
                     ("l2_read_bytes_per_second", "L2 read", 1e-12, "TB/s"),
                     ("smem_read_bytes_per_clk_per_sm", "shared-memory read per SM", 1, "B/clk/SM"),
                     ("f16_gemm_flop_per_second", "FP16 GEMM (cuBLAS)", 1e-12, "TFLOP/s"),
                     ("s8_gemm_ops_per_second", "INT8 GEMM (cuBLAS)", 1e-12, "TOP/s"),
                     ("fp64_gemm_flop_per_second", "FP64 GEMM (cuBLAS)", 1e-12, "TFLOP/s")]


def public_figures(path, doc, reference):
    """The run's figures beside every public figure of the same GPU model (results/reference/,
    the model found by the run's CUDA name in facts/gpus.json): the section's lines, or [] when
    the public record holds none of this model."""
    from archbench_tools.plots import plot_generations  # one owner of a run's figures for the generations
    try:
        facts = json.load(open(os.path.join(reference, "facts", "gpus.json")))["gpus"]
    except (OSError, ValueError, KeyError):
        return []
    name = doc["context"].get("gpu_name")
    model = next((m for m, f in facts.items() if name in f.get("cuda_names", [])), None)
    ours, _ = plot_generations.from_run(doc)
    rows = []
    for ref_path in sorted(glob.glob(os.path.join(reference, "*.json"))):
        try:
            ref = resultfile.load(ref_path)
        except resultfile.ResultError:
            continue
        if not model or ref["context"].get("gpu_model") != model:
            continue
        published = {resultfile.family(b).split("/", 1)[-1]: b for b in ref["benchmarks"]}
        for key, what, scale, unit in PUBLIC_QUANTITIES:
            if key in ours and key in published:
                v, p = ours[key] * scale, published[key]["value"] * scale
                rows.append(f"| {what} | {v:.4g} {unit} | {p:.4g} {unit} | {v / p:.3f} | "
                            f"`{os.path.basename(ref_path)}`: {published[key]['provenance']} |")
    if not rows:
        return []
    return (["", f"## {name} against the public record (`{os.path.basename(path)}`)", "",
             "Each figure of this run beside every published figure of the same GPU model; the methods "
             "differ, and docs/references.md says how and why the figures do.", "",
             "| Quantity | this run | published | ratio | source |", "|---|---|---|---|---|"] + rows)


def write_report(files, out, reference):
    """Every plot of the runs in `files`, and index.md, in `out`; prints the index's path."""
    docs = {f: load(f) for f in files}
    resultfile.output_dir_or_exit(out, "report.py")

    from archbench_tools.plots import plotlib  # matplotlib: needed for the plots only (it says so and exits 2 when missing)
    refs = sorted(glob.glob(os.path.join(reference, "*.json")))
    names = PLOTS + ["generations"]
    written = []
    # Each feature's plot script called as a function, side by side (plotlib.render_scripts).
    for name, (drawn, why) in zip(names, plotlib.render_scripts(
            (name, ["--out", out, *files, *(refs if name == "generations" else [])]) for name in names)):
        if why:
            print(f"report.py: plot_{name}.py failed: {why}", file=sys.stderr)
            return 1
        written += [os.path.basename(p) for p in drawn if p.endswith(".png")]

    lines = ["# archbench report", ""]
    for f, doc in docs.items():
        ctx = doc["context"]
        lines.append(f"- `{f}`: {text(ctx.get('gpu_name', '?'))}, commit `{ctx.get('archbench_git_sha', '?')}`, "
                     f"{len(doc['benchmarks'])} benchmarks, "
                     f"{sum(1 for b in doc['benchmarks'] if resultfile.failed(b))} errors, "
                     f"{sum(1 for b in doc['benchmarks'] if resultfile.skip_reason(b) is not None)} skipped (not for this GPU)")
    for f, doc in docs.items():
        lines += gpu_card(f, doc, out)
        lines += public_figures(f, doc, reference)
    rows = [r for doc in docs.values() for r in geometry_rows(doc)]
    if rows:
        lines += ["", "## Geometry the suite inferred", "", "| Quantity | Value | Confidence | Benchmark |", "|---|---|---|---|"]
        lines += [f"| {q} | {v} | {c} | `{n}` |" for q, v, c, n in rows]
    for f, doc in docs.items():
        t = time_lines(doc)
        if t:
            lines += ["", f"## Where the time went (`{os.path.basename(f)}`)", ""] + t
    lines += ["", "## Plots", ""]
    anchored = set()
    feature_of_file = {stem: r["name"].lower() for r in features.rows() for stem in r.get("plot_files") or []}
    for p in written:
        feature = feature_of_file.get(os.path.splitext(p)[0], p.split("_")[0])
        if feature not in anchored:  # the GPU card's links land here
            anchored.add(feature)
            lines += [f'<a id="feature-{feature}"></a>', ""]
        lines += [f"![{p}]({p})", "", CAPTIONS.get(os.path.splitext(p)[0], ""), ""]
    text_md = "\n".join(lines) + "\n"
    with open(os.path.join(out, "index.md"), "w") as f:
        f.write(text_md)
    write_html(text_md, os.path.join(out, "index.html"))
    print(os.path.join(out, "index.md"))
    return 0


HTML_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>archbench report</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }}
table {{ border-collapse: collapse; margin: 1em 0; }} th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; }}
th {{ background: #f3f3f3; }} img {{ max-width: 100%; }} code {{ background: #f6f6f6; padding: 0 0.2em; }}
</style></head>
<body>
{body}
</body></html>
"""


def write_html(text_md, path):
    """index.html beside index.md, the same report for a browser (the Markdown package's converter;
    the context's text is escaped in the Markdown already, so it stays text). Without the package, a
    note: the Markdown report stands."""
    try:
        import markdown
    except ImportError:
        print("report.py: note: index.html not written: the Python package markdown is not installed "
              "(pip install markdown; Debian: apt-get install python3-markdown)", file=sys.stderr)
        return None
    with open(path, "w") as f:
        f.write(HTML_PAGE.format(body=markdown.markdown(text_md, extensions=["tables"], output_format="html")))
    return path


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compares the archbench results of several GPUs (of one node, or of a fleet) and flags the GPU
whose results fall outside the spread of its siblings.

Usage: node_summary.py [--out DIR] [--threshold PCT] [--fail-on-outlier] FILE_OR_DIR...

Directories are searched for *.json (earlier node_summary.json files excepted); the files of one GPU
(its uuid and host) are taken together. GPUs are grouped by model (gpu_name): only siblings of the
same model are compared, and a group whose drivers differ is named in the report.

The rule. Compared are the measured central values (rates, latencies, FLOP/s, capacities, % of
peak; not extremes, percentiles, fit residuals or peak_* references) of every benchmark present
for at least 2 GPUs of a group; of a file that declares its benchmarks' primary metrics (every
archbench file since 2026-11-21), those primaries alone, as compare judges them. A result is off
when, with m the median over the group and s = 1.4826 x the median absolute deviation,
|value - m| > max(PCT % of |m|, 5 s); with 2 GPUs (no majority, no spread) when the two differ by
more than PCT %. Healthy siblings are off in a few
results: a latency measured from one SM depends on where that SM sits on each die and on how
each die's hash spreads a footprint near a cache partition's edge. So one off result does not
flag a GPU; a GPU is flagged on
  - several pieces of evidence: it is off on the worse side (lower rate, higher latency; either
    side for a capacity) in at least 3 benchmark families (Tlb/latency, Bandwidth/read, ...: a
    family's footprints and units are one phenomenon), and with 2 GPUs in at least 80 % of the
    families that differ (a sign test); or
  - one large loss of throughput: a whole-GPU rate (bytes, FLOP or atomics per second) off on
    the worse side by more than 2 x PCT % of the median (of the other GPU, with two).
Where the fleet model of the GPU model (scripts/fleet_model.py; --expected MODEL, default the
committed one; --no-expected) has a metric, no result is off by less than the model's band for two
healthy boards of the GPUs' parts (compare_stats.fleet_band, compare's rule): a point whose boards
spread 3 % (an L2 footprint near the edge, a 4 KiB host copy) is not a finding at 5.1 %.

P2P results (a file of P2P/ benchmarks, as run_node.py writes p2p.json) are compared the same way,
link by link instead of GPU by GPU: every ordered pair of GPUs i != j is one member of the group
of its GPU model and link type (P2P/link), over copy and kernel bandwidth, latency and atomics;
a slow or degraded link is flagged as "host: GPU i -> GPU j". Each node's matrix of copy
bandwidth and latency is printed.

Writes DIR/node_summary.md and DIR/node_summary.json; prints the Markdown. Exit status: 2 for
unreadable input, 1 with --fail-on-outlier when a GPU or a link was flagged, else 0.
"""
import argparse
import json
import os
import statistics
import sys
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import compare_stats  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

# Counters that measure the hardware (a change in them is a finding); launch parameters and
# context-like counters (sms, iterations, warps...) are left out.
MEASURED_SUFFIXES = ("_per_second", "_cycles", "_ns", "flops", "_per_clk_per_sm", "_per_clk", "capacity_bytes",
                     "pct_of_peak")
# ... but not the extremes, tails and fit residuals of a measurement, which are noise by nature, nor
# a residual against a target (l2_placed_lines_vs_target_cycles: near 0, so no relative deviation).
NOISY_PARTS = ("_max", "_min", "p95", "p99", "rms", "error", "spread", "skew", "stddev", "_vs_")
# Direction of "worse": latencies up, everything else (rates, FLOP/s, % of peak) down; capacities
# have no better side and count against both.
LOWER_IS_BETTER = ("_cycles", "_ns")
# A GPU is flagged on several independent pieces of evidence, or on one large loss of throughput.
FAMILIES_MIN, SIGN_TEST_SHARE, RATE_FACTOR = 3, 0.8, 2
RATE_SUFFIXES = ("_per_second", "flops")


def is_measured(counter):
    """A measured central value: not an extreme or a residual, and not a reference (peak_*)."""
    return counter.endswith(MEASURED_SUFFIXES) and not any(p in counter for p in NOISY_PARTS) \
        and not counter.startswith("peak_")


def load(path):
    try:
        doc = resultfile.load(path)
        ctx = doc["context"]
        rows = [b for b in doc["benchmarks"] if resultfile.measured(b) and b.get("run_type") != "aggregate"]
    except (resultfile.ResultError, KeyError, TypeError) as e:
        print(f"node_summary.py: error: {e}", file=sys.stderr)
        sys.exit(2)
    label = f"{ctx.get('host_name', '?')}/{ctx.get('gpu_uuid', os.path.basename(path))}"
    values, model_keys = {}, {}
    for b in rows:
        name = resultfile.short_name(b["name"])
        model_keys[name] = compare.benchmark_key(b["name"])
        for k, v in b.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and is_measured(k) \
                    and k not in ("real_time", "cpu_time"):
                values.setdefault((name, k), []).append(float(v))
    try:  # the run as compare reads it: its context, methods and declared primary metrics
        run = compare.load(path)
    except compare.InputError:
        run = None
    if run is not None and run.declared:
        # A file that declares its benchmarks' primary metrics is judged on those, as compare judges
        # it: the other counters are views of the same measurement whose spread between boards no
        # one has learned (an L2-edge footprint's bytes_per_second moved 22 % between two healthy
        # boards of one node while its primary, bytes_per_clk_per_sm, moved 2 %).
        values = {(name, counter): v for (name, counter), v in values.items()
                  if counter in {c for c, _, _ in run.primary.get(model_keys.get(name), [])}}
    # Repetitions: the median of each.
    return {"label": label, "file": path, "gpu": ctx.get("gpu_name", "?"), "driver": ctx.get("gpu_driver_version", "?"),
            "values": {key: statistics.median(v) for key, v in values.items()}, "model_keys": model_keys,
            "runs": [run] if run else []}


def merge_by_gpu(gpus):
    """One entry per GPU: run_node.py writes a GPU's host-shared features (HostLink) to a file of
    their own, run one GPU at a time after the rest."""
    merged = {}
    for g in gpus:
        if g["label"] in merged:
            m = merged[g["label"]]
            m["values"].update(g["values"])
            m["model_keys"].update(g["model_keys"])
            m["runs"] += g["runs"]
            m["file"] += ", " + g["file"]
        else:
            merged[g["label"]] = g
    return list(merged.values())


def is_p2p(doc):
    entries = doc.get("benchmarks", [])
    return bool(entries) and all(resultfile.feature(b) == "P2P" for b in entries)


def load_p2p(path, doc):
    """One member per ordered pair i != j: its link group and measured values (keys without the pair)."""
    ctx = doc["context"]
    host = ctx.get("host_name", "?")
    models = {k[len("p2p_gpu"):]: v.split(" GPU-")[0] for k, v in ctx.items() if k.startswith("p2p_gpu")}
    pairs = {}
    for b in doc["benchmarks"]:
        if not resultfile.measured(b) or b.get("run_type") == "aggregate":
            continue
        gpus = resultfile.pair_of(b)
        if not gpus or gpus[0] == gpus[1]:
            continue  # the matrix, and the local baselines i == i
        i, j = str(gpus[0]), str(gpus[1])
        pair = pairs.setdefault((i, j), {"label": f"{host}: GPU {i} -> GPU {j}", "file": path, "host": host,
                                         "pair": (int(i), int(j)), "link": "?", "model": models.get(i, "?"),
                                         "raw": {}, "values": {}})
        if resultfile.family(b) == "P2P/link":
            try:
                note = resultfile.declared(b)[2]
            except resultfile.LabelError:
                note = ""
            pair["link"] = note.split(";")[0] or "?"
        pair_keys = {k for keys in resultfile.PAIR_AXES for k in keys}
        key_name = resultfile.family(b) + "".join(f"/{k}:{v}" for k, v in resultfile.axes(b).items()
                                                   if k not in pair_keys)
        for k, v in b.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and is_measured(k) \
                    and k not in ("real_time", "cpu_time"):
                pair["raw"].setdefault((key_name, k), []).append(float(v))
    for pair in pairs.values():
        pair["values"] = {key: statistics.median(v) for key, v in pair.pop("raw").items()}
    return list(pairs.values())


def p2p_matrix_lines(members):
    """Markdown matrices per node: unidirectional copy GB/s and peer-DRAM latency ns."""
    lines = []
    for host in sorted({m["host"] for m in members}):
        mine = [m for m in members if m["host"] == host]
        n = 1 + max(max(m["pair"]) for m in mine)
        for title, key_prefix, counter, scale, fmt in [
                ("copy, unidirectional (GB/s)", "P2P/copy/dir:uni/size:", "bytes_per_second", 1e-9, "{:.0f}"),
                ("kernel loads (GB/s)", "P2P/remote_read", "bytes_per_second", 1e-9, "{:.0f}"),
                ("load latency, peer DRAM (ns)", "P2P/latency/level:peer_dram", "latency_ns", 1, "{:.0f}")]:
            cells = {}
            for m in mine:
                found = sorted((k[0], v) for k, v in m["values"].items() if k[0].startswith(key_prefix) and k[1] == counter)
                if found:  # copies: the largest size
                    cells[m["pair"]] = max(found, key=lambda kv: int(kv[0].rsplit(":", 1)[1]) if kv[0][-1].isdigit() else 0)[1]
            if not cells:
                continue
            lines += [f"{host}, {title}, row = initiating GPU, column = peer:", "",
                      "| | " + " | ".join(f"GPU {j}" for j in range(n)) + " |", "|---" * (n + 1) + "|"]
            for i in range(n):
                row = [fmt.format(cells[(i, j)] * scale) if (i, j) in cells else "–" for j in range(n)]
                lines.append(f"| GPU {i} | " + " | ".join(row) + " |")
            lines.append("")
    return lines


def files_of(args):
    out = []
    for p in args:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in sorted(names)
                        if n.endswith(".json") and n != "node_summary.json"]  # not an earlier summary
        else:
            out.append(p)
    return out


def worse(counter, value, other):
    """Whether `value` is the worse of the two for this counter."""
    if counter.endswith("capacity_bytes"):
        return True
    return value > other if counter.endswith(LOWER_IS_BETTER) else value < other


def family_of(benchmark):
    """Tlb/latency, Bandwidth/read, ...: a benchmark's footprints and units measure one phenomenon."""
    return "/".join(resultfile.family_of_name(benchmark).split("/")[:2])


def is_rate(counter):
    """A whole-GPU rate (bandwidth, FLOP/s, atomics/s): the same on healthy siblings, whatever the
    layout of each die, unlike a latency measured from one SM."""
    return counter.endswith(RATE_SUFFIXES)


def fleet_band_of(model):
    """band(key, g, other): the fleet model's band (%) for GPU g's value of key (benchmark, counter)
    against sibling `other`'s, as compare sets it for two boards; None where the model has no row
    of that method or cannot tell."""
    def band(key, g, other):
        if model is None or not g.get("runs") or not other.get("runs"):
            return None
        name = g["model_keys"].get(key[0])
        run = next((r for r in g["runs"] if name in r.methods or name in r.values), g["runs"][0])
        row = model.row(name, key[1], run.methods.get(name)) if name else None
        return compare_stats.fleet_band(row, other["runs"][0], run)[0] if row else None
    return band


def outliers(gpus, threshold, band=None):
    """Per group: the results off the median ([(label, benchmark, counter, value, median, deviation %)]),
    the flagged labels, and per label the evidence: benchmark families in which it is off on the
    worse side, and its largest deficit in a whole-GPU rate (%). `band` (fleet_band_of): no result
    is off by less than the fleet model's band for two boards."""
    def floor(key, label, other_label):
        b = band(key, by_label[label], by_label[other_label]) if band else None
        return max(threshold, b or 0.0)
    by_label = {g["label"]: g for g in gpus}
    flags = []
    keys = set().union(*(g["values"].keys() for g in gpus))
    two = len(gpus) == 2
    votes = {}       # (family, label) -> [worse, better]: off counters on each side
    deficit = {g["label"]: 0.0 for g in gpus}
    for key in sorted(keys):
        have = [(g["label"], g["values"][key]) for g in gpus if key in g["values"]]
        if len(have) < 2 or (len(have) == 2 and not two):
            continue
        vals = [v for _, v in have]
        m = statistics.median(vals)
        if len(have) == 2:
            (la, a), (lb, b) = have
            limit = floor(key, lb, la) / 100 * max(abs(a), abs(b), 1e-30)
            off = [(la, a, b), (lb, b, a)] if abs(a - b) > limit else []
        else:
            s = 1.4826 * statistics.median([abs(v - m) for v in vals])
            others = {label: next(o for o, _ in have if o != label) for label, _ in have}
            off = [(label, v, m) for label, v in have
                   if abs(v - m) > max(floor(key, label, others[label]) / 100 * abs(m), 5 * s)]
        for label, v, other in off:
            dev = 100 * (v - m) / m if m else 0.0
            flags.append((label, key[0], key[1], v, m, dev))
            is_worse = worse(key[1], v, other)
            votes.setdefault((family_of(key[0]), label), [0, 0])[0 if is_worse else 1] += 1
            if is_worse and is_rate(key[1]):  # against the other of two, else the median
                deficit[label] = max(deficit[label], abs(100 * (v - other) / other) if other else 0.0)
    families = {f for f, _ in votes}
    worse_in = {g["label"]: sorted(f for f in families if votes.get((f, g["label"]), [0, 0])[0] >
                                   votes.get((f, g["label"]), [0, 0])[1]) for g in gpus}
    flagged = []
    for label, fams in worse_in.items():
        many = len(fams) >= FAMILIES_MIN and (not two or len(fams) >= SIGN_TEST_SHARE * len(families))
        if many or deficit[label] > RATE_FACTOR * threshold:
            flagged.append(label)
    return flags, sorted(flagged), {"worse_in": worse_in, "rate_deficit_pct": deficit, "families": len(families)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", default=".")
    ap.add_argument("--threshold", type=float, default=5.0, help="relative deviation in %% (default 5)")
    ap.add_argument("--fail-on-outlier", action="store_true")
    ap.add_argument("--expected", metavar="MODEL", help="the fleet model (default: the committed one of each GPU model)")
    ap.add_argument("--no-expected", action="store_true", help="judge by the siblings and the threshold alone")
    args = ap.parse_args(argv)
    resultfile.output_dir_or_exit(args.out, "node_summary.py")  # before any work: a folder it cannot write
    paths = files_of(args.inputs)
    if not paths:
        print("node_summary.py: error: no result files in " + " ".join(args.inputs), file=sys.stderr)
        return 2
    gpus, links = [], []
    for p in paths:
        try:
            doc = resultfile.load(p)
        except resultfile.ResultError as e:
            print(f"node_summary.py: error: {e}", file=sys.stderr)
            return 2
        if isinstance(doc, dict) and isinstance(doc.get("context"), dict) and is_p2p(doc):
            links += load_p2p(p, doc)
        else:
            gpus.append(load(p))
    gpus = merge_by_gpu(gpus)
    models = {}
    for g in gpus:
        models.setdefault(g["gpu"], []).append(g)
    report = {"threshold_pct": args.threshold, "groups": []}
    lines = ["# archbench node summary", "",
             f"Rule: per benchmark and measured counter (central values only), a result is off when it is more "
             f"than {args.threshold:g} % and 5 robust standard deviations from the median of the GPU's siblings of "
             f"the same model (with two siblings: when they differ by more than {args.threshold:g} %). A GPU is "
             f"flagged when it is off on the worse side in at least {FAMILIES_MIN} benchmark families (with two "
             f"siblings, also in {SIGN_TEST_SHARE:.0%} of the families that differ), or when a whole-GPU rate is "
             f"off on the worse side by more than {RATE_FACTOR * args.threshold:g} %. Links (P2P) are compared the "
             f"same way, pair against the pairs of the same GPU model and link type. Where the fleet model has a "
             f"metric, no result is off by less than its band for two healthy boards of the GPUs' parts.", ""]
    flagged_any = False
    for model, group in sorted(models.items()):
        drivers = sorted({g["driver"] for g in group})
        try:
            fleet = None if args.no_expected else \
                fleet_model.load_model(args.expected) if args.expected else fleet_model.model_for(model)
        except compare.InputError as e:
            print(f"node_summary.py: error: {e}", file=sys.stderr)
            return 2
        flags, flagged, evidence = outliers(group, args.threshold, fleet_band_of(fleet))
        flagged_any = flagged_any or bool(flagged)
        report["groups"].append({"gpu": model, "gpus": [g["label"] for g in group], "drivers": drivers,
                                 "fleet_model": fleet.path if fleet else None, "flagged": flagged,
                                 "outliers": [dict(zip(["gpu", "benchmark", "counter", "value", "median", "deviation_pct"], f))
                                              for f in flags]})
        lines += [f"## {model}: {len(group)} GPU(s)", "",
                  (fleet.describe() if fleet else "no fleet model: the threshold and the siblings alone judge"), ""]
        if len(drivers) > 1:
            lines += [f"**Warning: the drivers differ ({', '.join(drivers)}); differences may be the driver's.**", ""]
        if len(group) < 2:
            lines += ["One GPU of this model: nothing to compare.", ""]
            continue
        lines += [f"{len({(f[1], f[2]) for f in flags})} result(s) off the median in {evidence['families']} "
                  f"benchmark famil(ies).", "",
                  "| GPU | results off | worse in (families) | largest rate deficit | flagged |", "|---|---|---|---|---|"]
        for g in group:
            n = sum(1 for f in flags if f[0] == g["label"])
            fams = evidence["worse_in"][g["label"]]
            lines.append(f"| {g['label']} | {n} | {len(fams)}{' (' + ', '.join(fams) + ')' if fams else ''} | "
                         f"{evidence['rate_deficit_pct'][g['label']]:.1f} % | "
                         f"{'**yes**' if g['label'] in flagged else 'no'} |")
        if flags:
            lines += ["", "| GPU | benchmark | counter | value | median | deviation |", "|---|---|---|---|---|---|"]
            for f in sorted(flags, key=lambda f: -abs(f[5]))[:50]:
                lines.append(f"| {f[0]} | `{f[1]}` | {f[2]} | {f[3]:.4g} | {f[4]:.4g} | {f[5]:+.1f} % |")
        lines.append("")
    report["links"] = []
    link_groups = {}
    for m in links:
        link_groups.setdefault((m["model"], m["link"]), []).append(m)
    for (model, link), group in sorted(link_groups.items()):
        flags, flagged, evidence = outliers(group, args.threshold)
        flagged_any = flagged_any or bool(flagged)
        report["links"].append({"gpu": model, "link": link, "pairs": [m["label"] for m in group], "flagged": flagged,
                                "outliers": [dict(zip(["pair", "benchmark", "counter", "value", "median",
                                                       "deviation_pct"], f)) for f in flags]})
        lines += [f"## Links: {model}, {link}: {len(group)} GPU pair(s)", ""]
        if len(group) < 2:
            lines += ["One pair of this kind: nothing to compare.", ""]
        elif flags:
            lines += ["| pair | benchmark | counter | value | median | deviation |", "|---|---|---|---|---|---|"]
            for f in sorted(flags, key=lambda f: -abs(f[5]))[:50]:
                lines.append(f"| {f[0]} | `{f[1]}` | {f[2]} | {f[3]:.4g} | {f[4]:.4g} | {f[5]:+.1f} % |")
            lines.append("")
        else:
            lines += ["No pair outside the spread of its siblings.", ""]
    if links:
        lines += ["## P2P matrices", ""] + p2p_matrix_lines(links)
    with open(os.path.join(args.out, "node_summary.json"), "w") as f:
        json.dump(report, f, indent=1)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "node_summary.md"), "w") as f:
        f.write(text)
    print(text)
    return 1 if (flagged_any and args.fail_on_outlier) else 0


if __name__ == "__main__":
    sys.exit(main())

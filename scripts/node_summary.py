#!/usr/bin/env python3
"""Compares the archbench results of several GPUs (of one node, or of a fleet) and flags the GPU
whose results fall outside the spread of its siblings.

Usage: node_summary.py [--out DIR] [--threshold PCT] [--fail-on-outlier] FILE_OR_DIR...

Directories are searched for *.json (earlier node_summary.json files excepted). GPUs are grouped by model (gpu_name): only siblings of the
same model are compared, and a group whose drivers differ is named in the report.

The rule, per benchmark and measured counter (the central values of rates, latencies, FLOP/s,
capacities; extremes, percentiles and fit residuals are left out) present for at least 3 GPUs of a
group: with m the median over the group and s = 1.4826 x the median absolute deviation, a GPU's
result is an outlier when |value - m| > max(PCT % of |m|, 5 s); a GPU with an outlying result is
flagged. With 2 GPUs of a model there is no majority to say which one is off, and two healthy GPUs
differ by more than PCT % in a few results (an L2 latency depends on which partition holds the
buffer), so the results that differ by more than PCT % are listed and a sign test decides, with one vote
per benchmark family (Tlb/latency, Bandwidth/read, ...: its footprints and units are one
phenomenon): a GPU is flagged when it is the worse one (lower rate, higher latency) in at least 3
families and in at least 80 % of the families that differ.

P2P results (a file of P2P/ benchmarks, as run_node.py writes p2p.json) are compared the same way,
link by link instead of GPU by GPU: every ordered pair of GPUs i != j is one member of the group
of its GPU model and link type (P2P/link), over copy and kernel bandwidth, latency and atomics;
a slow or degraded link is flagged as "host: GPU i -> GPU j". Each node's matrix of copy
bandwidth and latency is printed.

Writes DIR/node_summary.md and DIR/node_summary.json; prints the Markdown. Exit status: 2 for
unreadable input, 1 with --fail-on-outlier when a GPU was flagged, else 0.
"""
import argparse
import json
import os
import re
import statistics
import sys

# Counters that measure the hardware (a change in them is a finding); launch parameters and
# context-like counters (sms, iterations, warps...) are left out.
MEASURED_SUFFIXES = ("_per_second", "_cycles", "_ns", "flops", "_per_clk_per_sm", "_per_clk", "capacity_bytes",
                     "pct_of_peak")
# ... but not the extremes, tails and fit residuals of a measurement, which are noise by nature.
NOISY_PARTS = ("_max", "_min", "p95", "p99", "rms", "error", "spread", "skew", "stddev")
# Direction of "worse": latencies up, everything else (rates, FLOP/s, % of peak) down; capacities
# have no better side and count against both.
LOWER_IS_BETTER = ("_cycles", "_ns")
SIGN_TEST_MIN, SIGN_TEST_SHARE = 3, 0.8


def is_measured(counter):
    """A measured central value: not an extreme or a residual, and not a reference (peak_*)."""
    return counter.endswith(MEASURED_SUFFIXES) and not any(p in counter for p in NOISY_PARTS) \
        and not counter.startswith("peak_")


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        ctx = doc["context"]
        rows = [b for b in doc["benchmarks"] if not b.get("error_occurred") and b.get("run_type") != "aggregate"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"node_summary.py: error: {path}: not an archbench result ({e})", file=sys.stderr)
        sys.exit(2)
    label = f"{ctx.get('host_name', '?')}/{ctx.get('gpu_uuid', os.path.basename(path))}"
    values = {}
    for b in rows:
        name = b["name"].split("/iterations:")[0]
        for k, v in b.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and is_measured(k) \
                    and k not in ("real_time", "cpu_time"):
                values.setdefault((name, k), []).append(float(v))
    # Repetitions: the median of each.
    return {"label": label, "file": path, "gpu": ctx.get("gpu_name", "?"), "driver": ctx.get("gpu_driver_version", "?"),
            "values": {key: statistics.median(v) for key, v in values.items()}}


PAIR_ARGS = re.compile(r"/(?:src|gpu):(\d+)/(?:dst|peer):(\d+)")


def is_p2p(doc):
    names = [b.get("name", "") for b in doc.get("benchmarks", [])]
    return bool(names) and all(n.startswith("P2P/") for n in names)


def load_p2p(path, doc):
    """One member per ordered pair i != j: its link group and measured values (keys without the pair)."""
    ctx = doc["context"]
    host = ctx.get("host_name", "?")
    models = {k[len("p2p_gpu"):]: v.split(" GPU-")[0] for k, v in ctx.items() if k.startswith("p2p_gpu")}
    pairs = {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        name = b["name"].split("/iterations:")[0]
        m = PAIR_ARGS.search(name)
        if not m or m.group(1) == m.group(2):
            continue  # the matrix, and the local baselines i == i
        i, j = m.group(1), m.group(2)
        pair = pairs.setdefault((i, j), {"label": f"{host}: GPU {i} -> GPU {j}", "file": path, "host": host,
                                         "pair": (int(i), int(j)), "link": "?", "model": models.get(i, "?"),
                                         "raw": {}, "values": {}})
        if name.startswith("P2P/link/"):
            pair["link"] = b.get("label", "?").split(";")[0] or "?"
        key_name = PAIR_ARGS.sub("", name)
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


def outliers(gpus, threshold):
    """([(label, benchmark, counter, value, median, deviation %)], flagged labels, {label: results in which
    it is the worse of two}) for one group."""
    flags = []
    keys = set().union(*(g["values"].keys() for g in gpus))
    two = len(gpus) == 2
    family_votes = {}  # (family, label) -> [worse, better] over that family's differing counters
    for key in sorted(keys):
        have = [(g["label"], g["values"][key]) for g in gpus if key in g["values"]]
        if len(have) < 2 or (len(have) == 2 and not two):
            continue
        vals = [v for _, v in have]
        m = statistics.median(vals)
        if len(have) == 2:
            (la, a), (lb, b) = have
            if abs(a - b) > threshold / 100 * max(abs(a), abs(b), 1e-30):
                family = "/".join(key[0].split("/")[:2])
                for label, v, other in [(la, a, b), (lb, b, a)]:
                    flags.append((label, key[0], key[1], v, m, 100 * (v - m) / m if m else 0.0))
                    family_votes.setdefault((family, label), [0, 0])[0 if worse(key[1], v, other) else 1] += 1
            continue
        s = 1.4826 * statistics.median([abs(v - m) for v in vals])
        limit = max(threshold / 100 * abs(m), 5 * s)
        for label, v in have:
            if abs(v - m) > limit:
                flags.append((label, key[0], key[1], v, m, 100 * (v - m) / m if m else 0.0))
    if two:
        # One vote per benchmark family (Tlb/latency, Bandwidth/read, ...): its many footprints and
        # counters (cycles and ns) are one phenomenon, not independent evidence.
        families = {f for f, _ in family_votes}
        worse_count = {g["label"]: sum(1 for f in families if family_votes.get((f, g["label"]), [0, 0])[0] >
                                       family_votes.get((f, g["label"]), [0, 0])[1]) for g in gpus}
        flagged = sorted(label for label, n in worse_count.items()
                         if n >= SIGN_TEST_MIN and n >= SIGN_TEST_SHARE * len(families))
    else:
        flagged = sorted({f[0] for f in flags})
    return flags, flagged, (worse_count, len(families)) if two else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", default=".")
    ap.add_argument("--threshold", type=float, default=5.0, help="relative deviation in %% (default 5)")
    ap.add_argument("--fail-on-outlier", action="store_true")
    args = ap.parse_args(argv)
    paths = files_of(args.inputs)
    if not paths:
        print("node_summary.py: error: no result files in " + " ".join(args.inputs), file=sys.stderr)
        return 2
    gpus, links = [], []
    for p in paths:
        try:
            with open(p) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"node_summary.py: error: {p}: not an archbench result ({e})", file=sys.stderr)
            return 2
        if isinstance(doc, dict) and isinstance(doc.get("context"), dict) and is_p2p(doc):
            links += load_p2p(p, doc)
        else:
            gpus.append(load(p))
    models = {}
    for g in gpus:
        models.setdefault(g["gpu"], []).append(g)
    report = {"threshold_pct": args.threshold, "groups": []}
    lines = ["# archbench node summary", "",
             f"Rule: per benchmark and measured counter (central values only), a GPU is flagged when it is more "
             f"than {args.threshold:g} % and 5 robust standard deviations from the median of its siblings of the "
             f"same model. With two siblings, the results that differ by more than {args.threshold:g} % are listed, "
             f"and a GPU is flagged when it is the worse one in at least {SIGN_TEST_MIN} benchmark families and "
             f"{SIGN_TEST_SHARE:.0%} of those that differ (a sign test). Links (P2P) are compared the same way, "
             f"pair against pair of the same GPU model and link type.", ""]
    flagged_any = False
    for model, group in sorted(models.items()):
        drivers = sorted({g["driver"] for g in group})
        flags, flagged, worse_in = outliers(group, args.threshold)
        flagged_any = flagged_any or bool(flagged)
        report["groups"].append({"gpu": model, "gpus": [g["label"] for g in group], "drivers": drivers,
                                 "flagged": flagged,
                                 "outliers": [dict(zip(["gpu", "benchmark", "counter", "value", "median", "deviation_pct"], f))
                                              for f in flags]})
        lines += [f"## {model}: {len(group)} GPU(s)", ""]
        if len(drivers) > 1:
            lines += [f"**Warning: the drivers differ ({', '.join(drivers)}); differences may be the driver's.**", ""]
        if len(group) < 2:
            lines += ["One GPU of this model: nothing to compare.", ""]
            continue
        if worse_in:
            counts, families = worse_in
            lines += [f"Two GPUs: {len(flags) // 2} result(s) in {families} benchmark famil(ies) differ by more than "
                      f"{args.threshold:g} %. A GPU is flagged when it is the worse one in at least {SIGN_TEST_MIN} "
                      f"families and {SIGN_TEST_SHARE:.0%} of them.", "",
                      "| GPU | worse in (families) | flagged |", "|---|---|---|"]
            for g in group:
                lines.append(f"| {g['label']} | {counts[g['label']]} | {'**yes**' if g['label'] in flagged else 'no'} |")
        else:
            lines += ["| GPU | outlying results | flagged |", "|---|---|---|"]
            for g in group:
                n = sum(1 for f in flags if f[0] == g["label"])
                lines.append(f"| {g['label']} | {n} | {'**yes**' if g['label'] in flagged else 'no'} |")
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
        flags, flagged, worse_in = outliers(group, args.threshold)
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
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "node_summary.json"), "w") as f:
        json.dump(report, f, indent=1)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "node_summary.md"), "w") as f:
        f.write(text)
    print(text)
    return 1 if (flagged_any and args.fail_on_outlier) else 0


if __name__ == "__main__":
    sys.exit(main())

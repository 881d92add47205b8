#!/usr/bin/env python3
"""The presentation of compare.py: the one screen (or Markdown) of a comparison, its verdict's
wording, the CSV table and the notes on the inputs. compare_stats.py decides; this only writes.
"""
import csv
import math
import statistics

from archbench_tools.compare.compare_stats import BOARD_FINGERPRINTS, board_steps, scipy_stats, verdict
from archbench_tools.results import resultfile

UNITS = {"cycles": "cycles", "per_clk": "per clk", "bytes_per_second": "B/s", "per_second": "per s", "clock_mhz": "MHz",
         "ns": "ns", "energy": "pJ", "other": ""}


def fmt_value(v, kind):
    if kind == "bytes_per_second":
        return f"{v / 1e9:.4g} GB/s"
    unit = UNITS.get(kind, "")
    return f"{v:.5g}{(' ' + unit) if unit else ''}"


short = resultfile.short_name


def describe(run):
    c = run.context
    bits = [c.get("gpu_name", "?"), "uuid " + str(c.get("gpu_uuid", "?"))[:12], "sha " + str(c.get("archbench_git_sha", "?")),
            str(c.get("date", "?"))[:16]]
    if c.get("archbench_fault"):
        bits.append("PLANTED " + c["archbench_fault"])
    return ", ".join(bits)


def summary(base, cont, rows, features, history_n, top, markdown, notes=()):
    out = []
    h = "## " if markdown else ""
    out.append(f"{h}archbench compare")
    out.append(f"- baseline:  `{base.path}` ({describe(base)})" if markdown else f"baseline:  {base.path} ({describe(base)})")
    out.append(f"- contender: `{cont.path}` ({describe(cont)})" if markdown else f"contender: {cont.path} ({describe(cont)})")
    noise = f"history of {history_n} earlier run(s) and the baseline" if history_n >= 2 else \
        "repetitions where both sides have them, else unknown (single runs: the floor decides)"
    sampled = sum(1 for r in rows if r["noise"].endswith("samples"))
    if sampled:
        noise += f"; {sampled} band(s) widened to the benchmark's own samples"
    out.append(("- " if markdown else "") + f"noise: {noise}; FDR (Benjamini-Hochberg) over {len(rows)} metrics")
    for n in notes:
        out.append(("- " if markdown else "") + n)
    out.append("")
    header = ["feature", "compared", "changed", "improved", "regressed", "values changed", "method changed",
              "median shift"]
    table = []
    for feat, f in features.items():
        shift = f"{f['shift_pct']:+.2f} %" + (f" ({f['shift'].upper()})" if f["shift"] != "none" else "")
        table.append([feat, f["compared"], f["changed"], f["improved"], f["regressed"], f["values_changed"],
                      f["method_changed"], shift])
    total = ["total"] + [sum(f[k] for f in features.values()) for k in
                         ("compared", "changed", "improved", "regressed", "values_changed", "method_changed")] + [""]
    table.append(total)
    if markdown:
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        out += ["| " + " | ".join(str(c) for c in row) + " |" for row in table]
    else:
        widths = [max(len(str(r[i])) for r in table + [header]) for i in range(len(header))]
        out.append("  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(header, widths))))
        out += ["  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
                for row in table]
    out += method_section(rows, top, markdown)
    out += board_section(base, cont, rows, top, markdown)
    out += group_section(rows, top, markdown)
    movers = sorted((r for r in rows if r["status"] not in ("same", "method changed", "another board", "board group")),
                    key=lambda r: (r["status"] == "improved", -abs(r["change_pct"]) if math.isfinite(r["change_pct"]) else -1e30))
    out.append("")
    out.append(f"{h}Top movers ({min(top, len(movers))} of {len(movers)} changed)" if movers else "No benchmark changed.")
    for r in movers[:top]:
        q = "" if r["q"] is None else f"; q {r['q']:.2g}"
        band = f"tolerance {r['threshold_pct']:g} %" if r["how"] == "value" else f"threshold {r['threshold_pct']:.2g} %"
        line = (f"{r['status'].upper():13s} {short(r['name'])}  {r['counter']}: {fmt_value(r['ref'], r['kind'])} -> "
                f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %; {band}{q})")
        out.append(("- " + line) if markdown else "  " + line)
    shifted = [(f, s) for f, s in features.items() if s["shift"] != "none"]
    if shifted:
        out.append("")
        for feat, s in shifted:
            out.append(("- " if markdown else "") + f"Feature shift: {feat} {s['shift']} by {abs(s['shift_pct']):.2f} % "
                       f"(median of {s['worse'] + s['better']} moving metrics: {s['worse']} worse, {s['better']} better; "
                       f"sign test p {s['shift_p']:.2g}; beyond the {s['shift_threshold_pct']:.2f} % that counts"
                       + (f", {s['shift_basis']})" if s.get("shift_basis") else ")"))
    only_b = sorted(set(base.values) - set(cont.values))
    only_c = sorted(set(cont.values) - set(base.values))
    failed = sorted(cont.errors - base.errors)
    out.append("")
    skipped = sorted(cont.skips - base.skips)
    out.append(f"{len(only_b)} benchmark(s) only in the baseline, {len(only_c)} only in the contender, "
               f"{len(failed)} failed in the contender only"
               + (f", {len(skipped)} skipped in the contender only (not for this GPU)" if skipped else ""))
    for n in failed[:10]:
        out.append(f"  failed in the contender: {n}")
    out.append(("**Verdict:** " if markdown else "Verdict: ") + verdict_line(rows, features))
    return out


def verdict_line(rows, features):
    """The verdict after 'Verdict: ' (the one wording compare, nightly and the dashboard show)."""
    bad = verdict(features)
    n_method = sum(r["status"] == "method changed" for r in rows)
    n_board = sum(r["status"] == "another board" for r in rows)
    n_group = sum(r["status"] == "board group" for r in rows)
    judged = len(rows) - n_method
    tail = ", ".join(x for x in (f"{n_method} metric(s) of another method" if n_method else "",
                                 f"{n_board} moved as the other board's fingerprint" if n_board else "",
                                 f"{n_group} moved as a board group the fleet model names" if n_group else "") if x)
    tail = f" ({tail}: listed above, not judged)" if tail else ""
    if judged == 0:
        return "NOTHING JUDGED: no metric of the same method in both files" + tail
    return ("REGRESSION in " + "; ".join(bad) if bad else "no regression") + tail


def method_section(rows, top, markdown):
    """The benchmarks whose method differs (or is not known) between the files: not judged; per
    feature how many and how far they moved, then the largest moves."""
    moved = [r for r in rows if r["status"] == "method changed"]
    if not moved:
        return []
    h = "## " if markdown else ""
    out = ["", f"{h}Method changed: {len(moved)} metric(s), not judged (docs/regression.md, method identifiers)"]
    by_feature = {}
    for r in moved:
        by_feature.setdefault(r["feature"], []).append(r)
    for feat, rs in sorted(by_feature.items()):
        finite = [abs(r["change_pct"]) for r in rs if math.isfinite(r["change_pct"])]
        unknown = sum(r["noise"] == "method unknown" for r in rs)
        what = f"{unknown} of them of unknown method" if unknown else \
            f"method {rs[0]['base_method']} -> {rs[0]['cont_method']}" if len({(r['base_method'], r['cont_method'])
                                                                          for r in rs}) == 1 else "several methods"
        size = f"median move {statistics.median(finite):.2f} %, largest {max(finite):.2f} %" if finite else "no finite move"
        out.append(("- " if markdown else "  ") + f"{feat}: {len(rs)} metric(s), {size} ({what})")
    biggest = sorted(moved, key=lambda r: -abs(r["change_pct"]) if math.isfinite(r["change_pct"]) else -1e30)
    for r in biggest[:top]:
        line = (f"METHOD        {short(r['name'])}  {r['counter']}: {fmt_value(r['base'], r['kind'])} -> "
                f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %)")
        out.append(("- " + line) if markdown else "  " + line)
    return out


def board_section(base, cont, rows, top, markdown):
    """The metrics that moved as the two boards' fingerprints differ: listed, not judged."""
    steps = board_steps(base, cont)
    h = "## " if markdown else ""
    out = []
    for key, (a, b) in steps.items():
        moved = [r for r in rows if r["status"] == "another board" and r.get("board_key") == key]
        out += ["", f"{h}Another board: {BOARD_FINGERPRINTS[key][0]} {a:.1f} -> {b:.1f} cycles "
                    f"({100 * (b / a - 1):+.1f} %, the runs' {key}); {len(moved)} metric(s) moved by that much, not judged"]
        for r in sorted(moved, key=lambda r: -abs(r["change_pct"]))[:top]:
            line = (f"BOARD         {short(r['name'])}  {r['counter']}: {fmt_value(r['ref'], r['kind'])} -> "
                    f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %; the board's {r['board_pct']:+.2f} %)")
            out.append(("- " + line) if markdown else "  " + line)
    return out


def group_section(rows, top, markdown):
    """The metrics where a board of the pair is one of the fleet model's odd boards and moved by that
    much: the group is named (compare_stats.odd_group), the move not judged."""
    moved = [r for r in rows if r["status"] == "board group"]
    if not moved:
        return []
    h = "## " if markdown else ""
    groups = {}
    for r in moved:
        groups.setdefault(r["group"].split(" is one of")[0], []).append(r)
    out = ["", f"{h}Board groups: {len(moved)} metric(s) moved as a board the fleet model knows apart, not judged"]
    for board, rs in sorted(groups.items()):
        families = sorted({"/".join(compare_feature_family(r["name"])) for r in rs})
        out.append(("- " if markdown else "  ") + f"{board}: one of the fleet's odd boards in {len(rs)} of these metric(s) "
                   f"({', '.join(families[:4])}{', ...' if len(families) > 4 else ''})")
    for r in sorted(moved, key=lambda r: -abs(r["change_pct"]))[:top]:
        line = (f"GROUP         {short(r['name'])}  {r['counter']}: {fmt_value(r['ref'], r['kind'])} -> "
                f"{fmt_value(r['cont'], r['kind'])} ({r['change_pct']:+.2f} %; the group's {r['group_pct']:+.2f} %)")
        out.append(("- " + line) if markdown else "  " + line)
    return out


def compare_feature_family(name):
    return resultfile.family_of_name(name).split("/")[:2]


def write_table(path, rows):
    fields = ["feature", "name", "counter", "how", "kind", "base", "ref", "cont", "change_pct", "threshold_pct", "sigma_pct",
              "noise", "p", "q", "status", "base_method", "cont_method"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def warnings(base, cont):
    out = []
    for key in ("gpu_name", "gpu_cuda_driver_api_version", "gpu_driver_version"):
        if base.context.get(key) != cont.context.get(key):
            out.append(f"WARNING: {key} differs: '{base.context.get(key)}' vs '{cont.context.get(key)}': "
                       + ("two GPU models: a move here is the models' difference, not a regression (their "
                          "generations side by side: plot_generations.py)" if key == "gpu_name" else
                          "the files may not be comparable"))
    same_model = base.context.get("gpu_name") == cont.context.get("gpu_name")
    if same_model and base.context.get("gpu_uuid") != cont.context.get("gpu_uuid"):
        parts = [resultfile.board_group(base.context), resultfile.board_group(cont.context)]
        what = [f"{BOARD_FINGERPRINTS[key][0]} differs by {100 * (b / a - 1):+.1f} % ({a:.1f} -> {b:.1f} cycles, {key})"
                for key, (a, b) in board_steps(base, cont).items()]
        if all(parts) and parts[0] != parts[1]:  # H200: -000 and -001 boards differ in DRAM latency
            what.append(f"another board part number ({parts[0]} -> {parts[1]})")
        out.append("note: another board of the model (gpu_uuid differs)" + (": " + "; ".join(what) if what else ""))
    for r, side in ((base, "baseline"), (cont, "contender")):
        if r.method_source == "ledger":
            out.append(f"note: the {side} carries no method identifiers (written before they existed): its methods "
                       f"come from the ledger entry of its commit {r.context.get('archbench_git_sha')}")
        elif r.method_source == "assumed":
            out.append(f"note: the {side} carries no method identifiers and its commit is not in the ledger: taken as "
                       "the same method as the other side (--legacy-methods=same)")
        elif r.method_source == "unknown":
            out.append(f"note: the {side} carries no method identifiers and its commit is not in the ledger: its "
                       "methods are unknown and nothing of it is judged (--legacy-methods=same takes them as unchanged)")
        if r.values and not r.declared:
            out.append(f"note: the {side} declares no primary metrics (written before they existed): "
                       "compare.py's legacy rules apply")
        if r.context.get("archbench_fault"):
            out.append(f"note: the {side} is a PLANTED-fault run ({r.context['archbench_fault']})")
    if scipy_stats() is None:
        out.append("WARNING: scipy is missing (pip install scipy): no p-values; thresholds alone decide")
    return out

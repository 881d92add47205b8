#!/usr/bin/env python3
"""Is this GPU a healthy one of its model? The acceptance verdict of one run, or of every GPU of a node.

Usage:
    accept.py RUN.json [--expected MODEL] [--junit OUT.xml]          judge a run (full, or the short one)
    accept.py --node DIR [--expected MODEL] [--junit OUT.xml]        every GPU's run in DIR (gpu*.json[.gz]) and
                                                                      the links between them (DIR/p2p.json[.gz])
    accept.py --run BINARY [--out DIR] [--junit OUT.xml]              measure the short acceptance run, judge it
                                                                      (DIR: default ~/.local/share/archbench/accept)
    accept.py --print-filter --binary B [--node]                      the short run's --benchmark_filter on this GPU (--node:
                                                                      with the links' P2P benchmarks, for
                                                                      run_node.py)
    accept.py --export thresholds|reframe|prometheus [RUN] [--expected MODEL] [--export-to FILE]
                                                                      the bounds of every check per board part,
                                                                      as operators' tools read them (RUN: whose
                                                                      benchmarks play the checks' roles; default
                                                                      the model's committed baseline)

Each check is one figure that decides health (the bandwidth headline of each level, the compute
and tensor peaks, the latency of each level, the host link, the sustained clock under load, the
geometry as exact values), judged against the fleet model of the GPU's model
(results/reference/expected/<gpu-slug>.json.xz, scripts/fleet_model.py): the median of the
board's part, less the prediction interval of one board at compare_stats.FLEET_ALPHA (Student's t
on the board spread's degrees of freedom, times what a new board spreads by: its process and board
spread, a timer's step, the parts' spread too when the part is new), never tighter than the metric
kind's least effect. Only the unhealthy side fails: a rate below, a latency above. Where the model knows no
spread (too few boards) or there is no model, the check falls back to the specification (the
peaks the run computed from the device's attributes) and the physical limits, and says so.
Every check also holds the physical limit: no rate above its peak.

A node (--node, the folder run_node.py writes) is judged GPU by GPU (each GPU's gpu<N>.json with its
gpu<N>-<feature>.json, the host-shared features run one GPU at a time), and link by link: every
ordered pair's P2P copies as a share of the link's computed peak and its remote-load latencies,
against the committed links model of the GPU model (results/reference/expected/<gpu-slug>-links.json,
scripts/fleet_model.py --links): the median of every pair of every node it has seen, less (more, for
a latency) the larger of 3 times their spread and the metric kind's least effect. Without a links
model a copy must reach half the link's peak, and a latency is not judged. The node verdict names
the GPU whose check fell furthest, or the link.

Exit codes: 0 healthy, 1 not healthy (a check failed, or a benchmark of the verdict failed),
2 bad input. --junit writes JUnit XML (one test case per check, grouped by what it says).
"""
import argparse
import glob
import math
import os
import re
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import compare_stats  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.nightly import health  # noqa: E402
from archbench_tools.nightly import integrity  # noqa: E402
from archbench_tools.nightly import operators  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import roles  # noqa: E402

GROUPS = ("memory", "compute", "clocks and power", "links", "geometry", "health", "integrity")
HEALTH = "health"  # the health counters' group (nightly/health.py): judged by rules, not by the fleet
INTEGRITY = "integrity"  # the data-integrity screen's group (nightly/integrity.py): rules too
RULE_GROUPS = (HEALTH, INTEGRITY)


# (group, what, benchmark key regex, counter, spec): spec gives (floor fraction, peak, its source)
# for the fallback without a fleet spread, and the physical ceiling; None where no specification
# bounds the figure. `pick`: among several matches, the one over the most SMs (the sweeps' sms axis).
def _ctx_peak(key, source):
    def spec(entry, ctx, frac):
        try:
            peak = float(ctx.get(key, ""))
        except ValueError:
            return None
        return (frac, peak, source) if peak > 0 else None
    return spec


def _entry_peak(counter, source):
    def spec(entry, ctx, frac):
        peak = entry.get(counter)
        return (frac, peak[0], source) if peak and peak[0] > 0 else None
    return spec


DRAM_PEAK = _ctx_peak("gpu_dram_peak_bytes_per_second", "the theoretical DRAM bandwidth (memory clock x bus width)")
CLOCK_PEAK = _ctx_peak("gpu_max_sm_clock_mhz", "the maximum SM clock the device reports")
LINK_PEAK = _entry_peak("link_peak_bytes_per_second", "the host link's peak (PCIe generation x width)")
TENSOR_PEAK = _entry_peak("peak_flop_per_clk_per_sm", "the dense tensor peak per SM per clock")
PIPE_PEAK = _entry_peak("peak_results_per_clk_per_sm", "the pipeline's peak results per SM per clock")

# group, what, role (results/roles.py: the benchmark that plays it on this GPU, from the run's own
# geometry), spec, floor fraction of the specification. The floor holds whatever the fleet model
# says: a fleet that is slow as a whole still fails it.
CHECKS = [
    ("memory", "DRAM read headline", "dram_read", DRAM_PEAK, 0.90),
    ("memory", "DRAM write headline", "dram_write", DRAM_PEAK, 0.90),
    ("memory", "DRAM copy headline", "dram_copy", DRAM_PEAK, 0.80),
    ("memory", "L2 read headline", "l2_read", None, None),
    ("memory", "L1 hit latency", "l1_chain", None, None),
    ("memory", "L2 hit latency", "l2_chain", None, None),
    ("memory", "DRAM latency", "dram_chain", None, None),
    ("compute", "FP32 FMA peak, every SM", "ffma_peak", PIPE_PEAK, 0.95),
    ("compute", "FP64 FMA peak, every SM", "dfma_peak", PIPE_PEAK, 0.95),
    ("compute", "FP16 tensor peak (wgmma), every SM", "f16_tensor_peak", TENSOR_PEAK, 0.70),
    ("clocks and power", "sustained SM clock, FP32 load", "clock_ffma", CLOCK_PEAK, 0.95),
    ("clocks and power", "sustained SM clock, tensor load (power-bound)", "clock_tensor", CLOCK_PEAK, 0.65),
    ("links", "host to device, pinned 128 MiB", "h2d_pinned", LINK_PEAK, 0.70),
    ("links", "device to host, pinned 128 MiB", "d2h_pinned", LINK_PEAK, 0.70),
    ("geometry", "L1 capacity (no carveout)", "l1_capacity", None, None),
    ("geometry", "L1 line", "l1_line", None, None),
    ("geometry", "read-only cache capacity", "readonly_capacity", None, None),
    ("geometry", "constant cache levels", "constant_levels", None, None),
]
# A fleet model learns a check's spread between boards from fleet_model.BOARD_MIN_DF degrees of
# freedom of its method (boards less parts: five boards of one part, six of two); until then the
# verdict says how far it has come.
SPEC_COUNTERS = ("link_peak_bytes_per_second", "peak_flop_per_clk_per_sm", "peak_results_per_clk_per_sm")


def acceptance_filter(entries, ctx, node=False):
    """The short acceptance run's --benchmark_filter on the GPU `ctx` describes: exactly the
    benchmarks its sweep (`entries`: a listing or a run) gives the checks' roles; with `node`, the
    links' P2P benchmarks too (run_node.py runs them alone, after the GPUs)."""
    entries = list(entries)
    keys = [k for _, _, role, *_ in CHECKS if (k := roles.find(role, entries, ctx))]
    links = [roles.family_filter(**which) for _, which, *_ in fleet_model.LINK_FIGURES.values()] if node else []
    return "|".join([roles.exact_filter(k.replace("/manual_time", "") for k in keys)] + links)


def listing(binary, options=()):
    """(names, context) of what BINARY would run on this machine's GPU: its --info and its listing of
    the checks' families, so that the short run's filter follows this GPU's own sweep; `options`
    are the run's own that name benchmarks (--sustained_seconds: the sustained clock's seconds:N)."""
    info = subprocess.run([binary, "--info"], capture_output=True, text=True)
    if info.returncode != 0:
        raise compare.InputError(f"{binary} --info failed (exit {info.returncode}): "
                                 f"{(info.stderr or info.stdout).strip().splitlines()[-1:] or ['no output']}")
    families = sorted({roles.ROLES[role].family for _, _, role, *_ in CHECKS})
    names = subprocess.run([binary, *options, "--benchmark_list_tests",
                            "--benchmark_filter=" + "|".join("^" + f.replace(".", "[.]") + "/" for f in families)],
                           capture_output=True, text=True)
    if names.returncode != 0:
        raise compare.InputError(f"{binary} --benchmark_list_tests failed (exit {names.returncode})")
    return [n.strip() for n in names.stdout.splitlines() if n.strip()], roles.context_from_info(info.stdout)


class Check:
    # What decided a check (`judged_by`): "fleet" (the fleet model's spread between boards),
    # "specification" (a fraction of the peak the run computed), "limit" (above a physical limit),
    # "run" (its benchmark failed); None: not judged.
    def __init__(self, group, what, name=None):
        self.group, self.what, self.name = group, what, name
        self.status, self.value, self.expected, self.bound, self.unit, self.basis, self.margin = \
            "skipped", None, None, None, "", "", None
        self.judged_by, self.boards, self.not_applicable, self.other_method = None, None, False, False
        self.board_df = None

    def line(self):
        fmt = (lambda v: "-" if v is None else f"{v:.4g}")
        mark = {"pass": "PASS", "fail": "FAIL", "skipped": "SKIP"}[self.status]
        if self.group in RULE_GROUPS:  # a rule's words, no expected value or limit
            return f"  {mark}  {self.what:46s} {self.basis}"
        margin = "" if self.margin is None else f" (margin {self.margin:+.2f} %)"
        return (f"  {mark}  {self.what:46s} {fmt(self.value):>10s} {self.unit:20s} expected {fmt(self.expected):>10s}, "
                f"limit {fmt(self.bound):>10s}{margin}: {self.basis}")


def _entry_counters(run_doc, name):
    """The raw counters of a benchmark (its spec counters), from the loaded result file."""
    for b in run_doc.get("benchmarks", []):
        if compare.benchmark_key(b.get("run_name") or b.get("name", "")) == name and b.get("run_type") != "aggregate":
            return {k: [v] for k, v in b.items() if k in SPEC_COUNTERS and isinstance(v, (int, float))}
    return {}


def _fleet_judgement(c, row, part, how, tol, kind, v):
    """Judges `c` by a fleet-model row; False where the row cannot (its board spread unknown)."""
    parts = row.get("parts") or {}
    expected = parts.get(part, row["median"])
    c.boards, c.board_df = row.get("boards"), row.get("board_df")
    if how == "value":
        c.expected = c.bound = expected
        c.margin = tol - 100 * abs(v - expected) / abs(expected) if expected else None
        c.status = "pass" if c.margin is not None and c.margin >= -1e-9 else "fail"
        c.basis, c.judged_by = f"the fleet's value ({row['boards']} boards), tolerance {tol:g} %", "fleet"
        return True
    if compare_stats.model_row_sigma(row)[0] is None:
        return False
    sigma, df = compare_stats.model_row_sigma(row, same_part=part in parts)
    where = f"boards of part {part}" if part in parts else "boards and parts of the model"
    allowed = max(100 * math.expm1(compare_stats.prediction_quantile(df) * sigma), compare.MIN_EFFECT_PCT[kind])
    c.expected = expected
    c.bound = expected * (1 - allowed / 100) if how == "higher" else expected * (1 + allowed / 100)
    worse = 100 * ((expected - v) / expected if how == "higher" else (v - expected) / expected)
    c.margin = allowed - worse
    c.status = "pass" if c.margin >= 0 else "fail"
    c.basis = (f"fleet: {row['boards']} boards; {where} spread {100 * sigma:.2f} % ({df} df)"
               f"{compare_stats.model_spreads(row, use_part=part not in parts)['words']} -> {allowed:.2f} % allowed")
    c.judged_by = "fleet"
    return True


def judge(run, doc, model):
    """The checks of one run: a list of Check. Each check's benchmark is the one that plays its role
    on this GPU (results/roles.py), from the run's own geometry."""
    ctx, part = run.context, resultfile.board_group(run.context)
    names = roles.Index(list(run.values) + sorted(run.errors) + sorted(run.skips))
    out = []
    for group, what, role, spec, frac in CHECKS:
        counter = roles.ROLES[role].counter
        c = Check(group, what)
        out.append(c)
        name = roles.find(role, names, ctx)
        if name is None:
            c.basis = f"not measured in this run: {roles.missing_reason(role, names, ctx)}"
            continue
        c.name = name
        if name in run.skips:
            c.not_applicable = True
            c.basis = "does not apply to this GPU (the run registered it as skipped, with its reason)"
            continue
        if name in run.errors:
            c.status, c.basis, c.judged_by = "fail", "the benchmark failed in this run (its error entry)", "run"
            continue
        how_tol = {cn: (how, tol) for cn, how, tol in run.primary.get(name, [])}
        values = run.values.get(name, {}).get(counter)
        if not values or counter not in how_tol:
            c.basis = f"the run has no {counter} for it"
            continue
        how, tol = how_tol[counter]
        v = c.value = statistics.median(values)
        c.unit = counter
        kind = compare.metric_kind(counter)
        peak = spec(_entry_counters(doc, name) or {}, ctx, frac) if spec else None
        if peak and v > peak[1] * 1.005:
            c.status, c.bound, c.expected, c.judged_by = "fail", peak[1], peak[1], "limit"
            c.basis = f"above the physical limit: {peak[2]} ({peak[1]:.4g})"
            c.margin = 100 * (peak[1] / v - 1)
            continue
        row = model.row(name, counter, run.methods.get(name)) if model else None
        if row is not None and _fleet_judgement(c, row, part, how, tol, kind, v):
            # The specification's floor holds too: a fleet that is slow as a whole fails it.
            if peak and peak[0] and how == "higher" and v < peak[0] * peak[1]:
                c.status, c.judged_by = "fail", "specification"
                c.margin = 100 * (v / (peak[0] * peak[1]) - 1)
                c.basis += f"; but below the specification's floor, {100 * peak[0]:.0f} % of {peak[2]}"
            continue
        if row is not None:
            c.boards, c.board_df = row.get("boards"), row.get("board_df")
        elif model is not None and model.row(name, counter) is not None:
            c.other_method = True  # the model holds this benchmark under another (newer or older) method
        why = "no fleet model" if model is None else (
            "the fleet model holds another method of it" if c.other_method else
            "the fleet model lacks it" if row is None else f"the fleet's board spread is unknown ({row['boards']} boards)")
        if peak and peak[0] and how == "higher":
            c.expected, c.bound = peak[1], peak[0] * peak[1]
            c.margin = 100 * (v / c.bound - 1)
            c.status = "pass" if v >= c.bound else "fail"
            c.basis = f"{why}: the specification, at least {100 * peak[0]:.0f} % of {peak[2]}"
            c.judged_by = "specification"
        else:
            c.basis = f"{why}, and no specification bounds it: not judged"
    return out + health_checks(run, doc) + integrity_checks(doc)


def health_checks(run, doc):
    """The health group (nightly/health.py): each counter's rule; none for a run made before the
    harness read health counters."""
    findings = health.judge(run.context, (doc or {}).get("benchmarks", []))
    out = []
    for f in findings or []:
        c = Check(HEALTH, f.what)
        c.status, c.basis = f.status, f.basis
        c.value = f.value if isinstance(f.value, (int, float)) else None
        c.unit = "count" if c.value is not None else ""
        c.judged_by = "rule" if f.status != "skipped" else None
        c.not_applicable = f.status == "skipped" and f.basis.startswith("not available")
        out.append(c)
    return out


def integrity_checks(doc):
    """The integrity group (nightly/integrity.py): one check per screen; none for a run without the
    screen."""
    out = []
    for f in integrity.judge((doc or {}).get("benchmarks", [])) or []:
        c = Check(INTEGRITY, f.what)
        c.status, c.basis, c.value = f.status, f.basis, f.value
        c.unit = "count" if c.value is not None else ""
        c.judged_by = "rule" if f.status != "skipped" else None
        c.not_applicable = f.status == "skipped" and f.basis.startswith("does not apply")
        out.append(c)
    return out


def performance(checks):
    """The checks of speed and geometry: every group but the rules' (health, integrity), which the
    fleet does not judge."""
    return [c for c in checks if c.group not in RULE_GROUPS]


def health_words(checks):
    """The report's line on the health group: how many of its rules could be read, or that the run
    has no health counters."""
    h = [c for c in checks if c.group == HEALTH]
    if not h:
        return "health: not recorded in this run (made before the harness read health counters)"
    na = sum(c.not_applicable for c in h)
    return (f"health: {sum(c.status != 'skipped' for c in h)} of {len(h)} rules judged"
            + (f", {na} rule(s) of counters not available on this GPU or driver" if na else ""))


def integrity_words(checks):
    """The report's line on the integrity group: how many screens were judged, or that the run was
    not screened."""
    i = [c for c in checks if c.group == INTEGRITY]
    if not i:
        return integrity.NOT_SCREENED
    return f"integrity: {sum(c.status != 'skipped' for c in i)} of {len(i)} screens judged"


def judgement(checks):
    """How much of a verdict the fleet model decided: "fleet" (every applicable check), "partial"
    (some by the fleet, the others by the specification or not at all), "specification" (none by the
    fleet: a verdict by specification only), "none" (nothing judged). The health group is the rules'."""
    applicable = [c for c in performance(checks) if not c.not_applicable]
    by = [c.judged_by for c in applicable]
    if not any(by):
        return "none"
    if all(b in ("fleet", "limit", "run") for b in by):
        return "fleet"
    return "partial" if "fleet" in by else "specification"


def learning(checks):
    """(boards, degrees of freedom, fleet_model.BOARD_MIN_DF) of the check with the fewest degrees of
    freedom between boards, among the checks the fleet does not judge yet; None where it judges all."""
    waiting = [c for c in performance(checks) if not c.not_applicable and not c.other_method and
               c.judged_by not in ("fleet", "limit", "run")]
    if not waiting:
        return None
    least = min(waiting, key=lambda c: (c.board_df or 0, c.boards or 0))
    return least.boards or 0, least.board_df or 0, fleet_model.BOARD_MIN_DF


LINK_SPEC_FLOOR = 0.5  # without a links model: a copy reaches at least half the link's computed peak


def judge_links(doc, links):
    """The checks of a node's links: per ordered pair (i != j) and figure (fleet_model.LINK_FIGURES),
    against the links model `links` (or, without one, the link's computed peak alone)."""
    out = []
    for (key, i, j), (v, entry) in sorted(fleet_model.link_values(doc).items(), key=lambda t: (t[0][1], t[0][2], t[0][0])):
        what, _, counter, how, kind = fleet_model.LINK_FIGURES[key]
        c = Check("links", what.format(i=i, j=j), compare.benchmark_key(entry.get("run_name") or entry["name"]))
        out.append(c)
        c.value, c.unit = v, counter
        peak = entry.get("peak_bytes_per_second")  # the link's peak, twice it both ways
        peak_note = f"the link's computed peak ({peak / 1e9:.1f} GB/s here)" if peak else "the link's computed peak"
        if counter == "pct_of_peak" and v > 100.5:
            c.status, c.expected, c.bound, c.margin = "fail", 100.0, 100.0, 100 * (100.0 / v - 1)
            c.basis, c.judged_by = f"above the physical limit: {peak_note}", "limit"
            continue
        fig = (links or {}).get("figures", {}).get(key)
        if fig and fig.get("sd") is not None:
            allowed = max(100 * math.expm1(3 * fig["sd"]), compare.MIN_EFFECT_PCT[kind])
            c.expected = fig["median"]
            c.bound = c.expected * (1 - allowed / 100) if how == "higher" else c.expected * (1 + allowed / 100)
            worse = 100 * ((c.expected - v) / c.expected if how == "higher" else (v - c.expected) / c.expected)
            c.margin = allowed - worse
            c.status = "pass" if c.margin >= 0 else "fail"
            c.judged_by = "fleet"
            c.basis = (f"links model: {fig['n']} pairs of {len(links.get('nodes', []))} node(s), spread "
                       f"{100 * fig['sd']:.2f} % -> {allowed:.2f} % allowed" +
                       (f"; share of {peak_note}" if counter == "pct_of_peak" else ""))
        elif counter == "pct_of_peak":
            c.expected, c.bound = 100.0, 100 * LINK_SPEC_FLOOR
            c.margin = 100 * (v / c.bound - 1)
            c.status = "pass" if v >= c.bound else "fail"
            c.judged_by = "specification"
            c.basis = f"no links model: the specification, at least {100 * LINK_SPEC_FLOOR:.0f} % of {peak_note}"
        else:
            c.basis = "no links model, and no specification bounds a latency: not judged"
    return out


def group_lines(run, checks, model):
    """Where the board is one of the fleet model's odd boards (a group of its own: the H200's two slow
    boards at the L2-edge writes), or a board the model has not seen that sits with such a group
    (compare_stats.sits_with_odd), the group named, as compare names it: a check among those metrics
    has judged it above; the others are no check's, and compare lists them as the group's, not judged."""
    board = run.context.get("gpu_uuid")
    if model is None or not board:
        return []
    odd, how = model.odd_of(board), "is one of the fleet model's odd boards of its part"
    if not odd and board not in set(model.doc.get("board_ids") or [board]):
        part = resultfile.board_group(run.context)
        for (name, counter), row in model.rows.items():
            values = run.values.get(name, {}).get(counter)
            if row.get("odd") and values and row.get("method") == run.methods.get(name):
                sits = compare_stats.sits_with_odd(row, part, statistics.median(values))
                if sits:
                    odd.append((name, counter, sits[0]))
        how = "a board the fleet model has not seen, sits with its odd boards"
    if not odd:
        return []
    checked = {c.name for c in checks}
    rest = [(n, c, pct) for n, c, pct in odd if n not in checked]
    families = {}
    for name, _, pct in rest:
        families.setdefault("/".join(resultfile.family_of_name(name).split("/")[:2]), []).append(pct)
    words = ", ".join(f"{fam} ({len(p)}, {min(p):+.1f} to {max(p):+.1f} %)" for fam, p in sorted(families.items()))
    return [f"group: {board[:12]} {how} in {len(odd)} metric(s)" + (f"; outside the checks: {words}" if rest else "")]


def verdict_line(checks):
    """The verdict's last line. Healthy by the fleet model reads "Verdict: healthy"; a verdict the
    fleet decided only in part, or not at all, says so and why, so that it never reads the same.
    The health group's failures fail it like any check's; its counts are not the checks' counts."""
    failed = [c for c in checks if c.status == "fail"]
    if failed:
        groups = []
        for g in GROUPS:
            bad = [c.what for c in failed if c.group == g]
            if bad:
                groups.append(f"{g} ({'; '.join(bad)})")
        return "Verdict: NOT HEALTHY: " + ", ".join(groups)
    every, checks = checks, performance(checks)
    applicable = [c for c in checks if not c.not_applicable]
    judged = sum(c.status == "pass" for c in applicable)
    if not judged:
        if any(c.group == INTEGRITY and c.status == "pass" for c in every):
            return "Verdict: no wrong value found (the integrity screen alone: no performance check in this run)"
        return "Verdict: not judged (no check could be)"
    how = judgement(checks)
    n_fleet = sum(c.judged_by == "fleet" for c in applicable)
    n_spec = sum(c.judged_by == "specification" for c in applicable)
    count = f"{judged} of {len(applicable)} checks judged"
    if len(applicable) < len(checks):
        count += f"; {len(checks) - len(applicable)} do not apply to this GPU"
    learn = learning(checks)
    learn_words = (f"; learning: {learn[0]} boards, {learn[1]} of the {learn[2]} degrees of freedom a spread "
                   "between boards needs") if learn else ""
    other = sum(c.other_method for c in applicable)
    if other:
        learn_words += f"; {other} of a method the fleet model does not hold (it holds the newest)"
    if how == "fleet":
        return "Verdict: healthy" + ("" if judged == len(applicable) else f" ({count})")
    if how == "specification":
        return f"Verdict: healthy by specification only ({count}{learn_words})"
    return f"Verdict: healthy, partly judged ({count}: {n_fleet} by the fleet model, {n_spec} by specification only{learn_words})"


def report(run, checks, model):
    ctx = run.context
    lines = [f"archbench acceptance: {os.path.basename(run.path)}",
             f"GPU: {ctx.get('gpu_name')} {ctx.get('gpu_uuid')} (part {resultfile.board_group(ctx) or 'unknown'}), commit "
             f"{str(ctx.get('archbench_git_sha', ''))[:12]}",
             model.describe() if model else "no fleet model for this GPU model: the specification and the physical "
                                            "limits judge, where they can; a site builds its own model from its "
                                            "runs (scripts/fleet_model.py DIR, docs/regression.md, section 4b)"]
    for g in GROUPS:
        cs = [c for c in checks if c.group == g]
        if cs:
            lines.append(f"{g}:")
            lines += [c.line() for c in cs]
    n = {s: sum(c.status == s for c in checks) for s in ("pass", "fail", "skipped")}
    lines.append(f"{n['pass']} passed, {n['fail']} failed, {n['skipped']} skipped")
    lines.append(health_words(checks))
    lines.append(integrity_words(checks))
    lines += group_lines(run, checks, model)
    lines.append(verdict_line(checks))
    return lines


def junit(per_run, path):
    suites = ET.Element("testsuites", name="archbench acceptance")
    for run, checks in per_run:  # run None: the node's links
        ctx = run.context if run else {}
        s = ET.SubElement(suites, "testsuite", name=f"{ctx.get('gpu_name')} {ctx.get('gpu_uuid')}" if run else "links",
                          tests=str(len(checks)), failures=str(sum(c.status == "fail" for c in checks)),
                          skipped=str(sum(c.status == "skipped" for c in checks)), errors="0")
        for c in checks:
            tc = ET.SubElement(s, "testcase", classname=c.group, name=c.what)
            msg = c.line().strip()
            if c.status == "fail":
                ET.SubElement(tc, "failure", message=msg)
            elif c.status == "skipped":
                ET.SubElement(tc, "skipped", message=msg)
            else:
                ET.SubElement(tc, "system-out").text = msg
    tmp = path + ".part"
    ET.ElementTree(suites).write(tmp, encoding="utf-8", xml_declaration=True)
    os.replace(tmp, path)


def load_run(path, extra=()):
    """A run and its document; `extra`: more files of the same GPU and process kind (run_node.py's
    gpu<N>-<feature>.json) whose benchmarks join it."""
    run = compare.load(path)
    try:
        doc = resultfile.load(path)
    except resultfile.ResultError as e:
        raise compare.InputError(str(e))
    for more in extra:
        other = compare.load(more)
        run.values.update(other.values)
        run.primary.update(other.primary)
        run.errors.update(other.errors)
        run.methods.update(other.methods)
        try:
            doc.setdefault("benchmarks", []).extend(resultfile.load(more).get("benchmarks", []))
        except resultfile.ResultError as e:
            raise compare.InputError(str(e))
    return run, doc


def model_of(run, path):
    """The fleet model that judges `run`: `path`, else the committed one of its GPU model (None where
    there is none). A model of another GPU model is bad input, never a silent verdict."""
    model = fleet_model.load_model(path) if path else fleet_model.model_for(run.context.get("gpu_name"))
    if model is not None and model.doc.get("gpu_name") and model.doc["gpu_name"] != run.context.get("gpu_name"):
        raise compare.InputError(f"{path}: a fleet model of '{model.doc['gpu_name']}', but the run is of "
                                 f"'{run.context.get('gpu_name')}'")
    return model


def node_outlier(per_run):
    """The GPU of a node whose checks fall furthest below its siblings' (the least margin among
    the failed), or None when every GPU passed."""
    worst = None
    for run, checks in per_run:
        for c in checks:
            if c.status == "fail" and (worst is None or (c.margin or -1e9) < (worst[1].margin or -1e9)):
                worst = (run, c)
    return worst


def run_short(binary, out_dir, integrity_seconds=None, soak_seconds=None):
    """The short acceptance run: the checks' benchmarks alone, full sweeps' methods; with
    `integrity_seconds`, the integrity screen after them for that long; with `soak_seconds`, the
    sustained-clock checks' FP32 and tensor loads run that long each. Returns its path."""
    os.makedirs(out_dir, exist_ok=True)
    before = set(glob.glob(os.path.join(out_dir, "*", "*.json")))
    t0 = time.time()
    soak = [f"--sustained_seconds={soak_seconds}"] if soak_seconds else []
    names, ctx = listing(binary, soak)
    wanted = acceptance_filter(names, ctx) + (f"|^{integrity.FEATURE}/" if integrity_seconds else "")
    screen = [f"--integrity_seconds={integrity_seconds:g}"] if integrity_seconds else []
    r = subprocess.run([binary, f"--benchmark_filter={wanted}", f"--results_dir={out_dir}", "--tag=accept", *soak,
                        *screen],
                       stdout=subprocess.DEVNULL)
    made = sorted(set(glob.glob(os.path.join(out_dir, "*", "*.json"))) - before, key=os.path.getmtime)
    if r.returncode != 0 or not made:
        raise compare.InputError(f"{binary} failed (exit {r.returncode}): the acceptance run wrote no usable result")
    print(f"acceptance run: {time.time() - t0:.1f} s, {made[-1]}")
    return made[-1]


def default_out():
    return os.path.join(os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"),
                        "archbench", "accept")


def export_bounds(fmt, expected, run_path, out):
    """accept.py --export: the bounds of every check per board part in an operator's format
    (nightly/operators.py), from the model (`expected`, else the committed one of the run's GPU) and
    the run whose benchmarks play the checks' roles (default: the model's committed baseline)."""
    model = fleet_model.load_model(expected) if expected else None
    if run_path is None:
        if model is None:
            raise compare.InputError("--export needs --expected MODEL or a RUN (the model of its GPU)")
        run_path = fleet_model.baseline_for(model.doc.get("gpu_name"))
        if run_path is None:
            raise compare.InputError(f"no committed baseline of {model.doc.get('gpu_name')}: give a RUN")
    run, doc = load_run(run_path)
    model = model or fleet_model.model_for(run.context.get("gpu_name"))
    if model is None:
        raise compare.InputError(f"no fleet model of {run.context.get('gpu_name')}: give --expected MODEL")
    if model.doc.get("gpu_name") != run.context.get("gpu_name"):
        raise compare.InputError(f"the model is of {model.doc.get('gpu_name')}, the run of {run.context.get('gpu_name')}")
    try:
        operators.export(fmt, model, run, doc, judge, out)
    except operators.ExportError as e:
        raise compare.InputError(str(e))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", nargs="?", help="a result file")
    ap.add_argument("--node", metavar="DIR", help="judge every GPU's run of a node (DIR/gpu*.json[.gz])")
    ap.add_argument("--run", dest="binary", metavar="BINARY", help="measure the short acceptance run first")
    ap.add_argument("--out", default=default_out(),
                    help="with --run: where its result goes (default "
                         "~/.local/share/archbench/accept: outside the repository)")
    ap.add_argument("--expected", metavar="MODEL", help="the fleet model (default: the committed one of the GPU's model)")
    ap.add_argument("--links", metavar="MODEL", help="with --node: the links model (default: the committed one of "
                                                      "the GPU's model, fleet_model.py --links)")
    ap.add_argument("--junit", metavar="OUT.xml", help="write JUnit XML")
    ap.add_argument("--prometheus", metavar="OUT.prom",
                    help="write the verdict and every check in Prometheus's text format (for a node exporter's "
                         "textfile collector; docs/acceptance.md)")
    ap.add_argument("--integrity", nargs="?", type=float, const=integrity.DEFAULT_SECONDS, metavar="SECONDS",
                    help="with --run: screen the GPU's data integrity after the checks (DRAM, FFMA, tensor cores, "
                         f"shared memory, L1; default {integrity.DEFAULT_SECONDS:g} s; docs/acceptance.md)")
    ap.add_argument("--soak", type=int, metavar="SECONDS",
                    help="with --run: hold the sustained-clock checks' FP32 and tensor loads SECONDS each (1..3600; "
                         "default 10): their clock against the fleet's, and a hardware clock-event reason at any "
                         "100 ms sample of them fails (docs/acceptance.md)")
    ap.add_argument("--export", choices=("thresholds", "reframe", "prometheus"),
                    help="write the bounds of every check per board part from the fleet model (--expected, or the "
                         "committed model of RUN's GPU): DCGM-style thresholds (JSON), ReFrame references (JSON) or "
                         "Prometheus alerting rules (YAML); docs/acceptance.md")
    ap.add_argument("--export-to", metavar="FILE", default="-", help="with --export: the file (default: standard output)")
    ap.add_argument("--binary", help=argparse.SUPPRESS)
    ap.add_argument("--print-filter", action="store_true",
                    help="print the short run's --benchmark_filter (with --node: the links' P2P benchmarks too)")
    argv = sys.argv[1:] if argv is None else argv
    if "--print-filter" in argv:  # --node takes no folder here
        rest = [a for a in argv if a not in ("--print-filter", "--node")]
        binary = rest[1] if len(rest) == 2 and rest[0] == "--binary" else \
            (rest[0][len("--binary="):] if len(rest) == 1 and rest[0].startswith("--binary=") else None)
        if binary is None:
            print("accept.py: error: --print-filter needs --binary BINARY (the filter follows this GPU's own sweep) "
                  "and takes --node alone besides", file=sys.stderr)
            return 2
        if not os.access(binary, os.X_OK):
            print(f"accept.py: error: {binary}: not an executable", file=sys.stderr)
            return 2
        try:
            names, ctx = listing(binary)
        except compare.InputError as e:
            print(f"accept.py: error: {e}", file=sys.stderr)
            return 2
        print(acceptance_filter(names, ctx, node="--node" in argv))
        return 0
    args = ap.parse_args(argv)
    try:
        if args.export_to != "-" and not args.export:
            raise compare.InputError("--export-to goes with --export FORMAT")
        if args.export:
            if args.node or args.binary or args.junit or args.prometheus:
                raise compare.InputError("--export writes the model's bounds: it takes a RUN and --expected MODEL alone")
            return export_bounds(args.export, args.expected, args.run, args.export_to)
        if sum(bool(x) for x in (args.run, args.node, args.binary)) != 1:
            raise compare.InputError("give one of RUN.json, --node DIR or --run BINARY")
        if args.links and not args.node:
            raise compare.InputError("--links judges a node's links: give --node DIR")
        if args.integrity is not None and not args.binary:
            raise compare.InputError("--integrity screens during the acceptance run: give --run BINARY (a result "
                                     "file's or node's screen, where it holds one, is judged without it)")
        if args.soak is not None and not args.binary:
            raise compare.InputError("--soak holds the loads of the acceptance run: give --run BINARY")
        if args.soak is not None and not 1 <= args.soak <= 3600:
            raise compare.InputError(f"--soak {args.soak}: the seconds of each load must lie in 1..3600")
        if args.integrity is not None and not 1 <= args.integrity <= 86400:
            raise compare.InputError(f"--integrity {args.integrity:g}: the screen's seconds must lie in 1..86400")
        if args.binary:
            if not os.access(args.binary, os.X_OK):
                raise compare.InputError(f"{args.binary}: not an executable")
            paths = [run_short(args.binary, args.out, args.integrity, args.soak)]
        elif args.node:
            if not os.path.isdir(args.node):
                raise compare.InputError(f"{args.node}: not a folder")
            paths = sorted((p for p in glob.glob(os.path.join(args.node, "gpu*.json*")) if re.search(r"gpu\d+\.json(\.gz)?$", p)),
                           key=lambda p: int(re.search(r"gpu(\d+)\.json", p).group(1)))
            if not paths:
                raise compare.InputError(f"{args.node}: no gpu<N>.json run in it")
        else:
            paths = [args.run]
        per_run, lines = [], []
        for p in paths:
            n = re.search(r"gpu(\d+)\.json(\.gz)?$", p)
            extra = sorted(glob.glob(os.path.join(os.path.dirname(p), f"gpu{n.group(1)}-*.json*"))) if args.node and n else []
            run, doc = load_run(p, extra)
            model = model_of(run, args.expected)
            checks = judge(run, doc, model)
            if all(c.status == "skipped" and c.basis.startswith("not measured in this run") for c in performance(checks)) \
                    and not any(c.group == INTEGRITY for c in checks):
                raise compare.InputError(f"{p}: measures none of the acceptance checks (run `accept.py --run BINARY`, "
                                         "or the whole suite)")
            per_run.append((run, checks))
            lines += report(run, checks, model) + [""]
        link_checks = []
        if args.node:
            p2p = sorted(glob.glob(os.path.join(args.node, "p2p.json*")))
            if p2p:
                try:
                    p2p_doc = resultfile.load(p2p[0])
                except resultfile.ResultError as e:
                    raise compare.InputError(str(e))
                links = (fleet_model.load_links(args.links) if args.links else
                         fleet_model.links_model_for(p2p_doc.get("context", {}).get("gpu_name")))
                link_checks = judge_links(p2p_doc, links)
                lines.append(f"links ({os.path.basename(p2p[0])}; " +
                             (f"links model of {len(links['nodes'])} node(s)" if links
                              else "no links model: the link's computed peak alone") + "):")
                lines += [c.line() for c in link_checks] + [""]
            elif len(per_run) > 1:
                lines += ["links: no p2p.json in the node folder (run_node.py --no-p2p?): not judged", ""]
            lines.append(f"Node: {len(per_run)} GPU(s)")
            for run, checks in per_run:
                lines.append(f"  {os.path.basename(run.path):24s} {run.context.get('gpu_uuid', '?')[:12]}  "
                             f"{verdict_line(checks)[len('Verdict: '):]}")
            if link_checks:
                lines.append(f"  {'links':24s} {'':12s}  {verdict_line(link_checks)[len('Verdict: '):]}")
            worst = node_outlier(per_run)
            bad_links = [c.what for c in link_checks if c.status == "fail"]
            if worst is None and not bad_links:
                lines.append("Node verdict: healthy")
            else:
                said = ([f"outlier {os.path.basename(worst[0].path)} ({worst[0].context.get('gpu_uuid', '?')[:12]}): "
                         f"{worst[1].group}, {worst[1].what}"] if worst else []) + \
                       ([f"links: {'; '.join(bad_links)}"] if bad_links else [])
                lines.append("Node verdict: NOT HEALTHY: " + "; ".join(said))
        if args.junit:
            try:
                junit(per_run + ([(None, link_checks)] if link_checks else []), args.junit)
            except OSError as e:
                raise compare.InputError(f"{args.junit}: cannot write: {e.strerror or e}")
        if args.prometheus:
            try:
                operators.write_prometheus(per_run, args.prometheus, judgement)
            except operators.ExportError as e:
                raise compare.InputError(str(e))
    except compare.InputError as e:
        print(f"accept.py: error: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines).rstrip())
    return 1 if any(c.status == "fail" for _, checks in per_run for c in checks + link_checks) else 0


if __name__ == "__main__":
    sys.exit(main())

"""The acceptance verdict where operators look (issue 87): a Prometheus text-format exposition of
accept.py's verdict and each of its checks, for a node exporter's textfile collector (written
atomically with the Prometheus project's own client library, prometheus_client).

Metrics, each labelled with the board (gpu_uuid), its GPU model and board part:
  archbench_accept_healthy                  1 healthy, 0 not (a failed check)
  archbench_accept_fleet_decided            1 when the fleet model judged every check that applies
  archbench_accept_checks{status}           how many checks passed, failed, were not judged
  archbench_accept_check_pass{group,check}  1 pass, 0 fail (a check not judged has no sample)
  archbench_accept_check_value / _expected / _bound
                                            the check's value, what a healthy board reads, and the
                                            bound the value was held to, in its unit
  archbench_accept_check_margin_percent     how far inside (+) or outside (-) the bound
  archbench_accept_run_timestamp_seconds    when the judged run was measured

And the fleet model's bounds as operators' tools read them (accept.py --export): per board
part, DCGM-style thresholds (JSON), ReFrame references, Prometheus alerting rules.
"""
import datetime
import json
import os
import re
import sys


class ExportError(Exception):
    """One line: why the exposition could not be written."""


def _timestamp(ctx):
    try:
        return datetime.datetime.fromisoformat(str(ctx.get("date", ""))).timestamp()
    except ValueError:
        return None


def write_prometheus(per_run, path, judgement):
    """Writes `per_run` ([(run, checks)]: accept.py's checks of each GPU) to `path` in the text
    format; `judgement(checks)` says how much the fleet decided (accept.judgement). ExportError
    without the library or where the file cannot be written."""
    try:
        from prometheus_client import CollectorRegistry, Gauge, write_to_textfile
    except ImportError:
        raise ExportError("--prometheus needs the Python package prometheus_client (pip install prometheus-client; "
                          "Debian: apt-get install python3-prometheus-client)")
    from archbench_tools.results import resultfile
    registry = CollectorRegistry()
    board = ["gpu_uuid", "gpu_model", "board_part"]
    check = board + ["group", "check", "unit"]
    healthy = Gauge("archbench_accept_healthy", "1 when accept.py calls the board healthy, 0 when a check failed",
                    board, registry=registry)
    decided = Gauge("archbench_accept_fleet_decided", "1 when the fleet model judged every check that applies",
                    board, registry=registry)
    counts = Gauge("archbench_accept_checks", "accept.py's checks by status", board + ["status"], registry=registry)
    passed = Gauge("archbench_accept_check_pass", "1 when the check passed, 0 when it failed", check, registry=registry)
    value = Gauge("archbench_accept_check_value", "the check's value, in its unit", check, registry=registry)
    expected = Gauge("archbench_accept_check_expected", "what a healthy board reads (the fleet's median, or the "
                     "specification)", check, registry=registry)
    bound = Gauge("archbench_accept_check_bound", "the bound the check's value was held to", check, registry=registry)
    margin = Gauge("archbench_accept_check_margin_percent", "how far inside (+) or outside (-) its bound",
                   check, registry=registry)
    when = Gauge("archbench_accept_run_timestamp_seconds", "when the judged run was measured (Unix time)",
                 board, registry=registry)
    for run, checks in per_run:
        ctx = run.context
        who = [str(ctx.get("gpu_uuid", "unknown")), str(ctx.get("gpu_name", "unknown")),
               str(resultfile.board_group(ctx) or "unknown")]
        healthy.labels(*who).set(0 if any(c.status == "fail" for c in checks) else 1)
        decided.labels(*who).set(1 if judgement(checks) == "fleet" else 0)
        for status in ("pass", "fail", "skipped"):
            counts.labels(*who, status).set(sum(c.status == status for c in checks))
        for c in checks:
            labels = who + [c.group, c.what, c.unit or ""]
            if c.status in ("pass", "fail"):
                passed.labels(*labels).set(1 if c.status == "pass" else 0)
            for gauge, v in ((value, c.value), (expected, c.expected), (bound, c.bound), (margin, c.margin)):
                if isinstance(v, (int, float)):
                    gauge.labels(*labels).set(v)
        t = _timestamp(ctx)
        if t is not None:
            when.labels(*who).set(t)
    try:
        write_to_textfile(path, registry)
    except OSError as e:
        raise ExportError(f"{path}: cannot write: {e.strerror or e}")


EXPORTS = ("thresholds", "reframe", "prometheus")
UNSEEN_PART = "a part the model has not seen"


def _group_context(context, group):
    """`context` as a board of `group` (resultfile.board_group's words) would have it."""
    from archbench_tools.results import resultfile
    ctx = dict(context)
    m = re.match(r"^(.*) on (\d+)-GPU hosts$", group)
    ctx[resultfile.PART] = m.group(1) if m else group
    ctx[resultfile.HOST_GPUS] = m.group(2) if m else "1"
    return ctx


def thresholds(model, run, doc, judge):
    """accept.py's bounds, per board part the fleet model knows and for one it has not seen: each
    check's benchmark (its role on this GPU model, found in `run`, the model's baseline), what a
    healthy board reads and the bound it is held to, and the health rules' limits. `judge` is
    accept.judge; a bound does not depend on the run's own value."""
    from archbench_tools.nightly import health
    groups = sorted(g for g in (model.doc.get("parts") or {}) if g != "unknown") + [UNSEEN_PART]
    out = {"gpu_name": model.doc.get("gpu_name"), "fleet_model": os.path.basename(model.path or ""),
           "built_from": f"{model.doc.get('runs')} runs of {model.doc.get('boards')} boards",
           "roles_from": os.path.basename(run.path), "parts": {}}
    for group in groups:
        run.context = _group_context(run.context, group)
        checks = []
        for c in judge(run, doc, model):
            if c.group == "health" or c.bound is None:
                continue
            checks.append({"group": c.group, "check": c.what, "benchmark": c.name, "counter": c.unit,
                           "expected": c.expected, "bound": c.bound,
                           "direction": ("equal" if c.bound == c.expected else
                                         "at least" if c.bound < c.expected else "at most"),
                           "judged_by": c.judged_by, "basis": c.basis.split("; but below")[0]})
        out["parts"][group] = checks
    out["health"] = {"pcie_replays_per_minute": health.DCGM_PCIE_REPLAYS_PER_MINUTE,
                     "ecc_corrected_per_run": health.DCGM_SBE_LIMIT, "retired_pages": health.DCGM_RETIRED_PAGES,
                     "nvlink_crc_per_second": health.DCGM_NVLINK_CRC_PER_SECOND,
                     "program_xids": sorted(health.PROGRAM_XIDS), "hardware_clock_reasons": sorted(health.HW_REASONS),
                     "rules": "docs/acceptance.md, Health"}
    return out


def reframe_references(t):
    """ReFrame's `reference` of each part: {part: {check: [expected, lower, upper, unit]}}, the
    thresholds as fractions of the reference, as a ReFrame test's performance variables take them."""
    out = {}
    for part, checks in t["parts"].items():
        ref = {}
        for c in checks:
            frac = c["bound"] / c["expected"] - 1 if c["expected"] else None
            ref[c["check"]] = [c["expected"], frac if c["direction"] != "at most" else None,
                               frac if c["direction"] != "at least" else None, c["counter"]]
        out[part] = ref
    return {"gpu_name": t["gpu_name"], "fleet_model": t["fleet_model"], "reference": out}


def _quoted(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def prometheus_rules(t):
    """Prometheus alerting rules (YAML) over accept.py's exposition (write_prometheus): the verdict,
    and each check's value against its bound for each part, so that an alert names the check."""
    lines = ["# archbench acceptance alerts for " + str(t["gpu_name"]) + ", from the fleet model " +
             t["fleet_model"] + " (scripts/accept.py --export prometheus)",
             "groups:", "  - name: archbench-acceptance", "    rules:",
             "      - alert: ArchbenchBoardNotHealthy", "        expr: archbench_accept_healthy == 0",
             "        labels: {severity: critical}",
             "        annotations: {summary: 'accept.py: {{ $labels.gpu_uuid }} is not healthy'}"]
    for part, checks in t["parts"].items():
        if part == UNSEEN_PART:
            continue
        for c in checks:
            if c["direction"] == "equal":  # an exact value (geometry): accept.py's verdict alerts on it
                continue
            op = "<" if c["direction"] == "at least" else ">"
            sel = (f'archbench_accept_check_value{{gpu_model={_quoted(t["gpu_name"])},board_part={_quoted(part)},'
                   f'check={_quoted(c["check"])}}}')
            lines += [f"      - alert: ArchbenchCheckOutOfBand",
                      f"        expr: '{sel} {op} {c['bound']:.6g}'",
                      f"        labels: {{severity: warning, check: {_quoted(c['check'])}}}",
                      f"        annotations: {{summary: '{c['check']} {op} {c['bound']:.6g} {c['counter']} "
                      f"(expected {c['expected']:.6g}, {c['judged_by']})'}}"]
    return "\n".join(lines) + "\n"


def export(kind, model, run, doc, judge, path):
    """Writes the export `kind` (EXPORTS) to `path` ('-': standard output); ExportError where not."""
    t = thresholds(model, run, doc, judge)
    text = (prometheus_rules(t) if kind == "prometheus" else
            json.dumps(reframe_references(t) if kind == "reframe" else t, indent=1) + "\n")
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path + ".part", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".part", path)
    except OSError as e:
        raise ExportError(f"{path}: cannot write: {e.strerror or e}")

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
"""
import datetime


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

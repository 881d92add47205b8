"""Every script that reads result files answers bad input the same way: one line naming the
file, exit code 2, no traceback (scripts/resultfile.py). pytest."""
import glob
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
GOOD = os.path.join(HERE, "..", "data", "h100_declared.json")

BAD = {
    "empty.json": "",
    "truncated.json": '{"context": {}, "benchm',
    "list.json": "[]",
    "string_benchmarks.json": '{"context": {}, "benchmarks": "none"}',
    "not_archbench.json": '{"a": 1}',
    "entry_not_object.json": '{"context": {}, "benchmarks": [1, 2]}',
    # Google Benchmark's own JSON, not archbench's: nothing to compare, report or plot
    "plain_google_benchmark.json": '{"context": {"date": "2026-11-26", "num_cpus": 2}, "benchmarks": '
                                   '[{"name": "BM_x", "run_type": "iteration", "real_time": 1.0}]}',
}
BINARY = {"plot.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00"}
PLOTS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(SCRIPTS, "plot_*.py")) if "timeline" not in p)
# (script, arguments before the file): scripts that take result files
TOOLS = [("validate_results.py", []), ("report.py", ["--out", "{tmp}/r"]), ("cv_table.py", []),
         ("node_summary.py", ["--out", "{tmp}/n"]), ("compare.py", [GOOD]),
         ("check_counters.py", []), ("ceilings.py", []), ("roofline.py", ["--out", "{tmp}/r.svg"]),
         ("export_model.py", ["--format", "json"])] + \
        [(p, ["--out", "{tmp}/p"]) for p in PLOTS]


def needs_matplotlib(script):
    return script.startswith("plot_") or script == "report.py"


# Runs one script on many inputs in a single process (its imports, matplotlib's among them, once):
# each case exactly as `python3 SCRIPT ARGS...` would run it (runpy as __main__, sys.argv set),
# reporting the exit code, stderr and whether a traceback escaped. Prints one JSON list.
DRIVER = r"""
import contextlib, io, json, os, runpy, sys, traceback
script, cases = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as `python3 SCRIPT` puts its folder first
out = []
for argv in cases:
    err = io.StringIO()
    code, tb = 0, ""
    sys.argv = [script] + argv
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            code, tb = 1, traceback.format_exc()
    out.append({"code": code, "stderr": err.getvalue(), "traceback": tb})
print(json.dumps(out))
"""


@pytest.mark.parametrize("script,pre", TOOLS, ids=[t[0] for t in TOOLS])
def test_bad_input_is_one_line_and_exit_2(tmp_path, script, pre):
    if needs_matplotlib(script):
        pytest.importorskip("matplotlib")
    pre = [a.format(tmp=tmp_path) for a in pre]
    cases = dict(BAD)
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    for name, data in BINARY.items():
        (tmp_path / name).write_bytes(data)
    names = list(cases) + list(BINARY) + ["missing.json"]
    r = subprocess.run([sys.executable, "-c", DRIVER, os.path.join(SCRIPTS, script),
                        json.dumps([[*pre, str(tmp_path / n)] for n in names])], capture_output=True, text=True)
    assert r.returncode == 0, f"{script}: the driver failed\n{r.stderr}"
    for name, res in zip(names, json.loads(r.stdout)):
        err = res["stderr"].strip()
        assert res["code"] == 2, f"{script} {name}: exit {res['code']}\n{res['stderr']}{res['traceback']}"
        assert not res["traceback"] and "Traceback" not in err, f"{script} {name}: {res['traceback']}{err}"
        assert len(err.splitlines()) == 1 and name in err, f"{script} {name}: {err!r}"


def test_report_latest_orders_by_the_runs_date_and_skips_references(tmp_path):
    pytest.importorskip("matplotlib")
    doc = json.load(open(GOOD))
    gpu = tmp_path / "results" / "gpu-a"
    gpu.mkdir(parents=True)
    (tmp_path / "results" / "reference").mkdir()
    (tmp_path / "results" / "reference" / "zz-paper.json").write_text(
        json.dumps({"context": {"gpu_name": "T4", "reference": "paper"}, "benchmarks": []}))
    for name, date in (("2026-11-22-tlb.json", "2026-11-22T08:00:00+00:00"),
                       ("2026-11-23.json", "2026-11-23T05:00:00+00:00"),
                       ("2026-11-22-2.json", "2026-11-22T14:00:00+00:00")):
        d = dict(doc, context=dict(doc["context"], date=date))
        (gpu / name).write_text(json.dumps(d))
    # git gives every file the checkout's time: make the oldest run look newest on disk
    os.utime(gpu / "2026-11-22-tlb.json", (4e9, 4e9))
    # --list: the run --latest would draw and where, without drawing (the report test draws one)
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "report.py"), "--latest", str(tmp_path / "results"), "--list"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    chosen = [tuple(line.split("\t")) for line in r.stdout.splitlines()]
    # the newest run by its date, no reference, each GPU's report in its own folder
    assert chosen == [(str(gpu / "2026-11-23.json"), str(gpu / "report" / "2026-11-23" / "index.md"))], r.stdout
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "report.py"), "--latest", str(tmp_path / "nope")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "no such directory" in r.stderr and "Traceback" not in r.stderr


def run_script(script, *args):
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), *args], capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def test_output_folders_and_binaries_that_cannot_be_used(tmp_path):
    """An output folder that cannot be made, a binary that does not exist: one line, exit 2."""
    pytest.importorskip("matplotlib")
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    timeline = tmp_path / "timeline.csv"
    timeline.write_text("block,warp_in_block,smid,warpid,start_ns,end_ns\n0,0,0,0,100,200\n")
    for script, given in (("plot_bandwidth.py", GOOD), ("report.py", GOOD), ("node_summary.py", GOOD),
                          ("plot_timeline.py", str(timeline))):
        for out in (blocker / "sub", blocker):
            code, err = run_script(script, "--out", str(out), given)
            assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err, (script, out, err)
            assert "cannot create the output folder" in err or "not writable" in err, (script, out, err)
    if os.geteuid() != 0:  # root writes into a 0555 folder: the case only a user meets
        ro = tmp_path / "read-only"
        ro.mkdir(mode=0o555)
        for script, given in (("node_summary.py", GOOD), ("plot_timeline.py", str(timeline))):
            code, err = run_script(script, "--out", str(ro), given)
            assert code == 2 and err.endswith("the output folder is not writable"), (script, err)
    code, err = run_script("planted_regressions.py", "--binary", str(tmp_path / "nonexistent"), "--out", str(tmp_path / "o"))
    assert code == 2 and err == f"planted_regressions.py: error: --binary {tmp_path / 'nonexistent'}: no such executable", err
    code, err = run_script("planted_regressions.py", "--emulate-from", GOOD, "--out", str(blocker / "sub"))
    assert code == 2 and "cannot create the output folder" in err and len(err.splitlines()) == 1, err


def test_a_compare_that_compares_nothing_is_an_error(tmp_path):
    """Two archbench files with no declared metric in common: an error, not 'no regression'."""
    doc = json.load(open(GOOD))
    other = dict(doc, benchmarks=[dict(b, name="Other/" + b["name"], run_name="Other/" + b["name"])
                                  for b in doc["benchmarks"]])
    p = tmp_path / "other.json"
    p.write_text(json.dumps(other))
    code, err = run_script("compare.py", GOOD, str(p))
    assert code == 2 and err.startswith("compare.py: error: nothing compared") and len(err.splitlines()) == 1, err


def test_dashboard_bad_input(tmp_path):
    """A results folder that is missing or holds no run, an --out that is a file: one line, exit 2."""
    pytest.importorskip("jinja2")
    code, err = run_script("dashboard.py", str(tmp_path / "nope"), "--out", str(tmp_path / "site"))
    assert code == 2 and err == f"dashboard.py: error: {tmp_path / 'nope'}: no such directory", err
    code, err = run_script("dashboard.py", GOOD, "--out", str(tmp_path / "site"))
    assert code == 2 and err == f"dashboard.py: error: {GOOD}: a file, not a folder of results", err
    code, err = run_script("nightly.py", "--history", str(tmp_path / "nope"), "--compare-latest")
    assert code == 2 and err == f"nightly.py: error: --history {tmp_path / 'nope'}: no such directory", err
    (tmp_path / "empty" / "some-gpu").mkdir(parents=True)
    (tmp_path / "empty" / "some-gpu" / "plot.json").write_bytes(BINARY["plot.png"])
    code, err = run_script("dashboard.py", str(tmp_path / "empty"), "--out", str(tmp_path / "site"))
    assert code == 2 and err.splitlines()[-1] == f"dashboard.py: error: {tmp_path / 'empty'}: no archbench run under it", err
    assert "Traceback" not in err
    (tmp_path / "results" / "some-gpu").mkdir(parents=True)
    (tmp_path / "results" / "some-gpu" / "run.json").write_text(open(GOOD).read())
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    code, err = run_script("dashboard.py", str(tmp_path / "results"), "--out", str(blocker))
    assert code == 2 and err == f"dashboard.py: error: --out {blocker}: not a directory", err


def test_the_reports_geometry_table_holds_no_label_internals():
    """A value not inferred says why in the label's own words, without the declarations
    (primary=..., method=...) whose '|' would add columns to the Markdown table."""
    sys.path.insert(0, SCRIPTS)
    from archbench_tools.report import report
    doc = {"context": {}, "benchmarks": [{
        "name": "Geometry/l1/sets_ways/iterations:1/manual_time", "run_type": "iteration", "confidence": 0.0,
        "label": "primary=ways:0%,sets:0% | method=925f7f442548 | no floor in the element count against spacing"}]}
    rows = report.geometry_rows(doc)
    assert rows == [("L1 sets and ways", "not inferred: no floor in the element count against spacing",
                     "confidence 0.00", "Geometry/l1/sets_ways")], rows
    assert all("|" not in cell and "primary=" not in cell for row in rows for cell in row)


# Commands that print a result (a closed pipe meets their first write), with the arguments that make
# them print; and the same commands into a full device (/dev/full): the output cannot be written.
PRINTING = [("compare.py", [GOOD, GOOD]), ("accept.py", [GOOD]), ("ceilings.py", [GOOD]), ("cv_table.py", [GOOD]),
            ("validate_results.py", [GOOD]), ("export_model.py", ["--format", "json", GOOD]), ("plot.py", ["--help"]),
            ("fleet_model.py", ["--show", os.path.join(SCRIPTS, "..", "results", "reference", "expected",
                                                       "nvidia-h200.json.xz")]),
            ("results_archive.py", ["list"])]


@pytest.mark.parametrize("script,args", PRINTING, ids=[p[0] for p in PRINTING])
def test_a_closed_pipe_or_a_full_output_ends_a_command_without_a_traceback(script, args):
    """`tool | head` ends quietly (SIGPIPE, as Unix tools do); an output that cannot be written is
    one line and exit 2 (archbench_tools/__init__.py owns both rules)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), *args], stdout=write_end,
                       stderr=subprocess.PIPE, text=True)
    os.close(write_end)
    assert r.returncode in (0, -13) and "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), *args], stdout=full,
                               stderr=subprocess.PIPE, text=True)
        err = r.stderr.strip()
        assert r.returncode == 2 and err.endswith("error: cannot write the output: No space left on device"), err
        assert "Traceback" not in err

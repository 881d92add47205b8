#!/usr/bin/env python3
"""A plot script draws fixture JSON, every figure readable (no legend over data, no empty panel
that says nothing), and skips files without its feature quietly.

Usage: check_plots.py PLOT DATA_DIR FEATURE STEM...   (STEM: an output file name without extension)

PLOT is the row's plot name, drawn through the tools' one front door for plots, scripts/plot.py
NAME (archbench-plot NAME installed): a feature's plot needs no command of its own.
"""
import json
import os
import subprocess
import sys
import tempfile

plot, data_dir, feature, stems = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
command = [sys.executable, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "plot.py"), plot]
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("matplotlib not installed (pip install matplotlib): skipped")
    sys.exit(77)

fixtures = [os.path.join(data_dir, f) for f in sorted(os.listdir(data_dir)) if f.endswith(".json")]
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    # scripts/plotlib.py's save() writes what makes each figure unreadable here (a legend over data,
    # an empty panel that says nothing): none may be.
    problems = os.path.join(tmp, "problems.txt")
    env = dict(os.environ, ARCHBENCH_PLOT_PROBLEMS=problems)
    r = subprocess.run([*command, "--out", tmp, *fixtures], capture_output=True, text=True, env=env)
    if os.path.exists(problems):
        for line in open(problems):
            failures += 1
            print(f"FAIL: unreadable: {line.strip()}")
    for stem in stems:
        for ext in ["png", "svg"]:
            p = os.path.join(tmp, f"{stem}.{ext}")
            if r.returncode != 0 or not os.path.exists(p) or os.path.getsize(p) < 1000:
                failures += 1
                print(f"FAIL: {p} not written (exit {r.returncode})\n{r.stdout}{r.stderr}")
    helptext = subprocess.run([*command, "--help"], capture_output=True, text=True).stdout
    if "--unit" in helptext:  # scripts that plot latencies also draw in ns
        r = subprocess.run([*command, "--unit", "ns", "--out", os.path.join(tmp, "ns"), *fixtures],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failures += 1
            print(f"FAIL: --unit ns: {r.stderr}")
    empty = os.path.join(tmp, "empty.json")
    doc = json.load(open(fixtures[0]))
    doc["benchmarks"] = []
    json.dump(doc, open(empty, "w"))
    r = subprocess.run([*command, "--out", os.path.join(tmp, "none"), empty], capture_output=True, text=True)
    if r.returncode != 0 or "skipped" not in r.stdout or os.path.exists(os.path.join(tmp, "none")):
        failures += 1
        print(f"FAIL: a file without {feature} must be skipped quietly: {r.returncode} {r.stdout}{r.stderr}")
print(f"{feature} plots: {failures} failure(s)")
sys.exit(1 if failures else 0)

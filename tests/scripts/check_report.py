#!/usr/bin/env python3
"""report.py on the fixture JSON: index.md with the geometry table and every plot it names;
--latest picks the newest run per GPU; bad input is one line and exit 2.

Usage: check_report.py REPORT_SCRIPT DATA_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

script, data = sys.argv[1], sys.argv[2]
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("matplotlib not installed: skipped")
    sys.exit(77)
fixtures = sorted(os.path.join(data, f) for f in os.listdir(data) if f.endswith(".json"))
# A TLB case without an inferred level says what its sweep read (here flat at the L1's hit latency).
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
from archbench_tools.report import report  # noqa: E402
flat = {"benchmarks": [{"name": "Tlb/geometry/ld.ca/mapping:contiguous", "run_type": "iteration", "levels": 0},
                       {"name": "Geometry/l1/capacity/carveout:0", "run_type": "iteration", "hit_cycles": 32.0,
                        "carveout_pct": 0, "capacity_bytes": 2 ** 18, "onset_bytes": 2 ** 17, "miss_penalty_cycles": 250,
                        "confidence": 0.9}] +
        [{"name": f"Tlb/latency/ld.ca/mapping:contiguous/stride:65536/footprint:{f}", "run_type": "iteration",
          "latency_cycles": 32.0, "footprint_bytes": f} for f in (1 << 20, 1 << 30)]}
tlb_row = [r for r in report.geometry_rows(flat) if r[0].startswith("TLB (")]
failures = [] if tlb_row and "2 chases read 32.0-32.0 cycles up to 1 GiB (the L1's hit latency" in tlb_row[0][1] \
    else [f"a TLB case without a level: {tlb_row}"]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "rep")
    r = subprocess.run([sys.executable, script, "--out", out, *fixtures], capture_output=True, text=True)
    index = os.path.join(out, "index.md")
    if r.returncode != 0 or not os.path.exists(index):
        failures.append(f"report failed ({r.returncode}): {r.stderr}")
    else:
        text = open(index).read()
        for want in ["32 x 4 B", "TLB level 2", "generations_latency.png", "tlb_footprint.png", "smembanks_stride.png",
                     "the GPU's card", "| Level | Capacity | Latency |", 'id="feature-memlatency"',
                     # the run beside the public figures of its model, and the generations by release
                     "NVIDIA H100 80GB HBM3 against the public record", "`mt4g-h100-sxm.json`",
                     "generations_release.png"]:
            if want not in text:
                failures.append(f"index.md lacks {want!r}")
        # The same report for a browser: its tables and plots as HTML, nothing of a context's text
        # read as markup.
        try:
            import markdown  # noqa: F401
            page = open(os.path.join(out, "index.html")).read()
            for want in ("<table>", '<img alt="generations_release.png" src="generations_release.png"', "the GPU's card"):
                if want not in page:
                    failures.append(f"index.html lacks {want!r}")
        except ImportError:
            pass
        for line in text.splitlines():
            if line.startswith("![") and not os.path.getsize(os.path.join(out, line.split("(")[1].rstrip(")"))) > 1000:
                failures.append(f"empty plot {line}")
    results = os.path.join(tmp, "results", "some-gpu")
    os.makedirs(results)
    shutil.copy(fixtures[0], results)
    # (no references here: the run beside the public record, 14 s of drawing, was checked above)
    no_reference = os.path.join(tmp, "no-reference")
    os.makedirs(no_reference)
    r = subprocess.run([sys.executable, script, "--latest", os.path.join(tmp, "results"), "--reference", no_reference],
                       capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip().endswith("index.md"):
        failures.append(f"--latest failed ({r.returncode}): {r.stderr}")
    # --latest: the newest *complete* run of each GPU, never a newer partial one, each GPU's report
    # in that GPU's folder; a run with method identifiers is complete when every feature its
    # context names has a benchmark.
    import json
    full = json.load(open(os.path.join(data, "h100_declared.json")))
    feats = sorted({b["name"].split("/")[0] for b in full["benchmarks"]})
    full["context"].update({f"archbench_method_{f}": "digest x" for f in feats})
    partial = json.loads(json.dumps(full))
    partial["benchmarks"] = [b for b in partial["benchmarks"] if b["name"].startswith("MemLatency/")]
    partial["context"]["date"] = "2026-11-30T00:00:00+00:00"  # newer
    two = os.path.join(tmp, "two")
    for gpu in ("gpu-a", "gpu-b"):
        os.makedirs(os.path.join(two, gpu, "sub"))
        json.dump(full, open(os.path.join(two, gpu, "sub", "2026-11-23-full.json"), "w"))
        json.dump(partial, open(os.path.join(two, gpu, "2026-11-30-memlatency.json"), "w"))
    # (--list: the choice alone, without drawing; the drawing is the --latest run above)
    r = subprocess.run([sys.executable, script, "--latest", two, "--list"], capture_output=True, text=True)
    want = [(os.path.join(two, g, "sub", "2026-11-23-full.json"),
             os.path.join(two, g, "report", "2026-11-23-full", "index.md")) for g in ("gpu-a", "gpu-b")]
    got = [tuple(line.split("\t")) for line in r.stdout.splitlines()]
    if r.returncode != 0 or got != want:
        failures.append(f"--latest chose {got} ({r.returncode}: {r.stderr[-300:]}), want {want}")
    bad = os.path.join(tmp, "bad.json")
    open(bad, "w").write('{"context": {}, "benchm')
    r = subprocess.run([sys.executable, script, "--out", out, bad], capture_output=True, text=True)
    if r.returncode != 2 or "bad.json" not in r.stderr or "Traceback" in r.stderr:
        failures.append(f"truncated JSON: exit {r.returncode}, {r.stderr!r}")
# Where the time went: the context's per-feature seconds, largest first, and the slowest benchmarks.
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
from archbench_tools.report import report  # noqa: E402
timed = {"context": {"archbench_wall_seconds_startup": "2.0", "archbench_wall_seconds_Tlb": "150.0",
                     "archbench_wall_seconds_MemLatency": "30.0", "archbench_wall_seconds_total": "200.0"},
         "benchmarks": [{"name": "Tlb/a", "wall_time_s": 12.5}, {"name": "MemLatency/b", "wall_time_s": 0.2}]}
t = "\n".join(report.time_lines(timed))
if not (t.index("| Tlb | 150.0 | 75 % |") < t.index("| MemLatency | 30.0 |") and "| total | 200.0 |" in t
        and "12.5 s `Tlb/a`" in t):
    failures.append(f"time table: {t!r}")
if report.time_lines({"context": {}, "benchmarks": []}):
    failures.append("a run without time accounting got a time table")
# A context's text is text in the browser too: a GPU name holding markup reaches index.html escaped.
try:
    import markdown  # noqa: F401
    with tempfile.TemporaryDirectory() as tmp:
        page = report.write_html(f"- GPU: {report.text('<script>alert(1)</script>')}\n", os.path.join(tmp, "index.html"))
        body = open(page).read()
        if "<script>" in body or "&lt;script&gt;alert(1)&lt;/script&gt;" not in body:
            failures.append(f"index.html holds a context's markup: {body[-300:]!r}")
except ImportError:
    print("markdown not installed: index.html not checked")
for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""No result lost: a run stopped by SIGINT or SIGTERM (or killed) leaves valid JSON holding every
benchmark that finished; a complete run holds all of them."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

demo = sys.argv[1]
ALL = 5  # incremental_json_demo: 100..500 ms benchmarks
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok else f" ({detail})"))
    failures += 0 if ok else 1


def run(stop_signal, after_s, path):
    p = subprocess.Popen([demo, path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stop_signal is None:
        p.wait(timeout=30)
    else:
        time.sleep(after_s)
        p.send_signal(stop_signal)
        p.wait(timeout=30)
    with open(path) as f:
        return json.load(f)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "out.json")
    doc = run(None, 0, path)
    check("a complete run holds every benchmark", len(doc["benchmarks"]) == ALL, len(doc["benchmarks"]))
    check("the context is there", doc.get("context", {}).get("demo") == "true")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        os.remove(path)
        try:
            doc = run(sig, 0.75, path)  # 100 + 200 ms done, 300 ms running
        except (ValueError, OSError) as e:
            check(f"{sig.name}: the file is valid JSON", False, e)
            continue
        n = len(doc["benchmarks"])
        check(f"{sig.name}: valid JSON with the finished benchmarks ({n})", 1 <= n < ALL, n)
        check(f"{sig.name}: what is there is complete", all("latency_cycles" in b for b in doc["benchmarks"]))
    run(None, 0, path)
    check("no temporary file left behind by a complete run", not os.path.exists(path + ".tmp"))
print(f"{failures} failed")
sys.exit(1 if failures else 0)

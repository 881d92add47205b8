"""compare.py: the declared metric per family (never wall time), history-based bands, the
false-discovery control, feature shifts, planted regressions found in their feature alone, the
one-screen summary and the full table, and bad input as a clear error (pytest)."""
import contextlib
import csv
import io
import json
import math
import os
import random
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.environ.get("ARCHBENCH_COMPARE", os.path.join(HERE, "..", "..", "scripts", "compare.py"))
sys.path.insert(0, os.path.dirname(SCRIPT))
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.results import resultfile, results_archive  # noqa: E402

GPU = "NVIDIA H100 80GB HBM3"


def entry(name, label, counters, rep=0, method="m1"):
    """A benchmark entry; a declared one carries a method identifier as archbench writes it
    ('primary=... | method=<id> | note'), unless method is None (a file from before them)."""
    if method is not None and label.startswith("primary="):
        decl, _, note = label.partition(" | ")
        label = f"{decl} | method={method}" + (f" | {note}" if note else "")
    e = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": rep, "real_time": 1.0,
         "label": label}
    e.update(counters)
    return e


def write(tmp_path, fname, benchmarks, gpu=GPU, uuid="GPU-1", date="2026-11-23T00:00:00+00:00", method_ids=True,
          **ctx):
    p = tmp_path / fname
    context = {"gpu_name": gpu, "gpu_uuid": uuid, "date": date, "archbench_primary_metrics": "label"}
    if method_ids:
        context["archbench_method_ids"] = "label"
    context.update(ctx)
    p.write_text(json.dumps({"context": context, "benchmarks": benchmarks}))
    return str(p)


def suite(rng, noise=0.002, slow=None, pct=3.0, reps=1):
    """A small suite: 3 features x 20 benchmarks, declared metrics, relative noise `noise`; the
    feature `slow` planted pct % worse, as ARCHBENCH_FAULT=slow:<F>:<pct> does."""
    out = []
    f = 1 + pct / 100
    for rep in range(reps):
        for i in range(20):
            jitter = lambda: 1 + rng.gauss(0, noise)
            lat = (300 + i) * jitter() * (f if slow == "MemLatency" else 1)
            out.append(entry(f"MemLatency/chain/ld.cg/footprint:{i}", "primary=latency_cycles:lower",
                             {"latency_cycles": lat, "real_time": 1000.0}, rep))
            bw = (20 + i) * jitter() / (f if slow == "Bandwidth" else 1)
            out.append(entry(f"Bandwidth/read/ld/width:16/footprint:{i}", "primary=bytes_per_clk_per_sm:higher",
                             {"bytes_per_clk_per_sm": bw, "bytes_per_second": bw * 2.6e11}, rep))
            tc = 4096 * jitter() / (f if slow == "TensorCore" else 1)
            # A calibrated launch: real_time is the 2 ms target whatever the kernel does.
            out.append(entry(f"TensorCore/wgmma/throughput/f16/n:{i}", "primary=flop_per_clk_per_sm:higher",
                             {"flop_per_clk_per_sm": tc, "real_time": 2000.0}, rep))
        out.append(entry("Geometry/l2/line", "primary=line_bytes:0% | a note", {"line_bytes": 128}, rep))
    return out


def run(*args):
    """compare.py's main in this process (its imports cost 2 s a process); the command line itself
    is tried by run_command."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = compare.main(list(args))
    except SystemExit as e:
        code = e.code
    return code, out.getvalue()


def run_command(*args):
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def test_labels_declare_the_metric_and_direction():
    assert compare.parse_label("primary=latency_cycles:lower") == ([("latency_cycles", "lower", 0.0)], "")
    assert compare.parse_label("primary=capacity_bytes:5%,line_bytes:0% | hashed") == \
        ([("capacity_bytes", "value", 5.0), ("line_bytes", "value", 0.0)], "hashed")
    assert compare.parse_label("D f16") == ([], "D f16")


def test_every_family_has_a_metric_and_none_is_wall_time():
    """The legacy rules (files without declarations) cover every family of the committed H100
    runs, and no family falls back to real_time."""
    families = ["MemLatency/chain/x", "Pipeline/latency/ffma", "Pipeline/throughput/ffma/ilp:1", "Bandwidth/read/ld",
                "Atomics/global/atom.add.u32/gpu", "Atomics/latency/global/atom.add.u32", "SmemBanks/latency/w",
                "SmemBanks/throughput/w", "SmemBanks/geometry", "Dsm/latency/cluster:2", "Dsm/bandwidth/cluster:2",
                "Tlb/latency/ld.cg", "Tlb/geometry/ld.cg", "TensorCore/wgmma/throughput/f16",
                "TensorCore/mma_sync/latency/f16", "TensorCore/cublas/f16", "Scheduling/timeline/ffma",
                "Scheduling/warp_schedulers/ffma", "Scheduling/sustained_clock/ffma", "Scheduling/icache/ffma",
                "Scheduling/icache_geometry/ffma", "Geometry/l1/sweep/c", "Geometry/l1/capacity/carveout:0",
                "Geometry/l2/capacity", "Geometry/l2/sm_map", "P2P/copy/src:0", "P2P/latency/gpu:0", "P2P/link/gpu:0"]
    for name in families:
        metrics = resultfile.legacy_primary(name)
        assert metrics, name
        assert all(m[0] != "real_time" for m in metrics), name
    assert resultfile.legacy_primary("TensorCore/wgmma/throughput/f16")[0][:2] == ("flop_per_clk_per_sm", "higher")
    assert resultfile.legacy_primary("Atomics/latency/global/x")[0][:2] == ("latency_cycles", "lower")
    assert compare.metric_kind("latency_cycles") == "cycles" and compare.metric_kind("cycles_per_access") == "cycles"
    assert compare.metric_kind("bytes_per_clk_per_sm") == "per_clk"
    assert compare.metric_kind("bytes_per_second") == "bytes_per_second"
    # Launch costs are times: their own kind, with the unit in the report.
    assert compare.metric_kind("host_launch_ns") == "ns" and compare.metric_kind("gpu_gap_ns") == "ns"
    assert compare.UNITS["ns"] == "ns" and compare.MIN_EFFECT_PCT["ns"] > 0


def test_the_committed_h100_files_use_their_declared_metrics():
    """Real JSON from the GPU (tests/data) compared with itself: nothing changes, and the metric
    of the calibrated TensorCore launches is flop per clock, not real_time."""
    data = os.path.join(HERE, "..", "data", "h100_tensor.json")
    base = compare.load(data)
    rows, features = compare.compare(base, base)
    assert rows and all(r["status"] == "same" for r in rows)
    assert {r["counter"] for r in rows if r["name"].startswith("TensorCore/wgmma/throughput")} == {"flop_per_clk_per_sm"}


def test_a_kernel_twice_as_slow_under_a_calibrated_launch_is_seen(tmp_path):
    rng = random.Random(1)
    base = suite(rng)
    cont = suite(rng)
    for e in cont:
        if e["name"] == "TensorCore/wgmma/throughput/f16/n:3":
            e["flop_per_clk_per_sm"] /= 2  # real_time stays 2000 (the launch is calibrated)
    code, out = run(write(tmp_path, "a.json", base), write(tmp_path, "b.json", cont))
    assert code == 1, out
    assert "REGRESSED     TensorCore/wgmma/throughput/f16/n:3  flop_per_clk_per_sm" in out


def test_planted_three_percent_is_flagged_in_its_feature_alone(tmp_path):
    rng = random.Random(2)
    history = [write(tmp_path, f"h{i}.json", suite(rng), date=f"2026-11-2{i}") for i in range(4)]
    base = write(tmp_path, "base.json", suite(rng), date="2026-11-25")
    for feature in ("MemLatency", "Bandwidth", "TensorCore"):
        cont = write(tmp_path, f"p-{feature}.json", suite(rng, slow=feature), date="2026-11-26",
                     archbench_fault=f"slow:{feature}:3")
        code, out = run(base, cont, "--history", *history)
        assert code == 1, out
        verdict = [l for l in out.splitlines() if l.startswith("Verdict")][0]
        assert verdict.startswith(f"Verdict: REGRESSION in {feature} ("), verdict
        assert ";" not in verdict, verdict  # no other feature
        assert "PLANTED" in out
    # A/A: the same suite, no fault: nothing flagged.
    code, out = run(base, write(tmp_path, "aa.json", suite(rng), date="2026-11-26"), "--history", *history)
    assert code == 0 and "Verdict: no regression" in out, out


def test_history_band_absorbs_a_noisy_benchmark_that_single_runs_would_flag(tmp_path):
    """A benchmark that moves 8 % from run to run: with its history the band is wide enough; a
    steady one moving 8 % is a regression."""
    rng = random.Random(3)

    def run_file(i, noisy_value, steady_value):
        return write(tmp_path, f"r{i}.json", [
            entry("MemLatency/chain/edge", "primary=latency_cycles:lower", {"latency_cycles": noisy_value}),
            entry("MemLatency/chain/steady", "primary=latency_cycles:lower", {"latency_cycles": steady_value})],
            date=f"2026-11-{10 + i}")
    hist = [run_file(i, 400 * (1 + rng.choice([-0.08, 0.08])) , 300 * (1 + rng.gauss(0, 0.001))) for i in range(6)]
    base = run_file(7, 400, 300)
    cont = run_file(8, 432, 324)
    base_run, cont_run = compare.load(base), compare.load(cont)
    rows, _ = compare.compare(base_run, cont_run, [compare.load(h) for h in hist])
    status = {r["name"]: r for r in rows}
    assert status["MemLatency/chain/edge"]["status"] == "same"
    assert status["MemLatency/chain/edge"]["noise"].startswith("history of")
    assert status["MemLatency/chain/steady"]["status"] == "regressed"


def test_a_benchmarks_own_sample_spread_widens_its_band_never_narrows_it(tmp_path):
    """A sweep point at a capacity edge reports the spread of its samples (report_sampled): a
    14 % move inside 3 standard errors of that spread is not flagged; the same move of a point
    whose samples agree is; and a tiny spread does not lower the floor of single runs."""
    def side(fname, edge, steady, tight):
        return compare.load(write(tmp_path, fname, [
            entry("Geometry/l1/sweep/edge", "primary=latency_cycles:lower",
                  {"latency_cycles": edge, "latency_cycles_sd_pct": 12.0, "latency_cycles_samples": 3}),
            entry("Geometry/l1/sweep/steady", "primary=latency_cycles:lower",
                  {"latency_cycles": steady, "latency_cycles_sd_pct": 0.2, "latency_cycles_samples": 3}),
            entry("Geometry/l1/sweep/tight", "primary=latency_cycles:lower",
                  {"latency_cycles": tight, "latency_cycles_sd_pct": 0.1, "latency_cycles_samples": 3})]))
    rows, _ = compare.compare(side("a.json", 200, 100, 100), side("b.json", 228, 114, 105))
    r = {row["name"].rsplit("/", 1)[1]: row for row in rows}
    # 3 x 1.2533 x sqrt(2 x 12^2 / 3) = 36.8 %
    assert math.isclose(r["edge"]["threshold_pct"], 3 * 1.2533 * math.sqrt(2 * 144 / 3), rel_tol=1e-3)
    assert r["edge"]["status"] == "same" and r["edge"]["noise"].endswith("samples")
    assert r["steady"]["status"] == "regressed"
    assert r["tight"]["status"] == "same" and r["tight"]["threshold_pct"] == compare.DEFAULT_FLOOR_PCT


def test_a_changed_iteration_count_keeps_a_benchmark_on_its_history(tmp_path):
    """Google Benchmark puts '/iterations:N' in the name; Atomics went from 3 to 5 launches."""
    a = write(tmp_path, "a.json", [entry("Atomics/global/x/iterations:3/manual_time", "primary=atomics_per_clk:higher",
                                         {"atomics_per_clk": 10.0})])
    b = write(tmp_path, "b.json", [entry("Atomics/global/x/iterations:5/manual_time", "primary=atomics_per_clk:higher",
                                         {"atomics_per_clk": 5.0})])
    rows, _ = compare.compare(compare.load(a), compare.load(b))
    assert [(r["name"], r["status"]) for r in rows] == [("Atomics/global/x/manual_time", "regressed")]


def test_a_value_is_compared_against_the_history_median_not_one_odd_baseline(tmp_path):
    def f(i, line):
        return write(tmp_path, f"g{i}.json", [entry("Geometry/l2/capacity", "primary=capacity_bytes:5%",
                                                    {"capacity_bytes": line})], date=f"2026-11-1{i}")
    hist = [compare.load(f(i, 52.4e6)) for i in range(3)]
    odd_base = compare.load(f(5, 67.6e6))
    rows, _ = compare.compare(odd_base, compare.load(f(6, 52.5e6)), hist)
    assert rows[0]["status"] == "same"
    rows, _ = compare.compare(odd_base, compare.load(f(7, 60e6)), hist)
    assert rows[0]["status"] == "value changed"


def test_a_changed_line_size_is_a_finding(tmp_path):
    a = write(tmp_path, "a.json", [entry("Geometry/l2/line", "primary=line_bytes:0%", {"line_bytes": 128})])
    b = write(tmp_path, "b.json", [entry("Geometry/l2/line", "primary=line_bytes:0%", {"line_bytes": 256})])
    code, out = run(a, b)
    assert code == 1 and "VALUE CHANGED" in out and "inferred value(s) changed" in out


def test_false_discovery_control_over_many_benchmarks():
    """1000 null p-values: Benjamini-Hochberg leaves (almost) none below 0.05; 20 real effects
    among them stay discovered."""
    rng = random.Random(4)
    null = [rng.random() for _ in range(1000)]
    q = compare.benjamini_hochberg(null)
    assert sum(v < 0.05 for v in q) <= 2
    mixed = null + [1e-6] * 20 + [None]
    q = compare.benjamini_hochberg(mixed)
    assert sum(v is not None and v < 0.05 for v in q) >= 20 and q[-1] is None


def test_repetitions_give_a_p_value_at_three(tmp_path):
    """At the repetitions a nightly may use (3), a clear change is significant (the U test could
    never go below 0.081 there); Welch's test on the logarithms can."""
    import pytest
    pytest.importorskip("scipy")
    p = compare.welch_p([100.0, 100.2, 99.9], [110.0, 110.1, 109.8])
    assert p is not None and p < 0.01
    assert compare.welch_p([100.0, 100.2, 99.9], [100.1, 99.8, 100.0]) > 0.2


def test_one_screen_summary_markdown_and_full_table(tmp_path):
    rng = random.Random(5)
    a = write(tmp_path, "a.json", suite(rng, reps=3))
    cont = suite(rng, reps=3)
    for e in cont:
        if e["name"] == "Bandwidth/read/ld/width:16/footprint:7":
            e["bytes_per_clk_per_sm"] *= 0.8
    b = write(tmp_path, "b.json", cont)
    table = tmp_path / "full.csv"
    code, out = run(a, b, "--table", str(table))
    assert code == 1
    lines = out.splitlines()
    assert len(lines) <= 40, out
    assert any(l.startswith("feature") and "regressed" in l for l in lines)
    assert any(l.startswith("Bandwidth ") for l in lines) and any(l.startswith("total ") for l in lines)
    assert "REGRESSED     Bandwidth/read/ld/width:16/footprint:7  bytes_per_clk_per_sm" in out
    assert "per clk" in out and re.search(r"\(-(19|20)\.\d\d %", out), out
    rows = list(csv.DictReader(open(table)))
    assert len(rows) == 61 and {"name", "counter", "change_pct", "status", "q"} <= set(rows[0])
    code, md = run(a, b, "--markdown")
    assert "| feature | compared | changed | improved | regressed |" in md and "**Verdict:**" in md


def test_partial_overlap_failures_and_different_gpus(tmp_path):
    a = write(tmp_path, "a.json", [entry("Pipeline/latency/ffma", "primary=latency_cycles:lower", {"latency_cycles": 4.0}),
                                   entry("Pipeline/latency/dfma", "primary=latency_cycles:lower", {"latency_cycles": 8.0})])
    failed = entry("Pipeline/latency/hfma", "primary=latency_cycles:lower", {})
    failed.update(error_occurred=True, error_message="x")
    b = write(tmp_path, "b.json", [entry("Pipeline/latency/ffma", "primary=latency_cycles:lower", {"latency_cycles": 4.0}),
                                   entry("Pipeline/latency/imad", "primary=latency_cycles:lower", {"latency_cycles": 4.0}),
                                   failed], gpu="NVIDIA A100-SXM4-80GB")
    code, out = run(a, b)
    assert code == 0, out
    assert "1 benchmark(s) only in the baseline, 1 only in the contender, 1 failed in the contender only" in out
    assert "WARNING: gpu_name differs" in out


def test_bad_input_is_a_clear_error(tmp_path):
    good = write(tmp_path, "a.json", [entry("Pipeline/latency/ffma", "primary=latency_cycles:lower", {"latency_cycles": 4.0})])
    truncated = tmp_path / "t.json"
    truncated.write_text('{"context": {}, "benchmarks": [{"name": ')
    code, out = run_command(good, str(truncated))
    assert code == 2 and "t.json: not valid JSON" in out and "Traceback" not in out
    code, out = run_command(good, str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json: cannot read" in out and "Traceback" not in out
    (tmp_path / "list.json").write_text("[]")
    code, out = run_command(good, str(tmp_path / "list.json"))
    assert code == 2 and "the top level is a list" in out
    bad = write(tmp_path, "bad.json", [entry("Pipeline/latency/ffma", "primary=latency_cycles", {"latency_cycles": 4.0})])
    code, out = run_command(good, bad)
    assert code == 2 and "malformed primary declaration" in out and "Traceback" not in out


def test_sign_test_without_scipy_matches():
    assert math.isclose(compare.sign_test_p(10, 0), 2 / 2 ** 10, rel_tol=1e-9)


def test_a_real_run_declares_a_primary_metric_in_every_benchmark():
    """Three benchmarks of every family of a full H100 run (commit 622f7999cee3): each declares
    its metrics in its label, reports them, and compare.py reads the declaration."""
    path = os.path.join(HERE, "..", "data", "h100_declared.json")
    doc = json.load(open(path))
    assert doc["context"]["archbench_primary_metrics"] == "label"
    run_ = compare.load(path)
    assert run_.declared == len(run_.values)
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        decl, _ = compare.parse_label(b["label"])
        assert decl and all(isinstance(b.get(c), (int, float)) for c, _, _ in decl), b["name"]
    families = {"/".join(n.split("/")[:2]) for n in run_.values}
    assert len(families) >= 25
    validate = os.path.join(os.path.dirname(SCRIPT), "validate_results.py")
    r = subprocess.run([sys.executable, validate, path], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_planted_regressions_script_tabulates_each_feature(tmp_path):
    """scripts/planted_regressions.py --from-existing on runs made like a GPU's: 3 baselines and
    one 3 % fault per feature; each is flagged in its feature alone (exit 0)."""
    rng = random.Random(6)
    out = tmp_path / "planted"
    out.mkdir()
    for i in range(3):
        (out / f"baseline-{i}.json").write_text(open(write(tmp_path, f"b{i}.json", suite(rng), date=f"2026-11-2{i}")).read())
    for f in ("MemLatency", "Bandwidth", "TensorCore"):
        (out / f"planted-{f}.json").write_text(open(write(tmp_path, f"p{f}.json", suite(rng, slow=f), date="2026-11-25",
                                                          archbench_fault=f"slow:{f}:3")).read())
    script = os.path.join(os.path.dirname(SCRIPT), "planted_regressions.py")
    r = subprocess.run([sys.executable, script, "--out", str(out), "--from-existing",
                        "--features", "MemLatency,Bandwidth,TensorCore"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    for f in ("MemLatency", "Bandwidth", "TensorCore"):
        assert re.search(rf"\| {f} \| {f}: \d+ regressed, the whole feature \+\d\.\d\d % worse \| ok \|", r.stdout), r.stdout
    assert (out / "planted.md").exists()


def test_planted_regressions_can_be_emulated_on_a_real_run(tmp_path):
    """--emulate-from: each feature's measured primaries scaled as the wrapper's hook scales
    them, in a copy of another healthy run, against the baseline; inferred values untouched."""
    rng = random.Random(8)
    out = tmp_path / "emulated"
    out.mkdir()
    (out / "baseline-0.json").write_text(open(write(tmp_path, "b.json", suite(rng), date="2026-11-20")).read())
    other = write(tmp_path, "other.json", suite(rng), date="2026-11-21")
    script = os.path.join(os.path.dirname(SCRIPT), "planted_regressions.py")
    r = subprocess.run([sys.executable, script, "--out", str(out), "--baselines", "1", "--emulate-from", other,
                        "--features", "MemLatency,Bandwidth"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    planted = json.loads((out / "planted-Bandwidth.json").read_text())
    source = json.loads(open(other).read())
    assert planted["context"]["archbench_fault"].startswith("slow:Bandwidth:3 (emulated")
    pairs = [(p, s) for p, s in zip(planted["benchmarks"], source["benchmarks"])]
    bw = [(p, s) for p, s in pairs if p["name"].startswith("Bandwidth/")]
    assert all(math.isclose(p["bytes_per_clk_per_sm"] * 1.03, s["bytes_per_clk_per_sm"]) for p, s in bw)
    assert all(p == s for p, s in pairs if not p["name"].startswith("Bandwidth/"))
    for f in ("MemLatency", "Bandwidth"):
        assert re.search(rf"\| {f} \| {f}: [^|]+\| ok \|", r.stdout), r.stdout


def test_emulated_plants_are_judged_against_the_a_a(tmp_path):
    """With --emulate-from, a benchmark that moved between the two healthy runs (the A/A's own
    flag, here one TensorCore point) is not held against the plant of another feature: each row
    passes when its feature is flagged and the others are flagged as in the A/A; the A/A line
    names the point's feature. A planted feature that is missed still fails."""
    rng = random.Random(9)
    out = tmp_path / "emulated"
    out.mkdir()
    (out / "baseline-0.json").write_text(open(write(tmp_path, "b.json", suite(rng), date="2026-11-20")).read())
    moved = suite(rng)
    tc = next(b for b in moved if b["name"].startswith("TensorCore/"))
    tc["flop_per_clk_per_sm"] *= 0.5
    other = write(tmp_path, "other.json", moved, date="2026-11-21")
    script = os.path.join(os.path.dirname(SCRIPT), "planted_regressions.py")
    r = subprocess.run([sys.executable, script, "--out", str(out), "--baselines", "1", "--emulate-from", other,
                        "--features", "MemLatency,Bandwidth"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    for f in ("MemLatency", "Bandwidth"):
        assert re.search(rf"\| {f} \| {f}: [^|]+ \(other features: as in the A/A\) \| ok \|", r.stdout), r.stdout
    assert re.search(r"A/A \(other.json against the baseline\): TensorCore: 1 regressed", r.stdout), r.stdout
    # A plant too small to see is a failure, whatever the A/A did.
    r = subprocess.run([sys.executable, script, "--out", str(out), "--baselines", "1", "--emulate-from", other,
                        "--features", "MemLatency", "--pct", "0.01"], capture_output=True, text=True)
    assert r.returncode == 1, r.stdout + r.stderr
    assert re.search(r"\| MemLatency \| [^|]+\| FAIL \|", r.stdout), r.stdout


def test_a_renamed_counter_keeps_its_history(tmp_path):
    """Pipeline's inst_per_clk_per_sm became thread_inst_per_clk_per_sm: an older file is read
    under the new name, so the benchmark is still compared across the rename."""
    a = write(tmp_path, "a.json", [entry("Pipeline/throughput/ffma/ilp:4", "primary=inst_per_clk_per_sm:higher",
                                         {"inst_per_clk_per_sm": 128.0})])
    b = write(tmp_path, "b.json", [entry("Pipeline/throughput/ffma/ilp:4", "primary=thread_inst_per_clk_per_sm:higher",
                                         {"thread_inst_per_clk_per_sm": 100.0})])
    rows, _ = compare.compare(compare.load(a), compare.load(b))
    assert [(r["counter"], r["status"]) for r in rows] == [("thread_inst_per_clk_per_sm", "regressed")]


def test_a_history_without_the_contenders_board_is_named(tmp_path):
    rng = random.Random(11)
    base = write(tmp_path, "b.json", suite(rng), uuid="GPU-1")
    hist = [write(tmp_path, f"h{i}.json", suite(rng), uuid="GPU-1", date=f"2026-11-2{i}") for i in range(2)]
    other = write(tmp_path, "c.json", suite(rng), uuid="GPU-2")
    same = write(tmp_path, "s.json", suite(rng), uuid="GPU-1")
    _, out = run(base, other, "--history", *hist)
    assert "no run of the contender's board in the history" in out, out
    _, out = run(base, same, "--history", *hist)
    assert "no run of the contender's board" not in out, out


def test_a_history_of_another_board_part_is_not_the_contenders_noise(tmp_path):
    """H200 boards of part -000 read DRAM-bound figures 3-4 % off those of -001. A history of
    -001 boards (whose runs agree within 0.2 %) would flag that as a change on a -000 board: the
    pair is judged without it, at the floor. Runs of the contender's part (two or more) are its history."""
    rng = random.Random(12)
    part = {"gpu_board_part_number": "692-2G520-0282-001"}
    base = write(tmp_path, "b.json", suite(rng), uuid="GPU-1", **part)
    hist = [write(tmp_path, f"h{i}.json", suite(rng), uuid=f"GPU-{i + 3}", date=f"2026-11-2{i}", **part)
            for i in range(5)]

    def dram_slower(benchmarks):  # 5 of the 20 chases reach DRAM: 3.7 % slower there
        for e in benchmarks:
            if e["name"].startswith("MemLatency/") and int(e["name"].rsplit(":", 1)[1]) < 5:
                e["latency_cycles"] *= 1.037
        return benchmarks

    other_part = write(tmp_path, "c.json", dram_slower(suite(rng)), uuid="GPU-2",
                       gpu_board_part_number="692-2G520-0282-000")
    code, out = run(base, other_part, "--history", *hist)
    assert "fewer than two of its board part 692-2G520-0282-000" in out, out
    assert code == 0 and "Verdict: no regression" in out, out
    runs = [compare.load(h) for h in hist]
    chosen, note = compare.noise_history(compare.load(other_part), runs)
    assert chosen == [] and "judged without a history" in note
    # The same boards' part: both runs are the history (no run of the contender's own board).
    same_part = write(tmp_path, "s.json", dram_slower(suite(rng)), uuid="GPU-9", **part)
    chosen, note = compare.noise_history(compare.load(same_part), runs)
    assert len(chosen) == 5 and "board part 692-2G520-0282-001" in note
    code, out = run(base, same_part, "--history", *hist)
    assert code == 1 and "REGRESSION in MemLatency" in out, out


def test_a_point_on_a_transition_takes_its_band_from_its_neighbours(tmp_path):
    # A TLB edge: the point between a 420- and an 800-cycle neighbour moves 15 % with the edge;
    # the plateau points beside it stay judged at the usual floor.
    def curve(edge):
        ys = {1: 420.0, 2: 421.0, 3: edge, 4: 800.0, 5: 801.0}
        return [entry(f"Tlb/latency/ld.cg/mapping:managed/stride:1/footprint:{f}", "primary=latency_cycles:lower",
                      {"latency_cycles": y}) for f, y in ys.items()]
    a = compare.load(write(tmp_path, "a.json", curve(500.0)))
    b = compare.load(write(tmp_path, "b.json", curve(575.0) + []))
    rows, _ = compare.compare(a, b)
    edge = [r for r in rows if r["name"].endswith("footprint:3")][0]
    assert edge["status"] == "same" and "transition" in edge["noise"] and edge["threshold_pct"] > 15
    # Planted: a plateau point 20 % worse is still flagged.
    c = [dict(e) for e in curve(500.0)]
    c[1]["latency_cycles"] *= 1.2
    rows, _ = compare.compare(a, compare.load(write(tmp_path, "c.json", c)))
    assert [r["name"] for r in rows if r["status"] == "regressed"] == ["Tlb/latency/ld.cg/mapping:managed/stride:1/footprint:2"]


def test_a_chase_between_two_levels_along_the_stride_takes_its_band_from_its_neighbours(tmp_path):
    """240 MiB at strides of 64 KiB (the L2: 282 cycles), 128 KiB (1920 lines, at the L1's edge:
    110-149 cycles over eight H200 runs) and 256 KiB (the L1): the middle point moves with the
    edge. A point beside an edge, on its plateau, and a stride sweep with no footprint (a bank
    conflict's degree, not a cache edge) stay judged at the floor."""
    def chase(mid, l2=282.0):
        ys = {32768: 281.0, 65536: l2, 131072: mid, 262144: 40.0, 524288: 40.0}
        return [entry(f"MemLatency/chain/ld.ca/footprint:251658240/stride:{st}", "primary=latency_cycles:lower",
                      {"latency_cycles": y}) for st, y in ys.items()] + \
            [entry(f"SmemBanks/latency/stride:{st}", "primary=latency_cycles:lower", {"latency_cycles": y})
             for st, y in {1: 30.0, 2: 60.0 if mid > 120 else 80.0, 4: 120.0}.items()]
    a = compare.load(write(tmp_path, "a.json", chase(148.75)))
    rows, _ = compare.compare(a, compare.load(write(tmp_path, "b.json", chase(111.75))))
    by = {r["name"]: r for r in rows}
    mid = by["MemLatency/chain/ld.ca/footprint:251658240/stride:131072"]
    assert mid["status"] == "same" and "transition" in mid["noise"], mid
    assert by["SmemBanks/latency/stride:2"]["status"] == "regressed"
    rows, _ = compare.compare(a, compare.load(write(tmp_path, "c.json", chase(148.75, l2=340.0))))
    assert [r["name"] for r in rows if r["status"] == "regressed"] == ["MemLatency/chain/ld.ca/footprint:251658240/stride:65536"]


def test_host_dependent_features_are_not_judged_across_nodes_without_history(tmp_path):
    runs = lambda gap: [entry("Launch/back_to_back/path:stream/stream:created/params:0", "primary=gpu_gap_ns:lower",
                              {"gpu_gap_ns": gap}),
                        entry("MemLatency/chain/ld.cg/footprint:1", "primary=latency_cycles:lower",
                              {"latency_cycles": 300.0})]
    base = compare.load(write(tmp_path, "a.json", runs(1600.0), uuid="GPU-1"))
    # Another node: a 40 % change in a host-dependent figure is listed, not judged.
    rows, features = compare.compare(base, compare.load(write(tmp_path, "b.json", runs(2240.0), uuid="GPU-2")))
    launch = [r for r in rows if r["feature"] == "Launch"][0]
    assert launch["status"] == "same" and "not judged" in launch["noise"]
    # The same node: past the 30 % host floor, it counts; below it, it does not.
    rows, _ = compare.compare(base, compare.load(write(tmp_path, "c.json", runs(2240.0), uuid="GPU-1")))
    assert [r["status"] for r in rows if r["feature"] == "Launch"] == ["regressed"]
    rows, _ = compare.compare(base, compare.load(write(tmp_path, "d.json", runs(1900.0), uuid="GPU-1")))
    assert [r["status"] for r in rows if r["feature"] == "Launch"] == ["same"]


def test_host_copies_far_below_the_links_peak_are_judged_only_with_a_history(tmp_path):
    """Two streams' 4 KiB copies read 2.70 and 1.50 GB/s in two processes of one board (2 % of the
    link's peak): without a history that is listed, not judged; a copy at 87 % of the peak that
    falls as far is a regression, and so is the small copy falling past any spread seen (4x); with
    a history, the small copy is judged by its own band."""
    def run(fname, small, large):
        return write(tmp_path, fname, [
            entry("HostLink/copy/dir:bidir/memory:pinned/size:4096", "primary=bytes_per_second:higher",
                  {"bytes_per_second": small, "pct_of_link_peak": 100 * small / 128e9}),
            entry("HostLink/copy/dir:h2d/memory:pinned/size:1073741824", "primary=bytes_per_second:higher",
                  {"bytes_per_second": large, "pct_of_link_peak": 100 * large / 64e9})])
    base = compare.load(run("a.json", 2.70e9, 56e9))
    rows, _ = compare.compare(base, compare.load(run("b.json", 1.50e9, 56e9)))
    small = [r for r in rows if "size:4096" in r["name"]][0]
    assert small["status"] == "same" and "not judged" in small["noise"] and "2 % of the link's peak" in small["noise"]
    rows, _ = compare.compare(base, compare.load(run("c.json", 2.70e9, 31e9)))
    status = {r["name"].split("/")[-1]: r["status"] for r in rows}
    assert status == {"size:4096": "same", "size:1073741824": "regressed"}
    rows, _ = compare.compare(base, compare.load(run("e.json", 0.67e9, 56e9)))
    assert [r["status"] for r in rows if "size:4096" in r["name"]] == ["regressed"]
    history = [compare.load(run(f"h{k}.json", v, 56e9)) for k, v in enumerate((2.72e9, 2.68e9, 2.71e9))]
    rows, _ = compare.compare(base, compare.load(run("d.json", 1.50e9, 56e9)), history=history)
    assert [r["status"] for r in rows if "size:4096" in r["name"]] == ["regressed"]


def test_a_benchmarks_range_over_contexts_widens_its_band(tmp_path):
    """A system-scope fence reads 1611-1661 cycles in different CUDA contexts: the benchmark
    reports that range (<metric>_context_min/_max), and a run in another context that reads 2.7 %
    more is not a regression; the same move of a benchmark without a range, or beyond the range,
    is."""
    def side(fname, fence, plain, far):
        ranged = {"latency_cycles_context_min": 1611.0, "latency_cycles_context_max": 1661.0}
        return compare.load(write(tmp_path, fname, [
            entry("Sync/fence/fence_sc_sys/warps_per_block:1", "primary=latency_cycles:lower",
                  dict(latency_cycles=fence, **ranged)),
            entry("Sync/bar/bar_sync/warps_per_block:1", "primary=latency_cycles:lower", {"latency_cycles": plain}),
            entry("Sync/fence/fence_sc_sys/warps_per_block:32", "primary=latency_cycles:lower",
                  dict(latency_cycles=far, **ranged))]))
    rows, _ = compare.compare(side("a.json", 1611.0, 100.0, 1611.0), side("b.json", 1655.0, 103.1, 1800.0),
                              floor_pct=1.0)
    r = {row["name"]: row for row in rows}
    ranged = r["Sync/fence/fence_sc_sys/warps_per_block:1"]
    assert ranged["status"] == "same" and ranged["noise"].endswith("contexts")
    assert math.isclose(ranged["threshold_pct"], 100 * 50 / 1611, rel_tol=1e-6)
    assert r["Sync/bar/bar_sync/warps_per_block:1"]["status"] == "regressed"
    assert r["Sync/fence/fence_sc_sys/warps_per_block:32"]["status"] == "regressed"


# --- method identifiers ------------------------------------------------------------------------------

def method_suite(methods, values):
    """MemLatency points with a given method each, at the given values."""
    return [entry(f"MemLatency/chain/ld.cg/footprint:{i}", "primary=latency_cycles:lower",
                  {"latency_cycles": v}, method=m) for i, (m, v) in enumerate(zip(methods, values))]


def test_a_method_change_is_listed_with_its_size_and_never_judged(tmp_path):
    a = write(tmp_path, "a.json", method_suite(["m1"] * 4, [300, 300, 300, 300]))
    b = write(tmp_path, "b.json", method_suite(["m1", "m1", "m2", "m2"], [300, 300, 600, 150]))
    code, out = run(a, b)
    assert code == 0, out
    assert "Method changed: 2 metric(s), not judged" in out
    assert "METHOD        MemLatency/chain/ld.cg/footprint:2  latency_cycles: 300 cycles -> 600 cycles (+100.00 %)" in out
    assert "Verdict: no regression (2 metric(s) of another method: listed above, not judged)" in out
    # The same move under the same method is a regression.
    c = write(tmp_path, "c.json", method_suite(["m1"] * 4, [300, 300, 600, 150]))
    assert run(a, c)[0] == 1


def test_files_without_identifiers_are_not_guessed(tmp_path):
    old = [entry(f"MemLatency/chain/ld.cg/footprint:{i}", "primary=latency_cycles:lower", {"latency_cycles": v},
                 method=None) for i, v in enumerate([300, 300, 600])]
    a = write(tmp_path, "a.json", old, method_ids=False, archbench_git_sha="0123456789ab")
    b = write(tmp_path, "b.json", old, method_ids=False, archbench_git_sha="ba9876543210")
    none = str(tmp_path / "none.json")
    # Neither file is in the ledger: their methods are unknown, nothing is judged, and it says so.
    code, out = run(a, b, "--ledger", none)
    assert "methods are unknown and nothing of it is judged" in out
    assert "Verdict: NOTHING JUDGED" in out and code == 0, out
    # Asked for explicitly, they are taken as one method and judged.
    code, out = run(a, b, "--ledger", none, "--legacy-methods", "same")
    assert "taken as the same method" in out and "Verdict: no regression" in out and "NOTHING" not in out, out
    # The ledger gives each commit's methods: the same kernels judge, other kernels do not.
    ledger = tmp_path / "ledger.json"
    ledger.write_text(json.dumps({"commits": {"0123456789ab": {"MemLatency": "legacy-1"},
                                              "ba9876543210": {"MemLatency": "legacy-1"}}}))
    code, out = run(a, b, "--ledger", str(ledger))
    assert "come from the ledger entry of its commit" in out and "Verdict: no regression" in out, out
    ledger.write_text(json.dumps({"commits": {"0123456789ab": {"MemLatency": "legacy-1"},
                                              "ba9876543210": {"MemLatency": "legacy-2"}}}))
    code, out = run(a, b, "--ledger", str(ledger))
    assert "Method changed: 3 metric(s)" in out and "legacy-1 -> legacy-2" in out, out
    # A file with identifiers against one without: another method, listed.
    c = write(tmp_path, "c.json", method_suite(["m1"] * 3, [300, 300, 600]))
    code, out = run(a, c, "--ledger", str(ledger))
    assert "Method changed: 3 metric(s)" in out, out


def test_a_history_is_split_at_a_method_change(tmp_path):
    """Earlier runs of another method give no band: with them, a 4 % step would hide in their
    spread; without them (the contender's method has too short a history) the floor decides."""
    rng = random.Random(7)
    hist = []
    for k in range(6):  # an older method whose values scatter by +-10 %
        vals = [300 * (1 + rng.uniform(-0.1, 0.1)) for _ in range(20)]
        hist.append(write(tmp_path, f"h{k}.json", method_suite(["old"] * 20, vals), date=f"2026-11-1{k}T00:00:00"))
    base = write(tmp_path, "a.json", method_suite(["new"] * 20, [300.0] * 20), date="2026-11-20T00:00:00")
    cont = write(tmp_path, "b.json", method_suite(["new"] * 20, [300.0] * 19 + [330.0]), date="2026-11-21T00:00:00")
    a, b = compare.load(base, {}), compare.load(cont, {})
    h = [compare.load(p, {}) for p in hist]
    rows, _ = compare.compare(a, b, h)
    moved = [r for r in rows if r["name"].endswith("footprint:19")][0]
    assert moved["status"] == "regressed" and moved["noise"] == "none", moved  # the floor (10 %), not the old spread
    # Had the history the contender's method, its spread would be the band and hide the move.
    for r in h:
        r.methods = {n: "new" for n in r.methods}
    rows, _ = compare.compare(a, b, h)
    moved = [r for r in rows if r["name"].endswith("footprint:19")][0]
    assert moved["noise"].startswith("history") and moved["status"] == "same", moved


def archived(tmp_path, *paths):
    """Committed runs that live in the results archive (git history), restored under tmp_path;
    the test is skipped in a clone without that history (a shallow one)."""
    try:
        entries = results_archive.select(results_archive.load_index()["files"], list(paths))
        return results_archive.restore(entries, str(tmp_path / "archive"))
    except results_archive.ArchiveError as e:
        if "not in this clone" in str(e):
            pytest.skip(str(e))
        raise


def test_the_committed_h100_history_shows_the_bandwidth_rework_as_a_method_change(tmp_path):
    """The runs before and after the Bandwidth rework (622351be8bdc, 0f1f688cfda0), through the
    committed ledger: every Bandwidth point is a method change, the L1 drop at 8 KiB per SM among
    them with its size, and none is judged a regression."""
    before, after = archived(tmp_path,
                             "results/nvidia-h100-80gb-hbm3/counters/2026-11-24-counters-622351be8bdc-3.json.gz",
                             "results/nvidia-h100-80gb-hbm3/bandwidth/2026-11-24-bandwidth-0f1f688cfda0.json.gz")
    code, out = run(before, after, "--top", "2000")
    assert code == 0, out
    assert re.search(r"Bandwidth: 1168 metric\(s\), median move [0-9.]+ %, largest 86\.90 % \(method legacy-", out), out
    m = re.search(r"METHOD +Bandwidth/read/ld\.ca/width:16/footprint:1081344  bytes_per_clk_per_sm: "
                  r"40\.\d+ per clk -> 23\.\d+ per clk \((-4[0-9]\.[0-9]+) %\)", out)
    assert m and -43 < float(m.group(1)) < -40, out
    assert "REGRESSION" not in out


def board_run(tmp_path, fname, uuid, points, spread, **fingerprint):
    """A run of three repetitions of latency points ({name: cycles}, each repetition `spread`
    apart) on board `uuid`, with the board fingerprint given as context entries."""
    b = [entry(name, "primary=latency_cycles:lower", {"latency_cycles": v * (1 + spread * rep)}, rep)
         for rep in range(3) for name, v in points.items()]
    return write(tmp_path, fname, b, uuid=uuid, **fingerprint)


def two_boards(tmp_path, fingerprint, spread, a, b):
    """Runs a.json of GPU-a and b.json of GPU-b, each given as (its fingerprint's value, points)."""
    return [board_run(tmp_path, f"{u}.json", f"GPU-{u}", points, spread, **{fingerprint: f"{value:.2f}"})
            for u, (value, points) in zip("ab", (a, b))]


def test_another_boards_dram_latency_is_named_not_judged(tmp_path):
    """Two boards whose fingerprints differ (H200: 688 and 663.5 cycles of DRAM latency): the DRAM
    chases move by that much and are listed as the board's; a DRAM-level move beyond it, and any
    move of a latency that holds no DRAM access, is still judged."""
    a, b = two_boards(tmp_path, "archbench_board_dram_latency_cycles", 0.0005,
                      (688.0, {"MemLatency/chain/ld.cg/footprint:251658240/stride:128": 688.0,
                               "AsyncCopy/latency/bulk/DRAM/bytes:16": 776.0,
                               "AsyncCopy/latency/tensor/DRAM/bytes:4096": 1020.0,
                               "MemLatency/chain/ld.cg/footprint:16777216/stride:128": 280.0}),
                      (663.5, {"MemLatency/chain/ld.cg/footprint:251658240/stride:128": 663.5,
                               "AsyncCopy/latency/bulk/DRAM/bytes:16": 752.0,
                               "AsyncCopy/latency/tensor/DRAM/bytes:4096": 1120.0,
                               "MemLatency/chain/ld.cg/footprint:16777216/stride:128": 300.0}))
    code, out = run(a, b)
    assert "DRAM latency differs by -3.6 % (688.0 -> 663.5 cycles" in out, out
    ctx_a = json.load(open(a)); ctx_a["context"]["gpu_board_part_number"] = "692-2G520-0282-000"
    ctx_b = json.load(open(b)); ctx_b["context"]["gpu_board_part_number"] = "692-2G520-0282-001"
    a2, b2 = tmp_path / "a2.json", tmp_path / "b2.json"
    a2.write_text(json.dumps(ctx_a)); b2.write_text(json.dumps(ctx_b))
    assert "another board part number (692-2G520-0282-000 -> 692-2G520-0282-001)" in run(str(a2), str(b2))[1]
    assert "Another board: DRAM latency 688.0 -> 663.5 cycles (-3.6 %" in out and "2 metric(s) moved by that much" in out, out
    assert "BOARD         MemLatency/chain/ld.cg/footprint:251658240/stride:128" in out, out
    assert "REGRESSED     AsyncCopy/latency/tensor/DRAM/bytes:4096" in out, out   # +10 %: not the board's -24 cycles
    assert "REGRESSED     MemLatency/chain/ld.cg/footprint:16777216" in out, out   # an L2 latency: no DRAM in it
    assert code == 1
    # One board (the same uuid) or no fingerprint: nothing is the board's.
    c = write(tmp_path, "c.json", json.load(open(b))["benchmarks"], uuid="GPU-a")
    assert "Another board" not in run(a, c)[1]


def test_another_boards_grid_barrier_is_named_not_judged(tmp_path):
    """H200 boards of part -000 read a grid sync over 1-4 blocks ~115 cycles below those of -001
    (1458 against 1573, within 0.1 % in every process); the start-up fingerprint
    archbench_board_grid_barrier_cycles names that move, and only for Sync/grid rows."""
    a, b = two_boards(tmp_path, "archbench_board_grid_barrier_cycles", 0.0002,
                      (1458.8, {"Sync/grid/grid_sync/blocks:1/warps_per_block:4": 1458.8,
                                "Sync/grid/grid_sync/blocks:4/warps_per_block:4": 1441.7,
                                "Sync/grid/grid_sync/blocks:16/warps_per_block:4": 1953.5,
                                "Sync/fence/fence_sc_gpu/warps_per_block:1": 640.0}),
                      (1573.6, {"Sync/grid/grid_sync/blocks:1/warps_per_block:4": 1573.8,
                                "Sync/grid/grid_sync/blocks:4/warps_per_block:4": 1551.7,
                                "Sync/grid/grid_sync/blocks:16/warps_per_block:4": 1956.1,
                                "Sync/fence/fence_sc_gpu/warps_per_block:1": 691.0}))
    code, out = run(a, b)
    assert "grid barrier differs by +7.9 % (1458.8 -> 1573.6 cycles" in out, out
    assert "Another board: grid barrier 1458.8 -> 1573.6 cycles (+7.9 %" in out and "2 metric(s) moved by that much" in out, out
    assert "BOARD         Sync/grid/grid_sync/blocks:4" in out, out
    assert "REGRESSED     Sync/fence/fence_sc_gpu" in out, out  # +8 %, but no grid barrier in it
    assert "REGRESSED     Sync/grid" not in out, out
    assert code == 1


def test_a_skip_is_not_a_failure(tmp_path):
    """What does not apply to the GPU (Google Benchmark 1.8's "skipped", or 1.7's error with an
    'unsupported: ' message) is counted apart from the benchmarks that failed."""
    ok = entry("Pipeline/latency/f32/fma", "primary=latency_cycles:lower", {"latency_cycles": 4.0})
    a = write(tmp_path, "a.json", [ok])
    b = write(tmp_path, "b.json", [ok,
                                   {"name": "TensorCore/mma_sync/e4m3", "run_type": "iteration", "skipped": True,
                                    "skip_message": "no tensor instruction on sm_90"},
                                   {"name": "Bandwidth/read/x", "run_type": "iteration", "error_occurred": True,
                                    "error_message": "unsupported: only 1 block(s) of 1024 threads fit on an SM"},
                                   {"name": "Atomics/x", "run_type": "iteration", "error_occurred": True,
                                    "error_message": "CUDA error: an illegal memory access"}])
    code, out = run(a, b)
    assert "1 failed in the contender only, 2 skipped in the contender only (not for this GPU)" in out, out
    assert "failed in the contender: Atomics/x" in out, out


def test_the_history_pages_band_and_steps_are_the_comparisons_own(tmp_path):
    """A history page's band is compare's reference +- the threshold it judged the row by, and a
    step is a row compare called changed: the card's counts and the page's steps are one rule."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
    from archbench_tools.report import dashboard
    from archbench_tools.results import resultfile
    points = {"MemLatency/x/footprint:1": 100.0, "MemLatency/x/footprint:2": 200.0}
    files = []
    for i, scale in enumerate((1.0, 1.3)):
        b = [entry(n, "primary=latency_cycles:lower", {"latency_cycles": v * (scale if n.endswith(":2") else 1.0)})
             for n, v in points.items()]
        files.append(write(tmp_path, f"r{i}.json", b, date=f"2026-11-2{i}T00:00:00+00:00"))
    runs = [dashboard.RunFile(f, resultfile.load(f), compare.load(f)) for f in files]
    rows, features = compare.compare(runs[0].run, runs[1].run, [])
    page, note = dashboard.history_rows(runs, runs[1], {"base": runs[0], "rows": rows, "features": features})
    by_name = {(r["name"], r["counter"]): r for r in rows}
    assert "the same board" in note
    for row in page:
        judged = by_name[(row["key"], row["counter"])]
        t = judged["threshold_pct"]
        assert row["band"] == (judged["ref"] * (1 - t / 100), judged["ref"], judged["ref"] * (1 + t / 100))
        assert row["step"] == (judged["status"] in ("regressed", "improved", "value changed"))
    assert [r["step"] for r in page] == [False, True]


def test_history_first_as_the_usage_line_shows_it(tmp_path):
    """`compare.py --history OLD BASE CONT` (the usage line's order) and `BASE --history OLD CONT`
    compare BASE with CONT, OLD the history, as `BASE CONT --history OLD` does; one file alone is bad
    input."""
    runs = [write(tmp_path, f"r{i}.json", [entry("MemLatency/x/footprint:1", "primary=latency_cycles:lower",
                                                 {"latency_cycles": 100.0 + i})], date=f"2026-11-2{i}T00:00:00+00:00")
            for i in range(3)]
    old, base, cont = (str(p) for p in runs)
    want = run_command(base, cont, "--history", old)
    assert want[0] == 0 and f"baseline:  {base}" in want[1] and f"contender: {cont}" in want[1], want[1]
    for args in (("--history", old, base, cont), (base, "--history", old, cont)):
        assert run_command(*args) == want, args
    code, out = run_command("--history", old)
    assert code == 2 and "the following arguments are required: baseline, contender" in out



# --- a run built before its digest was declared the same method -------------------------------------

def test_label_ids_are_archbenchs_own():
    """method_digest.label_id is the C++ method_id: it gives every id of the committed H200 baseline."""
    import gzip
    from archbench_tools.results import method_digest
    from conftest import H200_CURRENT_BASELINE, ROOT
    with gzip.open(os.path.join(ROOT, H200_CURRENT_BASELINE), "rt") as f:
        doc = json.load(f)
    checked = 0
    for b in doc["benchmarks"][::50]:
        feature = b["name"].split("/")[0]
        digest = re.match(r"digest ([0-9a-f]{16})", doc["context"][f"archbench_method_{feature}"]).group(1)
        decl = b["label"].split(" | ")[0]
        assert compare.label_method(b["label"]) == method_digest.label_id(digest, decl), b["name"]
        checked += 1
    assert checked > 100


def test_a_run_built_before_its_equivalence_is_judged_after_it(tmp_path):
    """A device run made before the SASS diff declared its build's digest the same method
    (benchmarks/methods.json's "equivalent") carries the old id; compare reads it as declared now."""
    from archbench_tools.results import method_digest
    methods = method_digest.load_methods(method_digest.read_tree(method_digest.ROOT))
    entry_ = methods["equivalent"]["TensorCore"][-1]
    old, now = entry_["digest"], method_digest.same_method(methods, "TensorCore", entry_["digest"])
    decl = "primary=flop_per_clk_per_sm:higher"

    def side(fname, digest, values):
        bench = [entry(f"TensorCore/wgmma/throughput/f16/n:{i}", decl, {"flop_per_clk_per_sm": v},
                       method=method_digest.label_id(digest, decl)) for i, v in enumerate(values)]
        return write(tmp_path, fname, bench, archbench_method_TensorCore=f"digest {digest}, host v1, harness v1")

    base = side("base.json", now, [4095.0] * 4)
    code, out = run(base, side("before.json", old, [4095.0] * 4))
    assert code == 0 and "Verdict: no regression" in out and "Method changed" not in out, out
    # Judged, so a real drop under the declared method is a regression.
    code, out = run(base, side("slower.json", old, [4095.0, 4095.0, 3500.0, 3500.0]))
    assert code == 1, out
    # A digest nobody declared stays another method.
    code, out = run(base, side("other.json", "0123456789abcdef", [4095.0] * 4))
    assert "Method changed: 4 metric(s)" in out, out

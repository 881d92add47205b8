"""compare.py: a planted regression is found, planted noise is not, partial overlap is listed,
different GPUs are warned about, and bad input is a clear error (pytest)."""
import json
import os
import random
import subprocess
import sys

SCRIPT = os.environ.get("ARCHBENCH_COMPARE",
                        os.path.join(os.path.dirname(__file__), "..", "scripts", "compare.py"))


def write(tmp_path, name, benchmarks, gpu="NVIDIA H100 80GB HBM3"):
    p = tmp_path / name
    p.write_text(json.dumps({"context": {"gpu_name": gpu, "gpu_uuid": "GPU-1"}, "benchmarks": benchmarks}))
    return str(p)


def reps(name, counter, values):
    return [{"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i, "real_time": 1.0,
             counter: v} for i, v in enumerate(values)]


def run(*args):
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def test_planted_regression_is_found_and_noise_is_not(tmp_path):
    rng = random.Random(1)
    noisy = lambda m, s: [m + rng.gauss(0, s) for _ in range(5)]
    base = reps("Bandwidth/read/ld/width:16/footprint:1", "bytes_per_second", noisy(3.1e12, 5e9)) + \
        reps("Pipeline/latency/ffma", "latency_cycles", [4.0] * 5) + \
        reps("Atomics/global/atom.add.u32/x", "atomics_per_second", noisy(4e11, 4e10))  # 10 % noise
    cont = reps("Bandwidth/read/ld/width:16/footprint:1", "bytes_per_second", noisy(2.9e12, 5e9)) + \
        reps("Pipeline/latency/ffma", "latency_cycles", [4.0] * 5) + \
        reps("Atomics/global/atom.add.u32/x", "atomics_per_second", noisy(3.8e11, 4e10))  # -5 %: within noise
    code, out = run(write(tmp_path, "a.json", base), write(tmp_path, "b.json", cont))
    assert code == 1, out
    assert "REGRESSION: Bandwidth/read/ld/width:16/footprint:1: bytes_per_second" in out
    assert "Atomics" not in "\n".join(l for l in out.splitlines() if l.startswith("REGRESSION"))
    assert "1 significant regression(s)" in out


def test_a_latency_that_grows_is_a_regression_and_one_that_shrinks_is_not(tmp_path):
    base = reps("MemLatency/chain/ld.ca/footprint:1/stride:128", "latency_cycles", [32.0, 32.1, 32.0, 31.9, 32.0])
    worse = reps("MemLatency/chain/ld.ca/footprint:1/stride:128", "latency_cycles", [40.0, 40.1, 40.0, 39.9, 40.0])
    better = reps("MemLatency/chain/ld.ca/footprint:1/stride:128", "latency_cycles", [28.0, 28.1, 28.0, 27.9, 28.0])
    a = write(tmp_path, "a.json", base)
    assert run(a, write(tmp_path, "w.json", worse))[0] == 1
    code, out = run(a, write(tmp_path, "b.json", better), "--markdown")
    assert code == 0 and "| benchmark |" in out and "better" in out


def test_partial_overlap_and_different_gpus(tmp_path):
    a = write(tmp_path, "a.json", reps("Pipeline/latency/ffma", "latency_cycles", [4.0]) +
              reps("Pipeline/latency/dfma", "latency_cycles", [8.0]))
    b = write(tmp_path, "b.json", reps("Pipeline/latency/ffma", "latency_cycles", [4.0]) +
              reps("Pipeline/latency/imad", "latency_cycles", [4.0]), gpu="NVIDIA A100-SXM4-80GB")
    code, out = run(a, b)
    assert code == 0
    assert "only in the baseline: Pipeline/latency/dfma" in out
    assert "only in the contender: Pipeline/latency/imad" in out
    assert "WARNING: gpu_name differs" in out


def test_bad_input_is_a_clear_error(tmp_path):
    good = write(tmp_path, "a.json", reps("Pipeline/latency/ffma", "latency_cycles", [4.0]))
    truncated = tmp_path / "t.json"
    truncated.write_text('{"context": {}, "benchmarks": [{"name": ')
    code, out = run(good, str(truncated))
    assert code == 2 and "t.json: not valid JSON" in out and "Traceback" not in out
    code, out = run(good, str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json: cannot read" in out and "Traceback" not in out
    (tmp_path / "list.json").write_text("[]")
    code, out = run(good, str(tmp_path / "list.json"))
    assert code == 2 and "no 'benchmarks' list" in out


def test_real_h100_fixtures_compare_clean_against_themselves():
    data = os.path.join(os.path.dirname(__file__), "data", "h100_pipeline.json")
    code, out = run(data, data)
    assert code == 0 and "0 significant regression(s)" in out

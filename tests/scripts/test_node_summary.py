"""node_summary.py flags the GPU that falls outside its siblings and nothing else; run_node.py runs
every GPU of a node (a fake archbench) and summarises them; the Slurm fleet script, run as one
job step would run it, fills the fleet tree and summarises it."""
import json
import re
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
SUMMARY = os.path.join(SCRIPTS, "node_summary.py")
RUN_NODE = os.path.join(SCRIPTS, "run_node.py")
FLEET = os.path.join(HERE, "..", "..", "slurm", "archbench_fleet.sbatch")
FAKE = os.path.join(HERE, "fake_archbench.py")


def gpu_json(path, uuid, bw=3.1e12, lat=284.0, driver="580.159.04", host="n0", name="NVIDIA H100 80GB HBM3", noise=0.01,
             seed=0):
    rng = random.Random(seed)
    bench = [{"name": "Bandwidth/read/ld/width:16/footprint:1", "run_type": "iteration",
              "bytes_per_second": bw * (1 + rng.uniform(-noise, noise)), "sms": 132.0},
             {"name": "MemLatency/chain/ld.cg/footprint:1048576/stride:128", "run_type": "iteration",
              "latency_cycles": lat * (1 + rng.uniform(-noise, noise)), "iterations": 3.0}]
    json.dump({"context": {"gpu_name": name, "gpu_uuid": uuid, "host_name": host, "gpu_driver_version": driver,
                           "archbench_git_sha": "fake"},
               "benchmarks": bench}, open(path, "w"))
    return str(path)


def summarize(tmp_path, files, *extra):
    r = subprocess.run([sys.executable, SUMMARY, "--out", str(tmp_path / "s"), *extra, *files], capture_output=True,
                       text=True)
    report = json.load(open(tmp_path / "s" / "node_summary.json")) if r.returncode in (0, 1) else None
    return r, report


def test_a_slow_gpu_among_siblings_is_flagged_and_noise_is_not(tmp_path):
    files = [gpu_json(tmp_path / f"g{i}.json", f"GPU-{i}", seed=i) for i in range(7)]
    files.append(gpu_json(tmp_path / "slow.json", "GPU-slow", bw=3.1e12 * 0.85, seed=9))
    r, report = summarize(tmp_path, files, "--fail-on-outlier")
    assert r.returncode == 1, r.stdout + r.stderr
    (group,) = report["groups"]
    assert group["flagged"] == ["n0/GPU-slow"]
    assert {o["counter"] for o in group["outliers"]} == {"bytes_per_second"}
    assert re.search(r"GPU-slow .* -1[45]\.\d %", r.stdout)
    r, report = summarize(tmp_path, files[:7], "--fail-on-outlier")
    assert r.returncode == 0 and report["groups"][0]["flagged"] == []


def test_one_family_off_is_listed_but_does_not_flag_a_gpu(tmp_path):
    # Four GPUs; one measures a higher L2 latency from its SM (die layout), nothing else differs.
    files = [gpu_json(tmp_path / f"g{i}.json", f"GPU-{i}", seed=i, noise=0.002) for i in range(3)]
    files.append(gpu_json(tmp_path / "odd.json", "GPU-odd", lat=284 * 1.1, noise=0.002, seed=7))
    r, report = summarize(tmp_path, files, "--fail-on-outlier")
    assert r.returncode == 0, r.stdout
    (group,) = report["groups"]
    assert group["flagged"] == [] and {o["gpu"] for o in group["outliers"]} == {"n0/GPU-odd"}


def test_two_siblings_one_difference_is_listed_a_consistent_loser_is_flagged(tmp_path):
    # One benchmark family apart (an L2 latency: which SM measures matters): listed, not flagged.
    a = gpu_json(tmp_path / "a.json", "GPU-a", lat=284)
    b = gpu_json(tmp_path / "b.json", "GPU-b", lat=340)
    _, report = summarize(tmp_path, [a, b])
    assert report["groups"][0]["flagged"] == []
    assert {o["gpu"] for o in report["groups"][0]["outliers"]} == {"n0/GPU-a", "n0/GPU-b"}
    c = gpu_json(tmp_path / "c.json", "GPU-c", lat=286)
    _, report = summarize(tmp_path, [a, c])
    assert report["groups"][0]["outliers"] == []

    # Worse in every family (a GPU held at a lower clock): flagged, alone.
    def node_gpu(path, uuid, scale):
        bench = [{"name": f"{family}/x:{k}", "run_type": "iteration", counter: value * (scale if up else 1 / scale)}
                 for family, counter, value, up in [("Bandwidth/read", "bytes_per_second", 3e12, False),
                                                    ("Pipeline/throughput", "ops_per_second", 6e13, False),
                                                    ("Atomics/global", "atomics_per_second", 4e11, False),
                                                    ("MemLatency/chain", "latency_ns", 140.0, True)]
                 for k in range(3)]
        json.dump({"context": {"gpu_name": "NVIDIA H200", "gpu_uuid": uuid, "host_name": "n0", "archbench_git_sha": "fake"},
                   "benchmarks": bench},
                  open(path, "w"))
        return str(path)
    ok, slow = node_gpu(tmp_path / "ok.json", "GPU-ok", 1.0), node_gpu(tmp_path / "slow.json", "GPU-slow", 1.15)
    r, report = summarize(tmp_path, [ok, slow], "--fail-on-outlier")
    assert r.returncode == 1 and report["groups"][0]["flagged"] == ["n0/GPU-slow"], r.stdout


def test_extremes_and_fit_residuals_are_not_compared(tmp_path):
    def with_noise(path, uuid, v):
        json.dump({"context": {"gpu_name": "NVIDIA H200", "gpu_uuid": uuid, "host_name": "n0", "archbench_git_sha": "fake"},
                   "benchmarks": [{"name": "MemLatency/fine/x", "run_type": "iteration", "latency_cycles": 280.0,
                                   "latency_max_cycles": v, "latency_p95_cycles": v, "rms_error_cycles": v}]},
                  open(path, "w"))
        return str(path)
    _, report = summarize(tmp_path, [with_noise(tmp_path / "a.json", "GPU-a", 1000.0),
                                     with_noise(tmp_path / "b.json", "GPU-b", 1500.0)])
    assert report["groups"][0]["outliers"] == []


def test_models_are_compared_apart_and_driver_differences_are_named(tmp_path):
    files = [gpu_json(tmp_path / f"h{i}.json", f"GPU-h{i}", seed=i, driver="580" if i else "575") for i in range(3)]
    files.append(gpu_json(tmp_path / "a100.json", "GPU-x", bw=1.5e12, name="NVIDIA A100-SXM4-80GB"))
    r, report = summarize(tmp_path, files)
    assert r.returncode == 0
    assert sorted(g["gpu"] for g in report["groups"]) == ["NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"]
    assert all(g["flagged"] == [] for g in report["groups"])  # the A100 is not an H100 outlier
    assert "drivers differ" in r.stdout


def test_unreadable_input_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ truncated")
    r = subprocess.run([sys.executable, SUMMARY, "--out", str(tmp_path), str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "bad.json" in r.stderr and "Traceback" not in r.stderr


def fake_binary(tmp_path):
    fake = tmp_path / "archbench"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
    fake.chmod(0o755)
    return str(fake)


def test_run_node_runs_every_gpu_and_flags_the_slow_one(tmp_path):
    env = dict(os.environ, FAKE_SLOW_DEVICE="2")
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "o"),
                        "--gpus", "4"], capture_output=True, text=True, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    (host,) = os.listdir(tmp_path / "o")
    # HostLink apart, one GPU at a time, each GPU's two files summarised as one GPU.
    assert sorted(f for f in os.listdir(tmp_path / "o" / host) if f.startswith("gpu")) == sorted(
        [f"gpu{n}.json" for n in range(4)] + [f"gpu{n}-hostlink.json" for n in range(4)])
    report = json.load(open(tmp_path / "o" / host / "node_summary.json"))
    assert report["groups"][0]["flagged"] == ["node0/GPU-2"]
    assert len(report["groups"][0]["gpus"]) == 4
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "p"),
                        "--gpus", "2"], capture_output=True, text=True, env=dict(os.environ, FAKE_FAIL="1"))
    assert r.returncode == 2 and "no result" in r.stderr


def test_the_slurm_fleet_job_fills_the_tree_and_summarises_it(tmp_path):
    # No Slurm here: an `srun` on PATH runs the step's command once, as one node's task would.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "srun").write_text("#!/bin/sh\nshift\nexec \"$@\"\n")  # drop --ntasks-per-node=1
    (bindir / "srun").chmod(0o755)
    out = tmp_path / "fleet"
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", ARCHBENCH_ROOT=os.path.join(HERE, "..", ".."),
               ARCHBENCH_BINARY=fake_binary(tmp_path), ARCHBENCH_FLEET_OUT=str(out), ARCHBENCH_ARGS="--quick",
               FAKE_SLOW_DEVICE="1")
    # run_node.py finds no nvidia-smi here: the fake node has 3 GPUs.
    env["PATH"] = f"{bindir}:{os.environ['PATH']}"
    (bindir / "nvidia-smi").write_text("#!/bin/sh\nprintf '0\\n1\\n2\\n'\n")
    (bindir / "nvidia-smi").chmod(0o755)
    r = subprocess.run(["bash", FLEET], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.load(open(out / "node_summary.json"))
    assert report["groups"][0]["flagged"] == ["node0/GPU-1"]
    assert len(report["groups"][0]["gpus"]) == 3


def test_run_node_runs_p2p_once_and_flags_the_slow_link(tmp_path):
    env = dict(os.environ, FAKE_GPUS="4", FAKE_SLOW_LINK="2-3")
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "o"),
                        "--gpus", "4"], capture_output=True, text=True, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    (host,) = os.listdir(tmp_path / "o")
    node = tmp_path / "o" / host
    assert (node / "p2p.json").exists()
    report = json.load(open(node / "node_summary.json"))
    assert report["groups"][0]["flagged"] == []  # the GPUs agree
    (links,) = report["links"]
    assert links["link"] == "nvswitch" and len(links["pairs"]) == 12
    assert links["flagged"] == ["node0: GPU 2 -> GPU 3"]
    assert {o["counter"] for o in links["outliers"]} == {"bytes_per_second", "latency_ns"}
    md = open(node / "node_summary.md").read()
    assert "copy, unidirectional (GB/s)" in md
    assert re.search(r"\| GPU 2 \| 3\d\d \| 3\d\d \| – \| 2[34]\d \|", md), md
    # --no-p2p leaves the pairs out; a healthy node flags nothing.
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "q"),
                        "--gpus", "4", "--no-p2p"], capture_output=True, text=True, env=dict(os.environ, FAKE_GPUS="4"))
    assert r.returncode == 0, r.stdout + r.stderr
    (host,) = os.listdir(tmp_path / "q")
    assert not (tmp_path / "q" / host / "p2p.json").exists()
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "h"),
                        "--gpus", "4"], capture_output=True, text=True, env=dict(os.environ, FAKE_GPUS="4"))
    assert r.returncode == 0, r.stdout + r.stderr
    # A filter with no P2P benchmark in it: the pairs are skipped with a note, not an error.
    r = subprocess.run([sys.executable, RUN_NODE, "--binary", fake_binary(tmp_path), "--out", str(tmp_path / "f"),
                        "--gpus", "2", "--", "--benchmark_filter=^Bandwidth/"], capture_output=True, text=True)
    assert r.returncode == 0 and "no P2P benchmark matched" in r.stderr, r.stdout + r.stderr
    (host,) = os.listdir(tmp_path / "f")
    assert sorted(os.listdir(tmp_path / "f" / host)) == ["gpu0.json", "gpu1.json", "node_summary.json", "node_summary.md"]


def test_the_h200_pair_of_the_fixture_is_summarised_as_one_healthy_nvswitch_link(tmp_path):
    r, report = summarize(tmp_path, [os.path.join(HERE, "..", "data", "h200x2_p2p.json")], "--fail-on-outlier")
    assert r.returncode == 0, r.stdout + r.stderr
    assert report["groups"] == []  # no per-GPU file
    (links,) = report["links"]
    assert links["link"] == "nvswitch" and len(links["pairs"]) == 2 and links["flagged"] == []
    assert re.search(r"\| GPU 0 \| – \| 39\d \|", r.stdout)  # copy GB/s, 0 -> 1


def declared_gpu(path, uuid, values, host="n0", part="692-2G520-0282-001"):
    """An H200 file whose benchmarks declare their primary metric (every archbench file since
    2026-11-21): values = {benchmark: {counter: value}}, the first counter the primary."""
    bench = [{"name": name + "/iterations:3/manual_time", "run_type": "iteration",
              "label": f"primary={next(iter(counters))}:{'lower' if next(iter(counters)).endswith('_cycles') else 'higher'}",
              **counters} for name, counters in values.items()]
    json.dump({"context": {"gpu_name": "NVIDIA H200", "gpu_uuid": uuid, "host_name": host, "archbench_git_sha": "fake",
                           "gpu_board_part_number": part},
               "benchmarks": bench}, open(path, "w"))
    return str(path)


def fleet_model_file(path, rows):
    """A fleet model (scripts/fleet_model.py's format) of rows {benchmark: (counter, median, board log-sd)}."""
    cols = ["method", "counter", "how", "median", "runs", "boards", "sample", "process", "process_df", "board",
            "board_df", "part", "parts", "fingerprint", "quantum", "stand_in"]
    metrics = {name + "/manual_time": [[None, counter, "higher", median, 40, 30, None, 0.002, 10, board, 29, None,
                                        {"692-2G520-0282-001": median}, None, None, None]]
               for name, (counter, median, board) in rows.items()}
    json.dump({"columns": cols, "metrics": metrics, "parts": {"692-2G520-0282-001": 30}, "runs": 40, "boards": 30},
              open(path, "w"))
    return str(path)


def test_the_fleet_models_board_spread_and_the_primaries_decide(tmp_path):
    # Two healthy boards of one node, as run_node.py met them (GPU-b5c98446 / GPU-301fc23a,
    # 2026-11-29): an L2-edge footprint 5.5 % apart where boards spread 3 %, and the same benchmark's
    # bytes_per_second 22 % apart while its primary (per SM clock) is 2 % apart.
    edge, l2 = "Bandwidth/read/ld.cg/width:4/footprint:30818304", "Bandwidth/read/ld.cv/width:4/footprint:50331648"
    a = declared_gpu(tmp_path / "a.json", "GPU-a", {edge: {"bytes_per_clk_per_sm": 32.0},
                                                   l2: {"bytes_per_clk_per_sm": 36.0, "bytes_per_second": 8.67e12}})
    b = declared_gpu(tmp_path / "b.json", "GPU-b", {edge: {"bytes_per_clk_per_sm": 30.3},
                                                   l2: {"bytes_per_clk_per_sm": 35.2, "bytes_per_second": 6.95e12}})
    model = fleet_model_file(tmp_path / "m.json", {edge: ("bytes_per_clk_per_sm", 31.0, 0.03),
                                                   l2: ("bytes_per_clk_per_sm", 35.6, 0.01)})
    r, report = summarize(tmp_path, [a, b], "--expected", model, "--fail-on-outlier")
    assert r.returncode == 0 and report["groups"][0]["outliers"] == [], r.stdout
    assert report["groups"][0]["fleet_model"] == model
    # Without the model the 5.5 % is listed (the threshold alone); bytes_per_second never is.
    r, report = summarize(tmp_path, [a, b], "--no-expected")
    assert {(o["benchmark"], o["counter"]) for o in report["groups"][0]["outliers"]} == {(edge, "bytes_per_clk_per_sm")}
    # A 15 % loss in one whole-GPU rate beyond the model's band flags the slower of two.
    dram = "Bandwidth/read/ld.nc/width:16/footprint:503316480"
    ok = declared_gpu(tmp_path / "ok.json", "GPU-ok", {dram: {"bytes_per_second": 4.64e12}})
    slow = declared_gpu(tmp_path / "slow.json", "GPU-slow", {dram: {"bytes_per_second": 4.64e12 * 0.85}})
    model = fleet_model_file(tmp_path / "m2.json", {dram: ("bytes_per_second", 4.64e12, 0.005)})
    r, report = summarize(tmp_path, [ok, slow], "--expected", model, "--fail-on-outlier")
    assert r.returncode == 1 and report["groups"][0]["flagged"] == ["n0/GPU-slow"], r.stdout


def test_a_residual_against_a_target_is_not_compared(tmp_path):
    name = "MemLatency/chain/ld.cg/footprint:4096/stride:128"
    a = declared_gpu(tmp_path / "a.json", "GPU-a", {name: {"latency_cycles": 282.2, "l2_placed_lines_vs_target_cycles": 0.001}})
    b = declared_gpu(tmp_path / "b.json", "GPU-b", {name: {"latency_cycles": 282.3, "l2_placed_lines_vs_target_cycles": -0.001}})
    r, report = summarize(tmp_path, [a, b], "--no-expected")
    assert report["groups"][0]["outliers"] == [], r.stdout

"""The model of normal: fleet_model.py recovers known spreads from synthetic fleets (and says
"unknown" where the runs cannot show one), compare judges a new board by the spread between boards,
and accept.py's verdict: healthy, each group's planted degradation named, no model, JUnit, the node
form and bad input (pytest)."""
import gzip
import json
import math
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
from archbench_tools.nightly import accept  # noqa: E402
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.compare import compare_stats  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.results import results_archive  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

GPU = "NVIDIA TEST GPU"
PARTS = ("PART-A", "PART-B")


def write_run(path, board, part, values, date, method="m1", extra_ctx=None):
    """A run: {name: (counter, how, value, {other counters})}."""
    benchmarks = []
    for name, (counter, how, value, others) in values.items():
        b = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": 0, "real_time": 1.0,
             "label": f"primary={counter}:{how} | method={method}", counter: value}
        b.update(others)
        benchmarks.append(b)
    ctx = {"gpu_name": GPU, "gpu_uuid": board, "gpu_board_part_number": part, "date": date,
           "archbench_primary_metrics": "label", "archbench_method_ids": "label", "archbench_git_sha": "abc"}
    ctx.update(extra_ctx or {})
    with open(path, "w") as f:
        json.dump({"context": ctx, "benchmarks": benchmarks}, f)
    return str(path)


def synthetic_fleet(tmp_path, boards_per_part=8, runs_per_board=2, metrics=120, proc=0.005, board=0.02,
                    part_offset=0.03, seed=1, feature_board=0.0, method="m1", month=11, parts=PARTS):
    """Runs of a fleet with known spreads (log-normal): every metric's true value is 100 x
    exp(part offset) x exp(N(0, board)) per board and metric x exp(N(0, feature_board)) per board
    (the whole feature) x exp(N(0, proc)) per run."""
    rng = random.Random(seed)
    paths, day = [], 0
    for p, part in enumerate(parts):
        for b in range(boards_per_part):
            uuid = f"GPU-{part}-{b}"
            whole = rng.gauss(0, feature_board)
            effects = [rng.gauss(0, board) for _ in range(metrics)]
            for r in range(runs_per_board):
                day += 1
                values = {f"Feat/x/point:{m}/manual_time": ("latency_cycles", "lower",
                                                            100 * math.exp(p * part_offset + whole + effects[m] + rng.gauss(0, proc)), {})
                          for m in range(metrics)}
                paths.append(write_run(tmp_path / f"{uuid}-{method}-{r}.json", uuid, part, values,
                                       f"2026-{month:02d}-{1 + day // 24:02d}T{day % 24:02d}:00:00+00:00", method))
    return paths


def build_model(paths):
    by, _ = fleet_model.load_runs(paths)
    metrics, runs = fleet_model.build(by[GPU])
    return fleet_model.Model(fleet_model.document(GPU, metrics, runs), "synthetic")


def test_the_model_recovers_known_spreads(tmp_path):
    m = build_model(synthetic_fleet(tmp_path))
    rows = list(m.rows.values())
    med = lambda key: sorted(r[key] for r in rows)[len(rows) // 2]  # noqa: E731
    assert abs(med("process") - 0.005) < 0.001, med("process")
    assert abs(med("board") - 0.02) < 0.004, med("board")
    ratio = sorted(r["parts"]["PART-B"] / r["parts"]["PART-A"] for r in rows)[len(rows) // 2]
    assert abs(ratio - math.exp(0.03)) < 0.01, ratio
    assert all(r["boards"] == 16 and r["runs"] == 32 and r["process_df"] == 16 and r["board_df"] == 14 for r in rows)


def test_too_few_runs_give_unknown_not_zero(tmp_path):
    # One run per board: no process spread; two boards per part: too few degrees of freedom.
    m = build_model(synthetic_fleet(tmp_path, boards_per_part=2, runs_per_board=1, metrics=5))
    for r in m.rows.values():
        assert r["process"] is None and r["process_df"] == 0
        assert r["board"] is None and r["board_df"] == 2
    sigma, df = compare_stats.model_row_sigma(next(iter(m.rows.values())))
    assert sigma is None and df == 0


def test_a_timer_quantum_is_found_and_only_where_every_value_is_a_multiple():
    class R:
        def __init__(self, values):
            self.values = {n: {"gap_ns": [v]} for n, v in values.items()}
            self.primary = {n: [("gap_ns", "lower", 0.0)] for n in values}
    q = fleet_model.counter_quanta([R({"Launch/a": 1152.0, "Launch/b": 768.0}), R({"Launch/a": 1216.0})])
    assert q == {("Launch", "gap_ns"): 64}
    assert fleet_model.counter_quanta([R({"Launch/a": 1152.5})]) == {}


def test_the_model_file_round_trips_and_bad_files_are_one_line(tmp_path):
    paths = synthetic_fleet(tmp_path, metrics=3)
    out = tmp_path / "expected"
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "fleet_model.py"), *paths, "--out-dir", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    m = fleet_model.load_model(str(out / "nvidia-test-gpu.json.xz"))
    assert m.doc["boards"] == 16 and len(m.rows) == 3
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(b"[1, 2]"))
    for args in (["--show", str(bad)], [str(tmp_path / "nothing-here")], []):
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "fleet_model.py"), *args], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (args, r.stderr)


def test_compare_judges_a_new_board_by_the_spread_between_boards(tmp_path):
    """History from other boards of one part reads a metric within 0.3 %; the boards of the model
    spread 2 %. A new board 4 % away is another board, not a regression; 25 % away still is one."""
    paths = synthetic_fleet(tmp_path, metrics=3, board=0.02, proc=0.001)
    model = build_model(paths)
    name = "Feat/x/point:0/manual_time"
    centre = model.row(name, "latency_cycles")["parts"]["PART-A"]

    def run(fname, board, value, day):
        return compare.load(write_run(tmp_path / fname, board, "PART-A",
                                      {name: ("latency_cycles", "lower", value, {})}, f"2026-12-{day:02d}T00:00:00+00:00"))
    history = [run(f"h{i}.json", f"GPU-old-{i}", centre * (1 + 0.001 * i), i + 1) for i in range(4)]
    base = history[0]
    for factor, status in ((1.04, "same"), (1.25, "regressed")):
        cont = run(f"new-{factor}.json", "GPU-never-seen", centre * factor, 20)
        rows, _ = compare.compare(base, cont, history[1:], model=model)
        assert rows[0]["status"] == status, rows[0]
        assert "fleet: another board of part PART-A" in rows[0]["noise"], rows[0]
        # Without the model, the history of other boards is all there is: 4 % is a regression.
        rows, _ = compare.compare(base, cont, history[1:])
        assert rows[0]["status"] == "regressed", rows[0]
    # Another method: the model says nothing about it.
    other = compare.load(write_run(tmp_path / "m2.json", "GPU-x", "PART-A", {name: ("latency_cycles", "lower",
                                                                                 centre * 1.04, {})},
                                   "2026-12-30T00:00:00+00:00", method="m2"))
    assert model.row(name, "latency_cycles", other.methods[name]) is None


def test_boards_on_multi_gpu_hosts_are_a_group_of_their_own(tmp_path):
    """A system-scope fence reads 10 % dearer on a host with two NVLink-joined GPUs (docs/sync.md).
    The model keeps such boards as a group of their part ("on 2-GPU hosts"): a new board on such a
    host reading 10 % above one-GPU hosts is another group, not a regression; the same 10 % on a
    one-GPU host still is one."""
    rng = random.Random(3)
    name, other = "Sync/fence/fence_sc_sys/manual_time", "Sync/fence/fence_sc_gpu/manual_time"
    paths = []
    for host_gpus in (1, 2):
        for b in range(8):
            uuid = f"GPU-h{host_gpus}-{b}"
            ctx = {"gpu_host_gpu_count": str(host_gpus)}
            shift = [rng.gauss(0, 0.01), rng.gauss(0, 0.01)]
            for r in range(2):
                values = {name: ("latency_cycles", "lower",
                                 1750 * (1.10 if host_gpus == 2 else 1) * math.exp(shift[0] + rng.gauss(0, 0.001)), {}),
                          other: ("latency_cycles", "lower", 350 * math.exp(shift[1] + rng.gauss(0, 0.001)), {})}
                paths.append(write_run(tmp_path / f"{uuid}-{r}.json", uuid, "PART-A", values,
                                       f"2026-11-{1 + b:02d}T{host_gpus * 2 + r:02d}:00:00+00:00", extra_ctx=ctx))
    model = build_model(paths)
    parts = model.row(name, "latency_cycles")["parts"]
    assert set(parts) == {"PART-A", "PART-A on 2-GPU hosts"}, parts
    assert 1.08 < parts["PART-A on 2-GPU hosts"] / parts["PART-A"] < 1.12, parts

    def run(fname, board, factor, ctx):
        values = {name: ("latency_cycles", "lower", parts["PART-A"] * factor, {}),
                  other: ("latency_cycles", "lower", 350, {})}
        return compare.load(write_run(tmp_path / fname, board, "PART-A", values, "2026-12-01T00:00:00+00:00",
                                      extra_ctx=ctx))
    base = run("base.json", "GPU-base", 1.0, {"gpu_host_gpu_count": "1"})
    two_gpu_host = run("two.json", "GPU-new-2", 1.10, {"gpu_host_gpu_count": "2"})
    rows, _ = compare.compare(base, two_gpu_host, model=model)
    row = next(r for r in rows if r["name"].startswith(name))
    assert row["status"] == "same", row
    assert "PART-A -> PART-A on 2-GPU hosts" in row["noise"], row["noise"]
    one_gpu_host = run("one.json", "GPU-new-1", 1.10, {"gpu_host_gpu_count": "1"})
    rows, _ = compare.compare(base, one_gpu_host, model=model)
    assert next(r for r in rows if r["name"].startswith(name))["status"] == "regressed"


def test_an_earlier_methods_spread_stands_in_until_the_new_method_has_enough_boards(tmp_path):
    """Method m1 ran on 16 boards (2 % between boards); its successor m2 on two boards only. The
    model says m2's board spread is unknown, carries m1's as the stand-in, and compare judges a
    third board of m2 by it, saying so, where a history of two other boards would flag 4 %."""
    paths = synthetic_fleet(tmp_path, metrics=3, board=0.02, proc=0.005)
    m2 = synthetic_fleet(tmp_path, boards_per_part=2, runs_per_board=1, metrics=3, board=0.001, proc=0.0005,
                         method="m2", month=12, seed=2, parts=PARTS[:1])
    model = build_model(paths + m2)
    name = "Feat/x/point:0/manual_time"
    row = model.row(name, "latency_cycles", "m2")
    assert row["board"] is None and row["process"] is None, row
    board, board_df, method, boards = row["stand_in"]["board"]
    assert method == "m1" and boards == 16 and board_df == 14 and abs(board - 0.02) < 0.012, row["stand_in"]
    assert row["stand_in"]["process"][2] == "m1"
    spreads = compare_stats.model_spreads(row)
    assert (spreads["board"], spreads["board_df"]) == (board, board_df) and "earlier method" in spreads["words"]
    # The new method ran on one part: the parts' spread is m1's (3 % between their medians).
    assert row["part"] is None and abs(spreads["part"] - 0.03 / math.sqrt(2)) < 0.01, row["stand_in"]
    base, other = compare.load(m2[0]), compare.load(m2[1])
    centre = base.values[name]["latency_cycles"][0]
    for factor, status in ((1.04, "same"), (1.5, "regressed")):
        cont = compare.load(write_run(tmp_path / f"new-{factor}.json", "GPU-never-seen", "PART-A",
                                      {name: ("latency_cycles", "lower", centre * factor, {})},
                                      "2026-12-30T00:00:00+00:00", "m2"))
        rows, _ = compare.compare(base, cont, [other, other], model=model)
        assert rows[0]["status"] == status, rows[0]
        assert "earlier method" in rows[0]["noise"], rows[0]
        if factor < 1.1:  # without the stand-in, two boards' history is all there is
            doc = json.loads(json.dumps(model.doc))
            for r in doc["metrics"][name]:
                r[doc["columns"].index("stand_in")] = None
            rows, _ = compare.compare(base, cont, [other, other], model=fleet_model.Model(doc, "bare"))
            assert rows[0]["status"] == "regressed", rows[0]


def test_an_odd_board_does_not_set_the_spread_that_would_pass_it(tmp_path):
    """Twelve boards of one part spread 0.5 %; a thirteenth reads one metric 7 % low (GPU-01570796's
    host-to-device copies, 6.6 % below boards that spread 0.6 %). Counted, it would widen the board
    spread enough to pass itself when a model that holds its run judges it (the dashboard's front
    page); the model leaves it out of the spread (fleet_model.odd_boards) and names it: in-sample
    compare lists the metric as the board's group (a check's metric it judges: the next test), a model
    without it flags it, and the other metric keeps its spread."""
    paths = synthetic_fleet(tmp_path, boards_per_part=12, metrics=2, board=0.005, proc=0.001, parts=PARTS[:1])
    odd_name, other = "Feat/x/point:0/manual_time", "Feat/x/point:1/manual_time"
    odd = []
    for r in range(2):
        odd.append(write_run(tmp_path / f"odd-{r}.json", "GPU-odd", "PART-A",
                             {odd_name: ("latency_cycles", "lower", 107.0, {}), other: ("latency_cycles", "lower", 100.0, {})},
                             f"2026-11-28T0{r}:00:00+00:00"))
    model = build_model(paths + odd)
    row = model.row(odd_name, "latency_cycles")
    assert row["boards"] == 13 and row["board"] < 0.012, row
    # Directly: 30 boards 0.7 % apart, one 7 % off (9.4 sd: beyond the t band at 1e-6 from 28 df,
    # 6.2 sd); from 10 boards the band is 11.6 sd wide and the same board stays in.
    spread = {f"b{i}": math.log(100) + 0.005 * ((i % 5) - 2) for i in range(30)}
    assert fleet_model.odd_boards(spread | {"odd": math.log(107)}, {"A": list(spread) + ["odd"]}) == {"odd"}
    few = {b: spread[b] for b in list(spread)[:10]}
    assert fleet_model.odd_boards(few | {"odd": math.log(107)}, {"A": list(few) + ["odd"]}) == set()
    assert fleet_model.odd_boards(spread, {"A": list(spread)}) == set()
    # Two boards together 6 % off (the L2-edge writes of GPU-260c4f31 and GPU-c4447e9c): tested first
    # with the other among its peers, each lies inside the band the other widens; both are named.
    pair = spread | {"odd1": math.log(106), "odd2": math.log(106.3)}
    assert fleet_model.odd_boards(pair, {"A": list(pair)}) == {"odd1", "odd2"}
    # Boards alike to 0.01 % (an exact pipeline rate) and one 0.2 % off: far beyond the band, but no
    # verdict counts 0.2 % (ODD_BOARD_MIN_PCT), so no board is named for it.
    exact = {f"b{i}": math.log(100) + 1e-4 * ((i % 5) - 2) for i in range(30)}
    assert fleet_model.odd_boards(exact | {"tiny": math.log(100.2)}, {"A": list(exact) + ["tiny"]}) == set()
    base, history = compare.load(paths[0]), [compare.load(p) for p in paths[2:6]]
    rows, _ = compare.compare(base, compare.load(odd[0]), history, model=model)
    status = {r["name"]: r["status"] for r in rows}
    # In-sample, a metric no check reads is named as the odd board's group, as accept.py names it
    # (one answer per board); out-of-sample, and wherever a check reads it, the move is judged.
    assert status[odd_name] == "board group" and status[other] == "same", status
    rows, _ = compare.compare(base, compare.load(odd[0]), history, model=build_model(paths))
    assert {r["name"]: r["status"] for r in rows}[odd_name] == "regressed"


def test_a_part_the_new_method_never_saw_gets_the_earlier_methods_parts_spread(tmp_path):
    """m1 ran on two parts whose medians differ 4 %; its successor m2 on PART-A only, but on one-
    and two-GPU hosts: two groups of one part number, whose spread (near 0) is how far hosts move
    the figure, not parts. A PART-B board under m2 reading PART-B's 4 % is judged by m1's parts'
    spread, not flagged (MemLatency v3's 240 MiB chain: -001 boards only, a -000 board 3.8 % slower)."""
    paths = synthetic_fleet(tmp_path, metrics=2, board=0.002, proc=0.001, part_offset=0.04)
    rng = random.Random(5)
    name = "Feat/x/point:0/manual_time"
    m2 = []
    for host_gpus in (1, 2):
        for b in range(3):
            uuid = f"GPU-m2-h{host_gpus}-{b}"
            values = {name: ("latency_cycles", "lower", 100 * math.exp(rng.gauss(0, 0.002)), {})}
            m2.append(write_run(tmp_path / f"{uuid}.json", uuid, "PART-A", values, f"2026-12-{1 + b:02d}T0{host_gpus}:00:00+00:00",
                                "m2", extra_ctx={"gpu_host_gpu_count": str(host_gpus)}))
    model = build_model(paths + m2)
    row = model.row(name, "latency_cycles", "m2")
    assert set(row["parts"]) == {"PART-A", "PART-A on 2-GPU hosts"} and row["part"] is not None, row
    assert row["stand_in"]["part"][1] == "m1", row["stand_in"]
    spreads = compare_stats.model_spreads(row)
    assert abs(spreads["part"] - 0.04 / math.sqrt(2)) < 0.01 and "part" in spreads["words"], spreads
    base, other = compare.load(m2[0]), compare.load(m2[1])
    part_b = compare.load(write_run(tmp_path / "part-b.json", "GPU-part-b", "PART-B",
                                    {name: ("latency_cycles", "lower", 104.0, {})}, "2026-12-30T00:00:00+00:00", "m2"))
    rows, _ = compare.compare(base, part_b, [other, other], model=model)
    assert rows[0]["status"] == "same" and "another board part" in rows[0]["noise"], rows[0]["noise"]
    # Its own part number's boards are still held to the host groups' tight spread.
    part_a = compare.load(write_run(tmp_path / "part-a.json", "GPU-part-a", "PART-A",
                                    {name: ("latency_cycles", "lower", 104.0, {})}, "2026-12-30T00:00:00+00:00", "m2"))
    rows, _ = compare.compare(base, part_a, [other, other], model=model)
    assert rows[0]["status"] == "regressed", {k: rows[0].get(k) for k in ("status", "noise", "change_pct", "band_pct")}


def test_a_feature_that_moves_as_a_whole_is_judged_by_how_far_boards_move_it_whole(tmp_path):
    """Each metric spreads 2 % between boards, but the feature as a whole only about 0.4 % (the
    median of 60 metrics). A new board whose every metric reads 5 % worse is flagged as a whole
    feature; the same board as it is is not."""
    paths = synthetic_fleet(tmp_path, metrics=60, board=0.02, proc=0.002, feature_board=0.002, part_offset=0.0)
    model = build_model(paths)
    feat = model.features["Feat"]
    assert feat["counter"] == "feature_shift" and feat["board_df"] == 14
    assert 0.001 < feat["board"] < 0.008, feat
    rng = random.Random(7)
    base = compare.load(paths[0])
    effects = [rng.gauss(0, 0.02) for _ in range(60)]
    for factor, shift in ((1.0, "none"), (1.05, "worse")):
        values = {f"Feat/x/point:{m}/manual_time": ("latency_cycles", "lower", 100 * factor * math.exp(effects[m]), {})
                  for m in range(60)}
        cont = compare.load(write_run(tmp_path / f"whole-{factor}.json", "GPU-never-seen", "PART-A", values,
                                      "2026-12-30T00:00:00+00:00"))
        _, features = compare.compare(base, cont, [], model=model)
        assert features["Feat"]["shift"] == shift, features["Feat"]
        assert "the feature as a whole" in features["Feat"]["shift_basis"]
        # Without the feature's row, the median of its metrics' bands (about 12 %) hides 5 %.
        _, features = compare.compare(base, cont, [], model=fleet_model.Model(
            {k: v for k, v in model.doc.items() if k != "features"}, "old"))
        assert features["Feat"]["shift"] == "none", features["Feat"]


# --- accept.py ---------------------------------------------------------------------------------

# The benchmark that plays each role on an H200-like GPU (60 MiB L2, 228 KiB shared memory per SM).
GEOMETRY_CTX = {"gpu_l2_bytes": str(60 << 20), "gpu_smem_per_sm_bytes": str(228 << 10), "gpu_sm_count": "132"}
ROLE_NAMES = {
    "dram_read": "Bandwidth/headline/DRAM/read", "dram_write": "Bandwidth/headline/DRAM/write",
    "dram_copy": "Bandwidth/headline/DRAM/copy", "l2_read": "Bandwidth/headline/L2/read",
    "l1_chain": "MemLatency/chain/ld.ca/footprint:4096/stride:128",
    "l2_chain": "MemLatency/chain/ld.cg/footprint:5671680/stride:128",
    "dram_chain": "MemLatency/chain/ld.cg/footprint:251658240/stride:128",
    "ffma_peak": "Pipeline/throughput/ffma/ilp:4/warps_per_sm:64/sms:132",
    "dfma_peak": "Pipeline/throughput/dfma/ilp:4/warps_per_sm:64/sms:132",
    "f16_tensor_peak": "TensorCore/wgmma/throughput/f16/ss/n:256/warpgroups_per_sm:2/sms:132/fill:random",
    "clock_ffma": "Scheduling/sustained_clock/ffma/seconds:10", "clock_tensor": "Scheduling/sustained_clock/wgmma_f16/seconds:10",
    "h2d_pinned": "HostLink/copy/dir:h2d/memory:pinned/size:134217728",
    "d2h_pinned": "HostLink/copy/dir:d2h/memory:pinned/size:134217728",
    "l1_capacity": "Geometry/l1/capacity/carveout:0", "l1_line": "Geometry/l1/line",
    "readonly_capacity": "Geometry/readonly/capacity", "constant_levels": "Geometry/constant/capacity",
}


def concrete(role):
    return ROLE_NAMES[role] + "/manual_time"


HEALTHY = {"bytes_per_second": 4.7e12, "bytes_per_clk_per_sm": 41.0, "latency_cycles": 300.0,
           "thread_inst_per_clk_per_sm": 126.7, "flop_per_clk_per_sm": 4095.0, "sm_clock_sustained_mhz": 1980.0,
           "capacity_bytes": 250000.0, "line_bytes": 128.0, "levels": 1.0}


def accept_values(scale=None):
    """A run holding every check's benchmark at healthy values; `scale` {check what: factor}."""
    values = {}
    for group, what, role, spec, frac in accept.CHECKS:
        counter = accept.roles.ROLES[role].counter
        how = "lower" if counter == "latency_cycles" else ("value" if group == "geometry" else "higher")
        v = HEALTHY[counter]
        if group == "links":
            v = 5.5e10
        v *= (scale or {}).get(what, 1.0)
        others = {"link_peak_bytes_per_second": 6.3e10} if group == "links" else {}
        values[concrete(role)] = (counter, "5%" if how == "value" else how, v, others)
    return values


def write_accept_fleet(tmp_path, boards=8):
    rng = random.Random(3)
    paths = []
    for b in range(boards):
        vals = {n: (c, how, v * math.exp(rng.gauss(0, 0.004)) if how != "5%" else v, o)
                for n, (c, how, v, o) in accept_values().items()}
        paths.append(write_run(tmp_path / f"fleet-{b}.json", f"GPU-fleet-{b}", "PART-A", vals,
                               f"2026-11-{b + 1:02d}T00:00:00+00:00",
                               extra_ctx={"gpu_dram_peak_bytes_per_second": "4.8e12", "gpu_max_sm_clock_mhz": "1980", **GEOMETRY_CTX}))
        paths.append(write_run(tmp_path / f"fleet-{b}-2.json", f"GPU-fleet-{b}", "PART-A", vals,
                               f"2026-11-{b + 1:02d}T01:00:00+00:00",
                               extra_ctx={"gpu_dram_peak_bytes_per_second": "4.8e12", "gpu_max_sm_clock_mhz": "1980", **GEOMETRY_CTX}))
    out = tmp_path / "expected"
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "fleet_model.py"), *paths, "--out-dir", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(out / "nvidia-test-gpu.json.xz")


def run_accept(*args):
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "accept.py"), *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def candidate(tmp_path, fname, scale=None, board="GPU-new"):
    return write_run(tmp_path / fname, board, "PART-A", accept_values(scale), "2026-12-01T00:00:00+00:00",
                     extra_ctx={"gpu_dram_peak_bytes_per_second": "4.8e12", "gpu_max_sm_clock_mhz": "1980", **GEOMETRY_CTX})


def test_accept_healthy_and_a_planted_degradation_of_each_group(tmp_path):
    model = write_accept_fleet(tmp_path)
    code, out, err = run_accept(candidate(tmp_path, "ok.json"), "--expected", model)
    assert code == 0 and "Verdict: healthy" in out and f"{len(accept.CHECKS)} passed, 0 failed" in out, out + err
    plants = {"memory": ("DRAM read headline", 0.9), "compute": ("FP32 FMA peak, every SM", 0.9),
              "clocks and power": ("sustained SM clock, FP32 load", 0.9),
              "links": ("host to device, pinned 128 MiB", 0.8), "geometry": ("L1 line", 0.5)}
    for group, (what, factor) in plants.items():
        code, out, _ = run_accept(candidate(tmp_path, f"bad-{factor}.json", {what: factor}), "--expected", model)
        verdict = out.strip().splitlines()[-1]
        assert code == 1 and verdict.startswith("Verdict: NOT HEALTHY") and f"{group} ({what})" in verdict, out
        assert all(g not in verdict for g in accept.GROUPS if g != group), verdict
        assert re.search(rf"FAIL  {re.escape(what)} .*margin -", out), out
    # A latency above the fleet's band fails; one below it (a faster board) does not.
    code, out, _ = run_accept(candidate(tmp_path, "slow.json", {"L1 hit latency": 1.2}), "--expected", model)
    assert code == 1 and "memory (L1 hit latency)" in out
    code, out, _ = run_accept(candidate(tmp_path, "fast.json", {"L1 hit latency": 0.8}), "--expected", model)
    assert code == 0, out


def test_the_verdict_in_prometheus_text_as_a_textfile_collector_reads_it(tmp_path):
    """accept.py --prometheus: the verdict and each check, parsed back by Prometheus's own client
    library; a healthy board reads 1 and every check 1, a planted slow DRAM read 0 on that check."""
    parser = pytest.importorskip("prometheus_client.parser")
    model = write_accept_fleet(tmp_path)
    seen = {}
    for name, scale in (("ok", None), ("slow", {"DRAM read headline": 0.9})):
        prom = tmp_path / f"{name}.prom"
        code, out, err = run_accept(candidate(tmp_path, f"{name}.json", scale), "--expected", model, "--prometheus", str(prom))
        assert code == (0 if scale is None else 1) and prom.exists(), out + err
        samples = {(s.name, s.labels.get("check", ""), s.labels.get("status", "")): s.value
                   for family in parser.text_string_to_metric_families(prom.read_text()) for s in family.samples}
        assert all(s[0].startswith("archbench_accept_") for s in samples)
        seen[name] = samples
    ok, slow = seen["ok"], seen["slow"]
    assert ok[("archbench_accept_healthy", "", "")] == 1 and ok[("archbench_accept_fleet_decided", "", "")] == 1
    assert ok[("archbench_accept_checks", "", "pass")] == len(accept.CHECKS)
    assert all(v == 1 for (n, _, _), v in ok.items() if n == "archbench_accept_check_pass")
    assert slow[("archbench_accept_healthy", "", "")] == 0
    assert slow[("archbench_accept_check_pass", "DRAM read headline", "")] == 0
    assert slow[("archbench_accept_check_margin_percent", "DRAM read headline", "")] < 0
    code, _, err = run_accept(candidate(tmp_path, "x.json"), "--expected", model, "--prometheus", str(tmp_path / "no" / "x.prom"))
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err, err


def test_accept_skips_an_l2_check_whose_chain_does_not_fit_the_l2(tmp_path):
    """A GPU with a 4 MiB L2 (a T4): no chain of its sweep is past the L1 and within an eighth of the
    L2, so the L2 check is skipped with its reason, not judged on a DRAM chain."""
    path = write_run(tmp_path / "small-l2.json", "GPU-t4", "PART-A", accept_values(), "2026-12-01T00:00:00+00:00",
                     extra_ctx={**GEOMETRY_CTX, "gpu_l2_bytes": str(4 << 20), "gpu_dram_peak_bytes_per_second": "4.8e12"})
    code, out, _ = run_accept(path)
    line = next(l for l in out.splitlines() if "L2 hit latency" in l)
    assert line.strip().startswith("SKIP") and "an eighth of the L2" in line, line


def test_each_check_reads_the_benchmark_that_plays_its_role_on_this_gpu(tmp_path):
    """An H100-like GPU (50 MiB L2): the DRAM chain is its own sweep's largest footprint (200 MiB),
    not the H200's 240 MiB, and the L2 chain the largest within an eighth of its L2."""
    values = accept_values()
    values["MemLatency/chain/ld.cg/footprint:209715200/stride:128/manual_time"] = \
        values.pop(concrete("dram_chain"))
    values["MemLatency/chain/ld.cg/footprint:8006528/stride:128/manual_time"] = ("latency_cycles", "lower", 500.0, {})
    path = write_run(tmp_path / "h100.json", "GPU-h100", "PART-A", values, "2026-12-01T00:00:00+00:00",
                     extra_ctx={**GEOMETRY_CTX, "gpu_l2_bytes": str(50 << 20), "gpu_dram_peak_bytes_per_second": "4.8e12"})
    run = compare.load(path)
    checks = {c.what: c for c in accept.judge(run, resultfile.load(path), None)}
    assert checks["DRAM latency"].name.startswith("MemLatency/chain/ld.cg/footprint:209715200/")
    assert checks["L2 hit latency"].name.startswith("MemLatency/chain/ld.cg/footprint:5671680/")


def test_a_verdict_the_fleet_did_not_decide_says_so(tmp_path):
    """Without a model the verdict is by specification only, with how much the fleet has learnt; a
    model too small for a spread (2 boards) says it is learning; neither reads like a fleet verdict."""
    code, out, _ = run_accept(candidate(tmp_path, "alone.json"))
    verdict = out.strip().splitlines()[-1]
    assert code == 0 and verdict.startswith("Verdict: healthy by specification only (") and \
        "learning: 0 boards, 0 of the 4 degrees of freedom a spread between boards needs" in verdict, verdict
    model = write_accept_fleet(tmp_path, boards=2)
    code, out, _ = run_accept(candidate(tmp_path, "young.json"), "--expected", model)
    verdict = out.strip().splitlines()[-1]
    assert code == 0 and verdict != "Verdict: healthy" and "learning: 2 boards, 1 of the 4 degrees of freedom" in verdict, out


def test_a_fleet_slow_as_a_whole_fails_the_specification_floor(tmp_path):
    """Every board 10 % below the specification's floor: the fleet model calls the slow board
    normal, the floor (90 % of the theoretical DRAM bandwidth) does not."""
    slow = {"DRAM read headline": 0.8}  # 3.76 TB/s of 4.8: 78 %
    rng = random.Random(5)
    paths = []
    for b in range(8):
        for r in range(2):
            vals = {n: (c, how, v * math.exp(rng.gauss(0, 0.002)) if how != "5%" else v, o)
                    for n, (c, how, v, o) in accept_values(slow).items()}
            paths.append(write_run(tmp_path / f"slowfleet-{b}-{r}.json", f"GPU-slow-{b}", "PART-A", vals,
                                   f"2026-11-{b + 1:02d}T0{r}:00:00+00:00",
                                   extra_ctx={"gpu_dram_peak_bytes_per_second": "4.8e12", **GEOMETRY_CTX}))
    out_dir = tmp_path / "slow-expected"
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "fleet_model.py"), *paths, "--out-dir", str(out_dir)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    code, out, _ = run_accept(candidate(tmp_path, "slow-new.json", slow), "--expected", str(out_dir / "nvidia-test-gpu.json.xz"))
    assert code == 1 and "memory (DRAM read headline)" in out and "below the specification's floor" in out, out


def test_accept_above_the_physical_limit_fails(tmp_path):
    model = write_accept_fleet(tmp_path)
    code, out, _ = run_accept(candidate(tmp_path, "over.json", {"DRAM write headline": 1.1}), "--expected", model)
    assert code == 1 and "above the physical limit" in out, out


def test_accept_without_a_fleet_model_falls_back_to_the_specification(tmp_path):
    path = candidate(tmp_path, "alone.json")
    code, out, _ = run_accept(path)  # no committed model for this GPU
    assert code == 0 and "no fleet model for this GPU model" in out, out
    assert "the specification, at least 90 % of the theoretical DRAM bandwidth" in out, out
    assert "not judged" in out and re.search(r"Verdict: healthy by specification only \(\d+ of \d+ checks judged", out), out
    code, out, _ = run_accept(candidate(tmp_path, "halved.json", {"DRAM read headline": 0.5}))
    assert code == 1 and "memory (DRAM read headline)" in out, out


def test_accept_junit_and_the_node_form_name_the_outlier(tmp_path):
    model = write_accept_fleet(tmp_path)
    node = tmp_path / "node"
    node.mkdir()
    candidate(node, "gpu0.json", board="GPU-n0")
    candidate(node, "gpu1.json", {"DRAM copy headline": 0.8}, board="GPU-n1")
    candidate(node, "gpu2.json", board="GPU-n2")
    junit = tmp_path / "out.xml"
    code, out, _ = run_accept("--node", str(node), "--expected", model, "--junit", str(junit))
    assert code == 1 and "Node verdict: NOT HEALTHY: outlier gpu1.json (GPU-n1): memory, DRAM copy headline" in out, out
    suites = ET.parse(junit).getroot().findall("testsuite")
    assert len(suites) == 3 and [s.get("failures") for s in suites] == ["0", "1", "0"]
    assert all(len(s.findall("testcase")) == len(accept.CHECKS) for s in suites)
    failure = suites[1].find("testcase[@name='DRAM copy headline']/failure")
    assert failure is not None and "margin -" in failure.get("message")


def test_accept_bad_input_is_one_line_and_exit_2(tmp_path):
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"context": {"archbench_x": 1, "gpu_name": GPU}, "benchmarks": [
        {"name": "Other/thing", "run_type": "iteration", "label": "primary=x:higher", "x": 1.0}]}))
    cases = [[str(tmp_path / "missing.json")], [str(foreign)], [], ["--node", str(tmp_path / "no-dir")],
             ["--run", str(foreign)], [str(foreign), "--node", str(tmp_path)],
             [candidate(tmp_path, "ok.json"), "--expected", str(foreign)],
             [candidate(tmp_path, "ok2.json"), "--junit", str(tmp_path / "no" / "such" / "dir.xml")]]
    for args in cases:
        code, out, err = run_accept(*args)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


SWEEP = [concrete(r) for r in ROLE_NAMES] + [
    "MemLatency/chain/ld.cg/footprint:8006528/stride:128/manual_time",
    "MemLatency/chain/ld.ca/footprint:5671680/stride:128/manual_time",
    "Pipeline/throughput/ffma/ilp:4/warps_per_sm:64/sms:66/manual_time"]


def test_the_filter_names_exactly_the_checks_in_google_benchmarks_dialect():
    f = accept.acceptance_filter(SWEEP, GEOMETRY_CTX)
    assert "\\" not in f  # Google Benchmark's regex has no \d or \.
    assert all(re.search(f, concrete(r)) for r in ROLE_NAMES)
    for other in SWEEP[len(ROLE_NAMES):] + ["Bandwidth/read/ld/width:16/footprint:8192/manual_time"]:
        assert not re.search(f, other), other


def fake_lister(tmp_path):
    """A stand-in binary: --info as archbench prints it, --benchmark_list_tests the sweep above."""
    fake = tmp_path / "lister"
    fake.write_text("#!/bin/sh\ncase \"$*\" in *--info*) printf 'device 0: NVIDIA TEST GPU\\n  L2 61440 KiB (max persisting "
                    "38400 KiB), shared memory 228 KiB/SM\\n';; *) printf '%s\\n' " +
                    " ".join(f"'{n}'" for n in SWEEP) + ";; esac\n")
    fake.chmod(0o755)
    return str(fake)


def test_the_committed_node_runs_are_judged_gpu_by_gpu(tmp_path):
    """The committed two-GPU node run of 2026-11-22 (quick runs of an older commit): each GPU is
    judged, and what the model cannot judge is said, not failed."""
    try:
        entries = results_archive.select(results_archive.load_index()["files"],
                                         ["results/nvidia-h200/node-2026-11-22/gpu*.json.gz"])
        results_archive.restore(entries, str(tmp_path))
    except results_archive.ArchiveError as e:
        if "not in this clone" in str(e):
            pytest.skip(str(e))
        raise
    code, out, err = run_accept("--node", str(tmp_path / "results" / "nvidia-h200" / "node-2026-11-22"))
    assert code in (0, 1) and "Node: 2 GPU(s)" in out and "Node verdict:" in out, out + err


def write_p2p(path, gpus=2, copy_pct=82.4, latency_ns=850.0, scale=None):
    """A node's P2P run: every ordered pair's 256 MiB copies (share of a 478 GB/s link) and
    latencies; scale {(figure, i, j): factor} plants a bad link."""
    scale = scale or {}
    benchmarks = []

    def add(name, counter, value, how, key):
        value *= scale.get(key, 1.0)
        benchmarks.append({"name": name + "/manual_time", "run_name": name + "/manual_time", "run_type": "iteration",
                           "repetition_index": 0, "label": f"primary={counter}:{how} | method=p2p1", counter: value,
                           "pct_of_peak": value if counter == "pct_of_peak" else 0,
                           "peak_bytes_per_second": 478e9})
    for i in range(gpus):
        for j in range(gpus):
            if i == j:
                continue
            add(f"P2P/copy/src:{i}/dst:{j}/dir:uni/size:268435456", "pct_of_peak", copy_pct, "higher", ("copy_uni", i, j))
            if i < j:
                add(f"P2P/copy/src:{i}/dst:{j}/dir:bi/size:268435456", "pct_of_peak", copy_pct - 1, "higher",
                    ("copy_bi", i, j))
            for level in ("peer_l2", "peer_dram"):
                add(f"P2P/latency/gpu:{i}/peer:{j}/level:{level}", "latency_ns", latency_ns * (1.2 if level == "peer_dram" else 1),
                    "lower", (f"latency_{level}", i, j))
    with open(path, "w") as f:
        json.dump({"context": {"gpu_name": GPU, "archbench_git_sha": "abc", "archbench_primary_metrics": "label"},
                   "benchmarks": benchmarks}, f)
    return str(path)


def test_accept_node_judges_every_link_by_the_links_model(tmp_path):
    model = write_accept_fleet(tmp_path)
    # The links model from three nodes whose pairs spread a little.
    seen = [write_p2p(tmp_path / f"p2p-{k}.json", gpus=2 + 2 * (k == 1), copy_pct=82.4 + 0.05 * k,
                      latency_ns=850 - 10 * k) for k in range(3)]
    code = fleet_model.main(["--links", *seen, "--out-dir", str(tmp_path)])
    links = tmp_path / "nvidia-test-gpu-links.json"
    assert code == 0 and links.exists()
    doc = json.loads(links.read_text())
    assert doc["figures"]["copy_uni"]["n"] == 2 + 12 + 2 and len(doc["nodes"]) == 3
    node = tmp_path / "node"
    node.mkdir()
    candidate(node, "gpu0.json", board="GPU-n0")
    candidate(node, "gpu1.json", board="GPU-n1")
    write_p2p(node / "p2p.json")
    code, out, _ = run_accept("--node", str(node), "--expected", model, "--links", str(links))
    assert code == 0 and "Node verdict: healthy" in out, out
    assert out.count("PASS  copy") == 3 and out.count("PASS  latency") == 4, out
    # A slow link (the copy 1 -> 0 at 90 % of its expected share) is named, and no GPU.
    write_p2p(node / "p2p.json", scale={("copy_uni", 1, 0): 0.9})
    code, out, _ = run_accept("--node", str(node), "--expected", model, "--links", str(links), "--junit",
                              str(tmp_path / "links.xml"))
    assert code == 1 and "Node verdict: NOT HEALTHY: links: copy 1 -> 0, 256 MiB" in out and "outlier" not in out, out
    suites = ET.parse(tmp_path / "links.xml").getroot().findall("testsuite")
    assert suites[-1].get("name") == "links" and suites[-1].get("failures") == "1"
    # A latency far above the model fails too; above the link's peak fails whatever the model.
    write_p2p(node / "p2p.json", scale={("latency_peer_dram", 0, 1): 1.3})
    code, out, _ = run_accept("--node", str(node), "--expected", model, "--links", str(links))
    assert code == 1 and "links: latency 0 -> 1's DRAM" in out, out
    write_p2p(node / "p2p.json", copy_pct=101.0)
    code, out, _ = run_accept("--node", str(node), "--expected", model)
    assert code == 1 and "above the physical limit" in out, out
    # Without a links model: the link's computed peak alone (half of it), latencies not judged.
    write_p2p(node / "p2p.json")
    code, out, _ = run_accept("--node", str(node), "--expected", model)
    assert code == 0 and "no links model" in out and "SKIP  latency" in out, out
    # Bad input: a links model that is not one, --links without --node, --links on a non-P2P file.
    for args in (["--node", str(node), "--links", str(tmp_path / "nope.json")],
                 ["--node", str(node), "--links", model],
                 [candidate(tmp_path, "one.json"), "--links", str(links)]):
        code, _, err = run_accept(*args)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "fleet_model.py"), "--links", model], capture_output=True,
                       text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr


def test_the_node_filter_adds_the_links_p2p_benchmarks(tmp_path):
    plain, node = accept.acceptance_filter(SWEEP, GEOMETRY_CTX), accept.acceptance_filter(SWEEP, GEOMETRY_CTX, node=True)
    assert "\\" not in node and node.startswith(plain)
    for name in ("P2P/copy/src:0/dst:1/dir:uni/size:268435456", "P2P/latency/gpu:1/peer:0/level:peer_dram"):
        assert re.search(node, name) and not re.search(plain, name)
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "accept.py"), "--print-filter", "--node", "--binary",
                        fake_lister(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == node, r.stderr
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "accept.py"), "--print-filter"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--binary" in r.stderr


def test_a_boards_group_is_its_part_and_the_hosts_gpu_count_above_one():
    group = resultfile.board_group
    assert group({"gpu_board_part_number": "P", "gpu_host_gpu_count": "1", "gpu_visible_count": "1"}) == "P"
    assert group({"gpu_board_part_number": "P", "gpu_host_gpu_count": "2"}) == "P on 2-GPU hosts"
    # CUDA_VISIBLE_DEVICES hides GPUs from CUDA, not from NVML: NVML's count decides.
    assert group({"gpu_board_part_number": "P", "gpu_host_gpu_count": "8", "gpu_visible_count": "1"}) == "P on 8-GPU hosts"
    # Files before NVML's count: more than one visible GPU is a multi-GPU host; one says nothing.
    assert group({"gpu_board_part_number": "P", "gpu_visible_count": "2"}) == "P on 2-GPU hosts"
    assert group({"gpu_board_part_number": "P", "gpu_visible_count": "1"}) == "P"
    assert group({"gpu_board_part_number": "P", "gpu_host_gpu_count": "n/a"}) == "P"
    assert group({"gpu_host_gpu_count": "2"}) is None


def test_the_baseline_rule_picks_a_typical_board_not_one_of_a_slow_group(tmp_path):
    """fleet_model.typical_baseline: among runs of one method, the board nearest its part's median in
    board spreads comes first; a board 6 % slow in every metric (a slow group's) comes last."""
    paths = synthetic_fleet(tmp_path, boards_per_part=8, runs_per_board=1, metrics=60, proc=0.002, board=0.01)
    model = build_model(paths)
    runs = [compare.load(p) for p in paths]
    slow = runs[3]
    for entry in slow.values.values():
        entry["latency_cycles"] = [v * 1.06 for v in entry["latency_cycles"]]
    ranked = fleet_model.typical_baseline(runs, model)
    assert ranked[-1][2] is slow and ranked[0][0] < 1.0 < ranked[-1][0]
    assert all(n == 60 for _, n, _ in ranked)


def test_a_group_of_odd_boards_is_named_by_compare_and_accept_not_called_a_regression(tmp_path):
    """A board of twelve slower by 6 % in some metrics: the model keeps it out of the board spread and
    names it (the row's odd boards; odd_boards, sequential, finds a group of one or two boards far
    enough apart: two boards 6 % apart mask each other); compare of such a board
    against another healthy board lists those metrics as the group's, not a regression, and accept
    names the group; a new board 6 % slower there, which the model has never seen, sits with the group
    and is named as its member; 2 % or 12 % slower, it is a regression."""
    rng = random.Random(9)
    slow_boards, paths = {"GPU-A-0"}, []
    for b in range(12):
        uuid = f"GPU-A-{b}"
        effects = [rng.gauss(0, 0.002) for _ in range(40)]
        for r in range(2):
            values = {f"Feat/x/point:{m}/manual_time": ("latency_cycles", "lower",
                      100 * math.exp(effects[m] + rng.gauss(0, 0.001)) * (1.06 if uuid in slow_boards and m < 10 else 1.0), {})
                      for m in range(40)}
            paths.append(write_run(tmp_path / f"{uuid}-{r}.json", uuid, "PART-A", values,
                                   f"2026-11-{b + 1:02d}T0{r}:00:00+00:00"))
    model = build_model(paths)
    odd = model.row("Feat/x/point:3/manual_time", "latency_cycles")["odd"]
    assert set(odd) == slow_boards and all(5 < pct < 7 for pct in odd.values()), odd
    slow, healthy = compare.load(paths[0]), compare.load(paths[-1])
    rows, features = compare.compare(healthy, slow, [], model=model)
    assert not compare.verdict(features), features
    grouped = [r for r in rows if r["status"] == "board group"]
    assert len(grouped) == 10 and "GPU-A-0 is one of the fleet's odd boards" in grouped[0]["group"]
    assert "moved as a board group the fleet model names" in compare.verdict_line(rows, features)
    assert any("group: GPU-A-0" in line and "10 metric(s)" in line
               for line in accept.group_lines(slow, [], model))
    # A board the model has never seen, slow in the same metrics, sits with the group: named as the
    # group's by compare and accept (one answer); slow by 2 % there, or by 12 %, it is a regression.
    def new_board(uuid, slower):
        return compare.load(write_run(
            tmp_path / f"{uuid}.json", uuid, "PART-A",
            {f"Feat/x/point:{m}/manual_time": ("latency_cycles", "lower", 100.0 * (slower if m < 10 else 1.0), {})
             for m in range(40)}, "2026-12-01T00:00:00+00:00"))
    sitting = new_board("GPU-new", 1.06)
    rows, features = compare.compare(healthy, sitting, [], model=model)
    grouped = [r for r in rows if r["status"] == "board group"]
    assert not compare.verdict(features) and len(grouped) == 10, features
    assert "GPU-new, a board the model has not seen, sits with the fleet's odd boards" in grouped[0]["group"]
    assert any("group: GPU-new a board the fleet model has not seen, sits with its odd boards in 10 metric(s)" in line
               for line in accept.group_lines(sitting, [], model))
    for slower in (1.02, 1.12):
        rows, features = compare.compare(healthy, new_board(f"GPU-new-{slower}", slower), [], model=model)
        assert compare.verdict(features) and not [r for r in rows if r["status"] == "board group"], slower


def test_a_checks_metric_is_judged_whatever_group_the_board_is_in(tmp_path):
    """GPU-01570796's host-to-device copies, 6.6 % low: an acceptance check's benchmark. The model names
    the board odd there, and compare still flags it, as accept.py fails it (one answer)."""
    rng = random.Random(4)
    check = "HostLink/copy/dir:h2d/memory:pinned/size:134217728/manual_time"
    paths = []
    for b in range(14):
        uuid = f"GPU-B-{b}"
        for r in range(2):
            v = 5.5e10 * math.exp(rng.gauss(0, 0.004)) * (0.934 if b == 0 else 1.0)
            paths.append(write_run(tmp_path / f"{uuid}-{r}.json", uuid, "PART-A",
                                   {check: ("bytes_per_second", "higher", v, {})}, f"2026-11-{b + 1:02d}T0{r}:00:00+00:00"))
    model = build_model(paths)
    assert "GPU-B-0" in (model.row(check, "bytes_per_second")["odd"] or {})
    rows, features = compare.compare(compare.load(paths[-1]), compare.load(paths[0]), [], model=model)
    assert rows[0]["status"] == "regressed" and compare.verdict(features), rows[0]


def test_a_stand_in_is_raised_only_where_the_methods_own_boards_clearly_spread_wider():
    """An earlier method's board spread stands in until the new method has four degrees of freedom;
    where its own few boards already spread far wider beyond chance (the H100's global-atomics
    latency: 269-301 cycles on four boards of three parts against the earlier method's 0.22 %), that
    wider spread is the stand-in; a spread a little wider from so few boards is chance."""
    def obs(values_by_board):
        return [(None, b, part, v, None, {}) for (b, part), vs in values_by_board.items() for v in vs]
    atomics = obs({("b1", "A"): [287.0, 287.2], ("b2", "A"): [287.1], ("b3", "B"): [301.0], ("b4", "B"): [269.1]})
    sd, df = fleet_model.seen_board_sd(atomics)
    assert df == 2 and 0.04 < sd < 0.07, (sd, df)
    assert fleet_model.stand_in_too_narrow((sd, df), [0.0022, 4, "old", 5])
    near = obs({("b1", "A"): [100.0], ("b2", "A"): [100.3], ("b3", "B"): [100.1], ("b4", "B"): [99.8]})
    assert not fleet_model.stand_in_too_narrow(fleet_model.seen_board_sd(near), [0.0022, 4, "old", 5])

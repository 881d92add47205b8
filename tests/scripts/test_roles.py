"""Checks by role, not by name (issue 84): on every GPU the project can describe (the committed H100
and H200 runs' contexts, and the described A100, L40S, RTX 4090, B200 and RTX 5090), every role that
accept.py's checks and ceilings.py read names a benchmark of that GPU's own sweep, as the built binary
lists it (--gpu_profile), or is skipped there with the binary's reason. ARCHBENCH_BIN names the binary."""
import functools
import glob
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.compare.compare import benchmark_key  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402
from archbench_tools.nightly import accept  # noqa: E402
from archbench_tools.results import resultfile, roles  # noqa: E402

PROFILES = sorted(glob.glob(os.path.join(ROOT, "results", "reference", "described", "*.json"))) + \
    [p for p in [fleet_model.baseline_for("NVIDIA H100 80GB HBM3"), fleet_model.baseline_for("NVIDIA H200")] if p]
HOPPER_ONLY = {"f16_tensor_peak", "clock_tensor"}  # wgmma: registered, and skipped off sm_90


@functools.lru_cache(maxsize=None)
def context(profile):
    """The profile's context (a described GPU's file is a context alone, not a run)."""
    if profile.endswith(".gz"):
        return resultfile.load(profile)["context"]
    import json
    with open(profile) as f:
        return json.load(f)["context"]


_LISTINGS = {}


def listing(profile):
    if profile in _LISTINGS:
        return _LISTINGS[profile]
    binary = os.environ.get("ARCHBENCH_BIN")
    if not binary:
        pytest.skip("ARCHBENCH_BIN is not set (ctest sets it to the built archbench)")
    r = subprocess.run([binary, f"--gpu_profile={profile}", "--benchmark_list_tests"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    _LISTINGS[profile] = [n for n in r.stdout.split() if "/" in n], r.stderr
    return _LISTINGS[profile]


@pytest.mark.parametrize("profile", PROFILES, ids=[os.path.basename(p).split(".")[0] for p in PROFILES])
def test_every_role_names_a_benchmark_of_the_gpus_own_sweep(profile):
    ctx = context(profile)
    names, why = listing(profile)
    listed = {benchmark_key(n).replace("/manual_time", "") for n in names}
    cc = ctx.get("gpu_compute_capability")
    for role in roles.ROLES:
        key = roles.find(role, names, ctx)
        assert key is not None, (role, roles.missing_reason(role, names, ctx))
        assert key.replace("/manual_time", "") in listed
        if role in HOPPER_ONLY and cc != "9.0":
            assert "wgmma is Hopper's" in why, (role, why[-400:])
    l2, smem = float(ctx["gpu_l2_bytes"]), float(ctx["gpu_smem_per_sm_bytes"])
    fp = {r: int(resultfile.axes({"name": roles.find(r, names, ctx)})["footprint"])
          for r in ("l1_chain", "l2_chain", "dram_chain")}
    assert fp["l1_chain"] <= 4096 and 2 * smem < fp["l2_chain"] <= l2 / 8 and fp["dram_chain"] >= 2 * l2, fp


FILTERED = [p for p in PROFILES if "b200" in p]  # the binary's own regex dialect, on a GPU it skips wgmma on


@pytest.mark.parametrize("profile", FILTERED, ids=[os.path.basename(p).split(".")[0] for p in FILTERED])
def test_the_short_runs_filter_names_exactly_the_checks_benchmarks(profile):
    ctx = context(profile)
    names, _ = listing(profile)
    binary = os.environ["ARCHBENCH_BIN"]
    f = accept.acceptance_filter(names, ctx)
    r = subprocess.run([binary, f"--gpu_profile={profile}", "--benchmark_list_tests", f"--benchmark_filter={f}"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # (the DRAM chain is registered twice, by the footprint sweep and the stride sweep: one name)
    chosen = sorted({benchmark_key(n).replace("/manual_time", "") for n in r.stdout.split() if "/" in n})
    want = sorted(roles.find(role, names, ctx).replace("/manual_time", "") for _, _, role, *_ in accept.CHECKS)
    assert chosen == want


@pytest.mark.parametrize("profile", FILTERED, ids=[os.path.basename(p).split(".")[0] for p in FILTERED])
def test_a_family_filter_selects_the_family_with_those_axes_in_the_binarys_dialect(profile):
    """roles.family_filter (the node run's links, accept.py --print-filter --node) in Google Benchmark's
    regex dialect: the family's benchmarks whose axes hold the values, whatever axes lie between."""
    names, _ = listing(profile)
    f = roles.family_filter("HostLink/copy", memory="pinned", size=128 << 20)
    r = subprocess.run([os.environ["ARCHBENCH_BIN"], f"--gpu_profile={profile}", "--benchmark_list_tests",
                        f"--benchmark_filter={f}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    chosen = sorted(n for n in r.stdout.split() if "/" in n)
    want = sorted(n for n in names if resultfile.family({"name": n}) == "HostLink/copy"
                  and resultfile.axes({"name": n}).get("memory") == "pinned"
                  and resultfile.axes({"name": n}).get("size") == str(128 << 20))
    assert chosen == want and len(want) >= 2, (chosen, want)

"""Shared by the script tests: a committed run, from the tree or (once a newer baseline moved it out)
restored from the archive; skipped in a shallow clone, which lacks the history."""
import os
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.results import results_archive  # noqa: E402


def committed_run(repo_path, tmp_path):
    path = os.path.join(ROOT, repo_path)
    if os.path.exists(path):
        return path
    try:
        results_archive.restore(results_archive.select(results_archive.load_index()["files"], [repo_path]), str(tmp_path))
    except results_archive.ArchiveError as e:
        if "not in this clone" in str(e):
            pytest.skip(str(e))
        raise
    return str(tmp_path / repo_path)


H200_BASELINE = "results/nvidia-h200/regression/2026-11-29-full-be7f95f-GPU-abf3d5d9.json.gz"  # in the archive since 5f0afc1
H200_CURRENT_BASELINE = "results/nvidia-h200/regression/2026-11-30-full-7ec2dae-GPU-260c4f31.json.gz"  # in the tree


@pytest.fixture
def h200_baseline(tmp_path):
    """The H200 baseline the exports and the roofline were made from (be7f95f, GPU-abf3d5d9)."""
    return committed_run(H200_BASELINE, tmp_path)

"""scripts/plotlib.readability_problems: a legend over the data and an empty panel are caught;
a readable figure has none (check_plots.py runs it on every plot script's figures)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from archbench_tools.plots.plotlib import readability_problems  # noqa: E402


def test_a_legend_over_the_data_is_caught():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(range(20), [5] * 20, "o-", label="flat")  # the points run through the upper left
    ax.set_ylim(4.9, 5.1)
    ax.legend(loc="center left", fontsize=14)
    problems = readability_problems(fig)
    plt.close(fig)
    assert any("covers" in p for p in problems), problems


def test_an_empty_panel_is_caught_unless_it_says_why():
    fig, (a, b) = plt.subplots(1, 2, figsize=(6, 3))
    a.set_title("nothing here")
    b.set_title("said why")
    b.text(0.5, 0.5, "no run has this figure", transform=b.transAxes)
    problems = readability_problems(fig)
    plt.close(fig)
    assert problems == ["empty panel 'nothing here' with nothing that says why"]


def test_a_readable_figure_has_no_problem():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2, 3], [1, 4, 9], label="squares")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    assert readability_problems(fig) == []
    plt.close(fig)


def test_the_tensor_plots_keep_sparse_apart_from_dense(tmp_path, monkeypatch):
    """plot_tensorcore on the committed sparse H200 run: sparse wgmma is its own bar and its own
    panel (% of the sparse peak), never a dense wgmma bar; the figures pass the readability check."""
    import glob
    from archbench_tools.plots import plot_tensorcore
    path = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "results", "nvidia-h200", "tensor",
                                         "2026-11-29-sparse-*.json.gz")))[0]
    label, ctx, (best, wg_n, wg_lat, sp_n) = plot_tensorcore.load(path)
    assert best[("f16", "wgmma SS")]["name"].startswith("TensorCore/wgmma/throughput/")
    assert 99 < best[("f16", "wgmma SS")]["pct"] < 100.5
    assert best[("f16", "wgmma.sp RS")]["name"].startswith("TensorCore/wgmma_sp/throughput/")
    assert best[("f16", "wgmma.sp RS")]["flops"] > 1.7 * best[("f16", "wgmma SS")]["flops"]
    assert ("s8", "mma.sp") in best and len(sp_n) > 0
    problems = tmp_path / "problems.txt"
    monkeypatch.setenv("ARCHBENCH_PLOT_PROBLEMS", str(problems))
    figures = plot_tensorcore.plot_throughput([(label, ctx, (best, wg_n, wg_lat, sp_n))], str(tmp_path))
    figures += plot_tensorcore.plot_wgmma_n([(label, ctx, (best, wg_n, wg_lat, sp_n))], str(tmp_path))
    assert len(figures) >= 2
    assert not problems.exists() or not problems.read_text().strip(), problems.read_text()

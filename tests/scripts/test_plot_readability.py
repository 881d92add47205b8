"""scripts/plotlib.readability_problems: a legend over the data and an empty panel are caught;
a readable figure has none (check_plots.py runs it on every plot script's figures)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plotlib import readability_problems  # noqa: E402


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

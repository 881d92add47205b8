"""The toy feature's plot (tests/scripts/test_toy_feature.py copies this into
scripts/archbench_tools/plots/): widgets per clock, one bar per run."""
from archbench_tools.plots.plotlib import feature_benchmarks, Script, save
import matplotlib.pyplot as plt


def load(path):
    label, ctx, rows = feature_benchmarks(path, "Toy")
    return label, ctx, [b["toy_widgets_per_clk"] for b in rows if "toy_widgets_per_clk" in b] or None


def plot(datasets, args):
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([label for label, _, _ in datasets], [max(d) for _, _, d in datasets])
    ax.set_ylabel("widgets/clk")
    return save(fig, args.out, "toy_widgets")


SCRIPT = Script(__doc__, "Toy", load, plot)

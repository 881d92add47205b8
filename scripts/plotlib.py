"""Shared by the plot scripts: reading a feature's benchmarks from archbench JSON, saving a
figure as PNG and SVG, and the command line every script has (FILE... --out DIR)."""
import argparse
import os
import sys

try:
    import matplotlib
except ImportError:
    print(f"{os.path.basename(sys.argv[0])}: error: matplotlib is not installed "
          "(pip install -r scripts/requirements.txt)", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import resultfile  # noqa: E402


def feature_benchmarks(path, feature):
    """(gpu label, context, benchmarks of `feature` that ran and are not aggregates). A file that
    is not an archbench result raises resultfile.ResultError."""
    doc = resultfile.load(path)
    ctx = doc["context"]
    label = ctx.get("gpu_name", os.path.basename(path))
    rows = [b for b in doc.get("benchmarks", [])
            if b.get("name", "").startswith(feature + "/") and not b.get("error_occurred")
            and b.get("run_type") != "aggregate"]
    return label, ctx, rows


def save(fig, out_dir, stem, dpi=120):
    paths = []
    for ext in ["png", "svg"]:
        p = os.path.join(out_dir, f"{stem}.{ext}")
        fig.savefig(p, dpi=dpi)
        paths.append(p)
    plt.close(fig)
    return paths


def unit_arg(ap):
    """--unit cycles|ns, for the scripts that plot latencies."""
    ap.add_argument("--unit", choices=["cycles", "ns"], default="cycles")


def main(doc, feature, load, plot, argv=None, extra_args=None):
    """load(path) -> (label, ctx, data) with data falsy when the file has no `feature`;
    plot(datasets, args) -> written paths. Files without the feature are skipped with a note."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", default="plots")
    if extra_args:
        extra_args(ap)
    args = ap.parse_args(argv)
    datasets = []
    for f in args.files:
        try:
            label, ctx, data = load(f)
        except resultfile.ResultError as e:
            print(f"{os.path.basename(sys.argv[0])}: error: {e}", file=sys.stderr)
            return 2
        if data:
            datasets.append((label, ctx, data))
        else:
            print(f"{f}: no {feature} data, skipped")
    if not datasets:
        return 0
    os.makedirs(args.out, exist_ok=True)
    for p in plot(datasets, args):
        print(p)
    return 0

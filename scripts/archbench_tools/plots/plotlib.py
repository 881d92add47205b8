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

from archbench_tools.results import resultfile  # noqa: E402
# A benchmark's family and axes as data (resultfile: the entry's own fields, or its name in older files).
from archbench_tools.results.resultfile import axes, family, family_parts  # noqa: E402,F401


def feature_benchmarks(path, feature):
    """(label: the GPU and the commit that measured it, context, benchmarks of `feature` that ran and
    are not aggregates). A file that is not an archbench result raises resultfile.ResultError."""
    doc = resultfile.load(path)
    ctx = doc["context"]
    label = ctx.get("gpu_name", os.path.basename(path))
    if ctx.get("archbench_git_sha", "unknown") != "unknown":  # runs of one GPU told apart by their code
        label += f" ({ctx['archbench_git_sha'][:7]})"
    rows = [b for b in doc.get("benchmarks", [])
            if resultfile.feature(b) == feature and resultfile.measured(b) and b.get("run_type") != "aggregate"]
    return label, ctx, rows


def readability_problems(fig):
    """What makes a figure unreadable at its size, one line each: a panel with nothing drawn and no
    text saying why, a legend drawn over data points, labels covering each other. Empty when it reads."""
    problems = []
    fig.canvas.draw()  # legends and texts get their final places
    for title, a, b in overlapping_labels(fig):
        problems.append(f"labels '{a}' and '{b}' cover each other in '{title or 'a panel'}'")
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        name = ax.get_title() or ax.get_ylabel() or "a panel"
        drawn = ax.lines or ax.collections or ax.patches or ax.images
        if not drawn and not [t for t in ax.texts if t.get_text().strip()]:
            problems.append(f"empty panel '{name}' with nothing that says why")
        legend = ax.get_legend()
        if legend is None or not legend.get_visible():
            continue
        box = legend.get_window_extent()
        points = []
        for line in ax.lines:
            if line.get_visible() and line.get_label() and not line.get_label().startswith("_child"):
                points.extend(ax.transData.transform(line.get_xydata()))
        for coll in ax.collections:
            offsets = coll.get_offsets()
            if len(offsets):
                points.extend(coll.get_offset_transform().transform(offsets))
        covered = sum(1 for x, y in points if box.contains(x, y))
        if covered:
            problems.append(f"the legend of '{name}' covers {covered} data point(s)")
    return problems


FORMATS = ["png", "svg"]  # what save writes; a script's --formats sets it (the dashboard shows the SVGs alone)


def save(fig, out_dir, stem, dpi=120):
    # Under the plot tests (ARCHBENCH_PLOT_PROBLEMS names a file), what makes the figure unreadable
    # is written there, one line per problem, for tests/scripts/check_plots.py to fail on.
    report = os.environ.get("ARCHBENCH_PLOT_PROBLEMS")
    if report:
        with open(report, "a") as f:
            for problem in readability_problems(fig):
                f.write(f"{stem}: {problem}\n")
    paths = []
    for ext in FORMATS:
        p = os.path.join(out_dir, f"{stem}.{ext}")
        fig.savefig(p, dpi=dpi)
        paths.append(p)
    plt.close(fig)
    return paths


def run_title(title, datasets):
    """A figure's title, with the run's label when one run is plotted (several have a legend)."""
    return title + (f": {datasets[0][0]}" if len(datasets) == 1 else "")


def finish(fig, title, datasets, out_dir, stem, dpi=120, legend_below=None):
    """A figure's common end: its title (run_title), the layout, and the PNG and SVG (save).
    `legend_below`: an axis whose legend the figure shows once, under its panels, where it covers no
    point whatever a matplotlib version's "best" place would be."""
    fig.suptitle(run_title(title, datasets))
    if legend_below is not None:
        handles, labels = legend_below.get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=min(8, len(labels)), fontsize=7)
        fig.tight_layout(rect=(0, 0.08, 1, 1))
    else:
        fig.tight_layout()
    return save(fig, out_dir, stem, dpi)


def human_bytes(n):
    """4096 -> '4 KiB', 52428800 -> '50 MiB' (binary units, at most 3 significant digits)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.3g} B"


def bytes_axis(axis):
    """Tick labels in B/KiB/MiB/GiB on a byte axis (ax.xaxis or ax.yaxis), never 2^20 or 3x10^0."""
    from matplotlib.ticker import FuncFormatter
    axis.set_major_formatter(FuncFormatter(lambda v, _: human_bytes(v)))


def plain_number(v):
    """30, 0.5, 2.5k, 7M, 1.2G: plain numbers with SI prefixes, never 3x10^0 or 1e+11."""
    for prefix, size in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= size:
            return f"{v / size:g}{prefix}"
    return f"{v:g}"


def plain_axis(axis, minor_labels=False):
    """Plain numbers on a log axis instead of powers. With minor_labels, the minor ticks of an
    axis spanning less than two decades are labelled too (a short log axis has no major tick)."""
    from matplotlib.ticker import FuncFormatter
    axis.set_major_formatter(FuncFormatter(lambda v, _: plain_number(v)))

    def minor(v, _):
        lo, hi = sorted(axis.get_view_interval())
        return plain_number(v) if minor_labels and lo > 0 and hi / lo < 100 else ""
    axis.set_minor_formatter(FuncFormatter(minor))


def value_axes(ax, ylabel, legend_size=8, grid="both", from_zero=True, ncol=1, minor_grid=False):
    """The y side of a plot of values: its label, the axis from 0 (from_zero), a light grid
    (grid: "both", "x" or "y"; on the minor ticks too with minor_grid) and a small legend."""
    ax.set_ylabel(ylabel)
    if from_zero:
        ax.set_ylim(bottom=0)
    ax.grid(True, axis=grid, which="both" if minor_grid else "major", alpha=0.3)
    ax.legend(fontsize=legend_size, ncol=ncol)


# Where a point's label may go, in points from the point: right, then above and below it, then left.
LABEL_OFFSETS = [(3, 2), (3, 9), (3, -7), (3, 16), (3, -14), (3, 23), (3, -21)] + \
    [(-3 - 5 * k, dy) for k in (6, 10, 14) for dy in (2, 9, -7)]


def place_labels(ax, labels, fontsize=5.5):
    """Labels [(x, y, text)] beside their points without covering each other: each in the first of
    LABEL_OFFSETS where its box meets no label placed before it (the first ones first); a label
    with no free place is left out and counted. Returns how many were left out."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    placed, left_out = [], 0
    for x, y, text in labels:
        for dx, dy in LABEL_OFFSETS:
            a = ax.annotate(text, (x, y), fontsize=fontsize, xytext=(dx, dy), textcoords="offset points",
                            ha="left" if dx > 0 else "right")
            box = a.get_window_extent(renderer).expanded(1.02, 1.05)
            if not any(box.overlaps(b) for b in placed):
                placed.append(box)
                break
            a.remove()
        else:
            left_out += 1
    return left_out


def overlapping_labels(fig):
    """Pairs of text labels of one axes that cover each other (readability_problems reports them)."""
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_visible() and t.get_text()]
        for i, (ti, bi) in enumerate(boxes):
            for tj, bj in boxes[i + 1:]:
                if bi.overlaps(bj):
                    out.append((ax.get_title(), ti, tj))
    return out


def unit_arg(ap):
    """--unit cycles|ns, for the scripts that plot latencies."""
    ap.add_argument("--unit", choices=["cycles", "ns"], default="cycles")


class PlotError(Exception):
    """Bad input to a plot script: a file that is not an archbench result (its message is one line)."""


class Script:
    """A plot script's command line (FILE... --out DIR, and its own options) and its drawing:
    `main()` for `python3 scripts/plot_<name>.py`, `render(argv)` for report.py and dashboard.py,
    which call it in-process (render_scripts) instead of starting the script.
    load(path) -> (label, ctx, data) with data falsy when the file has no `feature`;
    plot(datasets, args) -> written paths. Files without the feature are skipped with a note."""

    def __init__(self, doc, feature, load, plot, extra_args=None):
        self.doc, self.feature, self.load, self.plot, self.extra_args = doc, feature, load, plot, extra_args

    def render(self, argv, note=print):
        """The paths written for argv; PlotError for a file that is not an archbench result."""
        ap = argparse.ArgumentParser(description=self.doc.splitlines()[0])
        ap.add_argument("files", nargs="+")
        ap.add_argument("--out", default="plots")
        ap.add_argument("--formats", default="png,svg", help="the files of each figure (default png,svg)")
        if self.extra_args:
            self.extra_args(ap)
        args = ap.parse_args(argv)
        formats = [f for f in args.formats.split(",") if f]
        if not formats or any(f not in ("png", "svg", "pdf") for f in formats):
            raise PlotError(f"--formats {args.formats}: png, svg or pdf, comma-separated")
        FORMATS[:] = formats
        datasets = []
        for f in args.files:
            try:
                label, ctx, data = self.load(f)
            except resultfile.ResultError as e:
                raise PlotError(str(e))
            if data:
                datasets.append((label, ctx, data))
            else:
                note(f"{f}: no {self.feature} data, skipped")
        if not datasets:
            return []
        resultfile.output_dir_or_exit(args.out, os.path.basename(sys.argv[0]))
        return list(self.plot(datasets, args))

    def main(self, argv=None):
        try:
            paths = self.render(argv)
        except PlotError as e:
            print(f"{os.path.basename(sys.argv[0])}: error: {e}", file=sys.stderr)
            return 2
        for p in paths:
            print(p)
        return 0


def _render_one(name, argv):
    """(paths, None) or ([], why) for scripts/plot_<name>.py's drawing of argv, in this process."""
    import importlib
    try:
        script = importlib.import_module(f"archbench_tools.plots.plot_{name}").SCRIPT
        return script.render(argv, note=lambda _: None), None
    except PlotError as e:
        return [], str(e)
    except Exception as e:  # a plot that fails costs its own pictures only; the caller says why
        return [], f"{type(e).__name__}: {e}"
    finally:
        plt.close("all")


def start_scripts(jobs, workers=None):
    """Starts the plot modules' drawings of each (name, argv) in jobs, called as functions in worker
    processes side by side (matplotlib's pyplot is not thread-safe; forked workers share the parent's
    imports, so none starts Python or imports matplotlib again), and returns a function that waits
    for them: [(paths, why)] in the jobs' order. The caller works on while they draw."""
    import concurrent.futures
    import multiprocessing
    jobs = list(jobs)
    if not jobs:
        return lambda: []
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork here: one at a time, in this process, when waited for
        return lambda: [_render_one(n, a) for n, a in jobs]
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers or min(len(jobs), os.cpu_count() or 2),
                                                  mp_context=context)
    futures = [pool.submit(_render_one, n, a) for n, a in jobs]

    def wait():
        try:
            return [f.result() for f in futures]
        finally:
            pool.shutdown()
    return wait


def render_scripts(jobs, workers=None):
    """[(paths, why)] of each (name, argv) in jobs (start_scripts, waited for)."""
    return start_scripts(jobs, workers)()

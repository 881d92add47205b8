#!/usr/bin/env python3
"""A static HTML dashboard of archbench results: the newest run of every GPU and board with its
verdict against the run before, a page per feature, the history of every benchmark's primary
metric with compare's noise band, and this GPU's headline figures against earlier generations.

Usage: dashboard.py RESULTS_DIR --out SITE_DIR [--reference DIR]

RESULTS_DIR: folders of result files, one per GPU model (results/<gpu>/...; `reference/` holds
published values, not runs). The site needs no server and no network: open SITE_DIR/index.html.
Verdicts, bands and steps are compare.py's (one owner for each rule); plots are matplotlib SVG
(the feature plots are the plot_<feature>.py scripts' own). Exit 0, or 2 with a one-line error.
"""
import argparse
import collections
import glob
import hashlib
import json
import math
import os
import shutil
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from archbench_tools import paths
from archbench_tools.nightly import accept  # noqa: E402
from archbench_tools.nightly import history  # noqa: E402
from archbench_tools.compare import compare  # noqa: E402
from archbench_tools.tables import features  # noqa: E402
from archbench_tools.report import report  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402
from archbench_tools.results import run as run_model  # noqa: E402
from archbench_tools.fleet import fleet_model  # noqa: E402

TEMPLATES = os.path.join(HERE, "dashboard")
# Published values for the generations page: the repository's results/reference/.
DEFAULT_REFERENCE = paths.in_root("results", "reference", required=False)
# The benchmarks whose history is drawn (every other one is a row of the history table): each
# level's headline, and the benchmarks behind the inferred values.


def drawn(name):
    """A benchmark whose history the site draws: a headline (a family with a "headline" part)."""
    return "headline" in resultfile.family_of_name(name).split("/")


class DashboardError(Exception):
    pass


# --- The runs ---------------------------------------------------------------------------------------

class RunFile:
    """One result file: the raw document (context, labels) and compare's reading of it."""

    def __init__(self, path, doc, run):
        self.path, self.doc, self.run = path, doc, run
        self.context = doc.get("context", {})
        self.date = resultfile.run_date(path, doc)
        self.board = str(self.context.get("gpu_uuid", "?"))
        self.features = report.features_of(doc)


def load_runs(results_dir):
    """{gpu folder name: [RunFile, oldest first]} for every folder under results_dir but reference/."""
    if not os.path.isdir(results_dir):
        raise DashboardError(f"{results_dir}: " + ("a file, not a folder of results" if os.path.exists(results_dir)
                                                   else "no such directory"))
    models = {}
    for gpu_dir in sorted(glob.glob(os.path.join(results_dir, "*", ""))):
        gpu = os.path.basename(os.path.normpath(gpu_dir))
        if gpu == "reference":
            continue
        runs = []
        found = glob.glob(os.path.join(gpu_dir, "**", "*.json"), recursive=True) + \
            glob.glob(os.path.join(gpu_dir, "**", "*.json.gz"), recursive=True)
        for p in sorted(found):
            if os.sep + "report" + os.sep in p[len(gpu_dir) - 1:]:
                continue
            try:
                doc = resultfile.load(p)
                if not resultfile.is_archbench(doc) or doc.get("context", {}).get("archbench_fault"):
                    continue  # planted-fault runs never enter a history
                runs.append(RunFile(p, doc, compare.load(p)))
            except (resultfile.ResultError, compare.InputError) as e:
                print(f"dashboard.py: note: {e}: not a run, skipped", file=sys.stderr)
        if runs:
            models[gpu] = sorted(runs, key=lambda r: (r.date, r.path))
    if not models:
        raise DashboardError(f"{results_dir}: no archbench run under it")
    return models


def complete_runs(runs):
    legacy_most = max((len(r.features - report.OPTIONAL_FEATURES) for r in runs if not report.declared_features(r.doc)),
                      default=0)
    return [r for r in runs if report.is_complete(r.doc, legacy_most)]


_models = {}


def fleet_models(gpu_name):
    """The committed fleet model of a GPU model (None where there is none), read once."""
    if gpu_name not in _models:
        _models[gpu_name] = fleet_model.model_for(gpu_name)
    return _models[gpu_name]


def retired(run, current):
    """The features whose method differs between a run and the model's newest complete run (the
    context's archbench_method_<Feature>): a run of retired methods is a development run, kept in the
    history and off the front page."""
    out = []
    for key, value in run.context.items():
        if key.startswith("archbench_method_") and key in current.context and current.context[key] != value:
            out.append(key[len("archbench_method_"):])
    return sorted(out)


def judgement(runs, newest):
    """How the dashboard judges a run, one rule for its card and the history page: compare.py
    against the same board's previous complete run (the model's earlier runs as the history, the
    fleet model's bands), where the board has one; else compare against the model's previous
    complete run (for the history page's steps) and the acceptance verdict against the fleet model
    (accept.py) for the card. Returns {"base", "rows", "features", "accept"}."""
    complete = complete_runs(runs)
    before = [r for r in complete if (r.date, r.path) < (newest.date, newest.path)]
    own = [r for r in before if r.board == newest.board]
    model = fleet_models(newest.run.context.get("gpu_name"))
    out = {"base": None, "rows": [], "features": {}, "accept": None, "own": bool(own)}
    base = own[-1] if own else (before[-1] if before else None)
    if base is not None:
        earlier = [r for r in before if r is not base]
        history, _ = compare.noise_history(newest.run, [r.run for r in earlier])
        out["base"], out["history"] = base, earlier
        out["rows"], out["features"] = compare.compare(base.run, newest.run, history, model=model)
    # The acceptance verdict on every card, nightly's too (as nightly's report puts it on top): the
    # two cannot disagree silently. `how` says how much of it the fleet model decided (accept.judgement).
    checks = accept.judge(newest.run, newest.doc, model)
    if not all(c.basis.startswith("not measured in this run") for c in checks):
        out["accept"] = {"line": accept.verdict_line(checks)[len("Verdict: "):],
                         "failed": [c for c in checks if c.status == "fail"],
                         "passed": sum(c.status == "pass" for c in checks), "checks": len(checks),
                         "how": accept.judgement(checks),
                         "basis": model.describe() if model else "no fleet model: the specification and physical limits"}
    return out


def verdict_of(judged):
    """The card's compare verdict and counts from a judgement (None without a baseline)."""
    rows, features = judged["rows"], judged["features"]
    if judged["base"] is None:
        return None
    count = collections.Counter(r["status"] for r in rows)
    return {"line": compare.verdict_line(rows, features) if rows else "nothing compared",
            "regressed": count["regressed"], "improved": count["improved"],
            "method_changed": count["method changed"], "compared": len(rows),
            "movers": sorted((r for r in rows if r["status"] in ("regressed", "improved")),
                             key=lambda r: -abs(r["change_pct"]))[:8]}


def cards(models):
    """One card per GPU model and board that has a complete run of the model's current methods: its
    newest, newest first. Its verdict: compare.py's against the board's own previous complete run,
    else the acceptance verdict against the fleet model (judgement). A model without any complete
    run gets one card, of its newest run, marked partial. Also, per model, the boards with partial
    runs only, and the boards whose newest run is of retired methods (development runs)."""
    out, partial_only, retired_boards, judged_newest = [], {}, {}, {}
    for gpu, runs in models.items():
        complete = complete_runs(runs)
        current = (complete or runs)[-1]
        boards = sorted({r.board for r in complete}) or [runs[-1].board]
        partial_only[gpu] = sorted({r.board for r in runs} - set(boards))
        retired_boards[gpu] = []
        for board in boards:
            newest = ([r for r in complete if r.board == board] or [r for r in runs if r.board == board])[-1]
            old = retired(newest, current)
            if old:
                retired_boards[gpu].append({"board": board, "file": newest.path, "date": newest.date[0],
                                            "commit": str(newest.context.get("archbench_git_sha", "?"))[:12],
                                            "features": old})
                continue
            judged = judgement(runs, newest)
            if newest is current:
                judged_newest[gpu] = judged
            c = newest.context
            card = {"gpu": gpu, "name": c.get("gpu_name", gpu), "board": board, "part": c.get("gpu_board_part_number", ""),
                    "date": newest.date[0], "commit": str(c.get("archbench_git_sha", "?"))[:12],
                    "driver": c.get("gpu_driver_version", "?"), "complete": newest in complete,
                    "clocks": f"SM {c.get('gpu_start_sm_clock_mhz', '?')} MHz at start (max {c.get('gpu_max_sm_clock_mhz', '?')}), "
                              f"memory {c.get('gpu_mem_clock_mhz', '?')} MHz",
                    "file": newest.path, "benchmarks": len(newest.run.values), "errors": len(newest.run.errors),
                    "previous": judged["base"].path if judged["own"] else None}
            card["verdict"] = verdict_of(judged) if judged["own"] else None
            card["accept"] = judged["accept"]
            card["history"] = [r.path for r in judged.get("history", [])] if judged["own"] else []
            # Red only for what the model calls a regression or a failure.
            card["bad"] = bool((card["verdict"] and card["verdict"]["line"].startswith("REGRESSION")) or
                               (card["accept"] and card["accept"]["failed"]))
            out.append(card)
    out.sort(key=lambda c: c["date"], reverse=True)
    return out, partial_only, retired_boards, judged_newest


# --- History ----------------------------------------------------------------------------------------

def history_rows(runs, newest, judged):
    """One row per benchmark x primary metric of the newest run: its value, and compare.py's band for
    it from the judgement its card shows (the same call: its reference +- the threshold compare
    judged it by); a step is a row compare called changed, so the card's counts and the page's steps
    are one rule. The series over every run of the model (all boards) goes with each row, for the
    drawn ones."""
    judged_rows = {(r["name"], r["counter"]): r for r in judged["rows"]}
    base = judged["base"]
    note = (f"against {os.path.basename(base.path)} ({'the same board' if base.board == newest.board else 'another board'}), "
            f"as its card" if base else "no earlier complete run: no band")
    rows = []
    for name, counters in sorted(newest.run.values.items()):
        for counter, how, tol in newest.run.primary.get(name, []):
            if not counters.get(counter):
                continue
            last = statistics.median(counters[counter])
            j = judged_rows.get((name, counter))
            b = None
            if j is not None and math.isfinite(j.get("threshold_pct", math.inf)):
                t = j["threshold_pct"]
                b = (j["ref"] * (1 - t / 100), j["ref"], j["ref"] * (1 + t / 100))
            series = [(r.date, statistics.median(r.run.values[name][counter]), r.run.methods.get(name), r.board)
                      for r in runs if r.run.values.get(name, {}).get(counter)]
            rows.append({"name": compare.short(name), "anchor": resultfile.slug(name + "-" + counter), "counter": counter,
                         "runs": len(series), "boards": len({p[3] for p in series}),
                         "noise": j["noise"] if j else "not compared", "last": last,
                         "kind": compare.metric_kind(counter), "band": b,
                         "step": j is not None and j["status"] in ("regressed", "improved", "value changed"),
                         "method_changes": sum(1 for a, c in zip(series, series[1:]) if a[2] != c[2]),
                         "drawn": drawn(name), "series": series, "key": name})
    return rows, note


def change_points(runs, newest, rows):
    """The change points of the newest run's board over its own runs (nightly/history.py: dated to
    the night and commit), each attached to its row (row["changes"], for its plot); returns them as
    [(row name, counter, words)] for the page."""
    board = [r for r in runs if r.board == newest.board]
    if len(board) < 2 * history.MIN_SEGMENT or history.ruptures() is None:
        return []
    model = fleet_models(newest.run.context.get("gpu_name"))
    by_key = {(r["key"], r["counter"]): r for r in rows}
    keys = [(r["key"], r["counter"], how) for r in rows
            for c, how, _ in newest.run.primary.get(r["key"], []) if c == r["counter"]]
    out = []
    for c in history.analyse([r.run for r in board], keys, model):
        row = by_key.get((c["name"], c["counter"]))
        if row is None:
            continue
        row.setdefault("changes", []).append((board[c["night"]].date, newest.board))
        out.append((row["name"], row["counter"], history.describe(c), row["anchor"]))
    return out


def draw_history(row, path):
    """The metric over the model's runs (colour: board), the band, and where the method changed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    points = row["series"]
    fig, ax = plt.subplots(figsize=(9, 3))
    boards = sorted({p[3] for p in points})
    # A colour per board: ten distinct ones, or as many evenly spread along a colour map.
    colour = (lambda k: plt.cm.tab10.colors[k]) if len(boards) <= 10 else \
        (lambda k: plt.cm.turbo(0.05 + 0.9 * k / (len(boards) - 1)))
    named = len(boards) <= 6  # more boards: colours without a legend entry each
    # The axis in the unit the table shows (GB/s, TFLOP/s), never as an offset of 1e12.
    counter = row["counter"]
    scale, unit = ((1e-9, "GB/s") if counter.endswith("bytes_per_second") else
                   (1e-12, "TFLOP/s") if counter.endswith("flops") else (1.0, ""))
    for k, board in enumerate(boards):
        xs = [i for i, p in enumerate(points) if p[3] == board]
        ax.plot(xs, [points[i][1] * scale for i in xs], "o", ms=4, color=colour(k),
                label=f"board {board[:12]}" if named else None)
    if row["band"]:
        lo, centre, hi = (v * scale for v in row["band"])
        ax.axhspan(lo, hi, color="#1f5fa8", alpha=0.12, label="noise band of the newest (compare.py)")
        ax.axhline(centre, color="#1f5fa8", lw=0.6, ls=":")
    ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    changes = [i for i in range(1, len(points)) if points[i][2] != points[i - 1][2]]
    for k, i in enumerate(changes):
        ax.axvline(i - 0.5, color="#c0392b", lw=0.8, ls="--", label=None if k else "method changed")
    for k, (date, board) in enumerate(row.get("changes", [])):
        at = [i for i, p in enumerate(points) if p[0] == date and p[3] == board]
        if at:
            ax.axvline(at[0] - 0.5, color="#7d3c98", lw=1.2, ls="-.", label=None if k else "change point (this board)")
    ax.set_xticks(range(len(points)))
    ax.set_xticklabels([str(p[0][0])[5:16].replace("T", " ") for p in points], rotation=60, ha="right", fontsize=6)
    ax.set_ylabel(f"{counter} ({unit})" if unit else counter, fontsize=8)
    ax.set_title(row["name"] + ("" if named else f" (colour: board, {len(boards)} boards)"), fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --- The site --------------------------------------------------------------------------------------

def fmt(v, kind):
    return compare.fmt_value(v, kind)


def feature_plot_jobs(files, out_dir):
    """The plot scripts' jobs (plotlib.render_scripts) that draw every feature's plots of these runs."""
    os.makedirs(out_dir, exist_ok=True)
    return [(name, ["--out", out_dir, "--formats", "svg", *files]) for name in report.PLOTS]


def feature_plots(done):
    """The SVGs of each plot script's job (feature_plot_jobs, drawn): {plot name: [(file, caption)]}."""
    plots = collections.defaultdict(list)
    for name, (drawn, why) in zip(report.PLOTS, done):
        if why:  # the page says so; the rest of the site is still built
            print(f"dashboard.py: note: plot_{name}.py failed: {why}", file=sys.stderr)
            plots[name].append((None, f"plot_{name}.py failed: {why}"))
            continue
        for p in drawn:
            if p.endswith(".svg"):
                stem = os.path.splitext(os.path.basename(p))[0]
                plots[name].append((os.path.basename(p), report.CAPTIONS.get(stem, "")))
    return plots


FEATURE_OF_PLOT = features.feature_of_plot()  # benchmarks/features.json


def feature_name(plot_name):
    return FEATURE_OF_PLOT[plot_name]


# The generations page's quantities, per level: (key, what, unit). Published files name them
# Reference/<key> (tests/scripts/check_references.py); this suite's come from our_figures().
LEVELS = [("l1_hit_latency_cycles", "L1 hit latency", "cycles"), ("l2_hit_latency_cycles", "L2 hit latency", "cycles"),
          ("dram_latency_cycles", "DRAM latency", "cycles"), ("smem_latency_cycles", "shared memory latency", "cycles"),
          ("l2_read_shared_bytes_per_second", "L2 read, data shared by SMs, about a third of the L2", "TB/s"),
          ("l2_read_private_bytes_per_second", "L2 read, each SM its own slice", "TB/s"),
          ("dram_read_bytes_per_second", "DRAM read", "TB/s"), ("dram_write_bytes_per_second", "DRAM write", "TB/s"),
          ("dram_copy_bytes_per_second", "DRAM copy (read + write)", "TB/s"),
          ("tensor_f16_flops", "tensor cores, f16 dense (wgmma)", "TFLOP/s"),
          ("tensor_f16_flop_per_clk_per_sm", "tensor cores, f16 dense (wgmma)", "FLOP/clk/SM")]
SUITE_METHOD = {
    "latency": "archbench MemLatency/SmemBanks: the dependent chain that plays the level's role on this GPU (results/roles.py: the L1-resident, L2-resident and DRAM chains accept.py judges)",
    "l2": "archbench Bandwidth/l2/<case>/ld.cg: every SM reads its share for many passes, bytes over the GPU-wide window",
    "dram": "archbench Bandwidth/headline/DRAM: the best of the launch shapes tried on this GPU, measured again",
    "tensor": "archbench TensorCore/wgmma/throughput/f16: the best shape, every SM",
}


def our_figures(doc):
    """This suite's figure per LEVELS key in a run, with its method: {key: (value, method)}."""
    from archbench_tools.plots import plot_generations  # the generations' reading of a run: one owner for its figures
    q, _clock = plot_generations.from_run(doc)
    method = {"cycles": SUITE_METHOD["latency"], "l2_read": SUITE_METHOD["l2"], "dram": SUITE_METHOD["dram"]}
    out = {k: (v, next((m for part, m in method.items() if part in k), "")) for k, v in q.items()
           if k in {key for key, _, _ in LEVELS}}
    tensor = [b for _, b in run_model.Run(doc).select(family="TensorCore/wgmma/throughput/f16", counter="flops")]
    if tensor:
        out["tensor_f16_flops"] = (max(b["flops"] for b in tensor), SUITE_METHOD["tensor"])
        out["tensor_f16_flop_per_clk_per_sm"] = (max(b.get("flop_per_clk_per_sm", 0) for b in tensor), SUITE_METHOD["tensor"])
    return out


def show(value, unit):
    return f"{value / 1e12:.2f}" if unit in ("TB/s", "TFLOP/s") else f"{value:.1f}" if unit == "cycles" else f"{value:.0f}"


PLOTS_MANIFEST = ".plots.json"  # in the site's plots/: what each plot job drew, and from what (draw_plots)


def _code_digest():
    """The plot code and the feature table: a change of either redraws every plot."""
    h = hashlib.sha256()
    plots_dir = os.path.join(os.path.dirname(HERE), "plots")
    for f in sorted(glob.glob(os.path.join(plots_dir, "*.py"))) + ([features.TABLE] if features.TABLE else []):
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def _stamp(name, argv, code):
    """What a plot job draws from: its plot, its arguments, each input file's size and time, the code."""
    h = hashlib.sha256(json.dumps([name, argv, code]).encode())
    for a in argv:
        if os.path.isfile(a):
            st = os.stat(a)
            h.update(f"{a}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


def draw_plots(jobs, plots_dir):
    """plotlib.start_scripts for the jobs whose drawing is out of date: a job whose plot, arguments,
    input files and plot code are those of its last drawing, with every file it drew still there,
    is not drawn again (nightly rebuilds the site every night over mostly the same runs). Returns a
    function that waits: [(paths, why)] for every job, in order."""
    from archbench_tools.plots import plotlib  # matplotlib: needed for the plots only
    manifest_path = os.path.join(plots_dir, PLOTS_MANIFEST)
    try:
        with open(manifest_path) as f:
            manifest = json.load(f)
        manifest = manifest if isinstance(manifest, dict) else {}
    except (OSError, ValueError):
        manifest = {}
    code = _code_digest()
    keys = [f"{name} {argv[argv.index('--out') + 1]}" for name, argv in jobs]
    stamps = [_stamp(name, argv, code) for name, argv in jobs]

    def fresh(i):
        rec = manifest.get(keys[i])
        return isinstance(rec, dict) and rec.get("stamp") == stamps[i] and not rec.get("why") and \
            all(os.path.exists(p) for p in rec.get("paths", []))
    todo = [i for i in range(len(jobs)) if not fresh(i)]
    wait = plotlib.start_scripts([jobs[i] for i in todo])

    def finish():
        for i, drawn in zip(todo, wait()):
            manifest[keys[i]] = {"stamp": stamps[i], "paths": drawn[0], "why": drawn[1]}
        try:
            with open(manifest_path + ".part", "w") as f:
                json.dump(manifest, f, indent=0)
            os.replace(manifest_path + ".part", manifest_path)
        except OSError:
            pass  # the next build draws again: nothing is lost
        return [(manifest[k]["paths"], manifest[k]["why"]) for k in keys]
    return finish


def reference_files(reference_dir):
    return sorted(glob.glob(os.path.join(reference_dir, "*.json"))) if reference_dir else []


def generations_job(newest, reference_dir, out_dir):
    """The cross-generation plot's job (plot_generations.py) over these runs and the published values."""
    return ("generations", ["--out", out_dir, "--formats", "svg", *newest, *reference_files(reference_dir)])


def generations(newest, reference_dir, drawn_why):
    """The cross-generation plot (generations_job, drawn) and, per level, every GPU's figure: this
    suite's runs and the published values, each with the tool and its source."""
    refs = reference_files(reference_dir)
    drawn, why = drawn_why
    if why:
        print(f"dashboard.py: note: plot_generations.py failed: {why}", file=sys.stderr)
    # The plot by release (a panel per quantity, legible at page width); the latency bars, one group
    # per GPU, grow past any page with 40 references and stay in the report.
    svgs = [os.path.basename(p) for p in drawn if p.endswith("generations_release.svg")]
    figures = collections.defaultdict(list)  # key -> [(gpu, value, tool and method, source)]
    for f in newest:
        doc = resultfile.load(f)
        gpu = doc.get("context", {}).get("gpu_name", "?")
        for key, (value, method) in our_figures(doc).items():
            figures[key].append((gpu, value, method, f))
    sources = []
    for p in refs:
        try:
            doc = resultfile.load(p)
        except resultfile.ResultError:
            continue
        c = doc.get("context", {})
        sources.append({"gpu": c.get("gpu_name", os.path.basename(p)), "provenance": c.get("provenance", ""),
                        "note": c.get("note", ""), "file": os.path.basename(p)})
        for b in doc.get("benchmarks", []):
            if isinstance(b, dict) and isinstance(b.get("value"), (int, float)):
                key = b.get("name", "").split("/", 1)[-1]
                figures[key].append((c.get("gpu_name", "?"), b["value"], c.get("provenance", ""),
                                     f"{os.path.basename(p)}: {b.get('provenance', '')}"))
    levels = [{"what": what, "unit": unit, "rows": [(g, show(v, unit), m, src) for g, v, m, src in figures[key]]}
              for key, what, unit in LEVELS if figures.get(key)]
    return svgs, sources, levels


def roofline_picture(newest, path):
    """The roofline of a model's newest complete run (scripts/roofline.py), drawn to `path`; False
    where the run lacks bandwidth or compute ceilings."""
    from archbench_tools.tables import ceilings
    from archbench_tools.tables import roofline
    rf = roofline.roofs(ceilings.ceilings(newest.doc, newest.path))
    if not (rf["bandwidth"] and rf["compute"]):
        return False
    roofline.draw(rf, [], path, f"{newest.doc['context'].get('gpu_name')} ({os.path.basename(newest.path)})")
    return True


def build(results_dir, out, reference_dir):
    try:
        import jinja2
    except ImportError:
        raise DashboardError("Jinja2 is not installed (pip install jinja2)")
    models = load_runs(results_dir)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=jinja2.select_autoescape(["html"]))
    env.filters["fmt"] = lambda v, kind: fmt(v, kind)
    env.filters["rel"] = lambda p: os.path.relpath(p, results_dir)
    if os.path.exists(out) and not os.path.isdir(out):
        raise DashboardError(f"--out {out}: not a directory")
    try:
        os.makedirs(out, exist_ok=True)
        for sub in ("feature", "history", "plots", "assets"):
            os.makedirs(os.path.join(out, sub), exist_ok=True)
    except OSError as e:
        raise DashboardError(f"--out {out}: {e.strerror}")
    for asset in ("style.css", "site.js"):
        shutil.copy(os.path.join(TEMPLATES, asset), os.path.join(out, "assets", asset))

    # A model's newest complete run (else its newest) stands for it on the feature and history pages.
    newest_runs = {gpu: (complete_runs(runs) or runs)[-1] for gpu, runs in models.items()}
    newest_files = {gpu: r.path for gpu, r in newest_runs.items()}

    # Every plot script's drawing of every model's newest run, and the generations' plot (the longest,
    # first), side by side in one pool of workers that draws while this process judges the cards and
    # writes the history pages (a pool per model, and the generations after them, left cores idle).
    newest_sorted = sorted(newest_files.values())
    jobs = [generations_job(newest_sorted, reference_dir, os.path.join(out, "plots"))]
    for gpu, f in newest_files.items():
        jobs += feature_plot_jobs([f], os.path.join(out, "plots", gpu))
    drawing = draw_plots(jobs, os.path.join(out, "plots"))
    the_cards, partial_only, retired_boards, judged_newest = cards(models)

    # History pages, one per GPU model: every benchmark x primary counter x board in a table the
    # search box filters; the headline benchmarks drawn (written once the feature pages are known).
    history_pages = {}
    for gpu, runs in models.items():
        newest = newest_runs[gpu]
        rows, note = history_rows(runs, newest, judged_newest.get(gpu) or judgement(runs, newest))
        changes = change_points(runs, newest, rows)
        os.makedirs(os.path.join(out, "plots", gpu, "history"), exist_ok=True)
        for row in rows:
            if row["drawn"] or row.get("changes"):
                row["plot"] = f"../plots/{gpu}/history/{row['anchor']}.svg"
                draw_history(row, os.path.join(out, "plots", gpu, "history", f"{row['anchor']}.svg"))
        roof = roofline_picture(newest, os.path.join(out, "plots", gpu, "roofline.svg"))
        history_pages[gpu] = dict(root="..", title=f"History: {gpu}", gpu=gpu, rows=rows, runs=runs, newest=newest,
                                  note=note, changes=changes, change_method=history.METHOD_NOTE,
                                  change_why=None if history.ruptures() else
                                  "not computed: the Python package ruptures is not installed",
                                  roofline=f"../plots/{gpu}/roofline.svg" if roof else None)

    done = drawing()
    drawn_generations, done = done[0], done[1:]

    # Feature pages: per model, the feature's plots, its headline benchmarks and inferred values.
    features = collections.defaultdict(lambda: {"models": []})
    for i, (gpu, f) in enumerate(newest_files.items()):
        plots = feature_plots(done[i * len(report.PLOTS):(i + 1) * len(report.PLOTS)])
        doc = next(r.doc for r in models[gpu] if r.path == f)
        run = next(r.run for r in models[gpu] if r.path == f)
        inferred = report.geometry_rows(doc)
        for plot_name in report.PLOTS:
            feat = feature_name(plot_name)
            heads = []
            for name, counters in sorted(run.values.items()):
                if compare.feature_of(name) == feat and drawn(name):
                    for counter, _, _ in run.primary.get(name, []):
                        if counters.get(counter):
                            heads.append((compare.short(name), counter,
                                          fmt(statistics.median(counters[counter]), compare.metric_kind(counter))))
            rows = [r for r in inferred if resultfile.feature_of_name(r[3]) == feat]
            if not plots.get(plot_name) and not heads and not rows:
                continue
            features[feat]["models"].append({"gpu": gpu, "name": doc["context"].get("gpu_name", gpu), "file": f,
                                             "plots": [(f"../plots/{gpu}/{p}" if p else None, cap)
                                                       for p, cap in plots.get(plot_name, [])],
                                             "headlines": heads, "inferred": rows})
    for feat, page in features.items():
        with open(os.path.join(out, "feature", f"{feat}.html"), "w") as fh:
            fh.write(env.get_template("feature.html").render(root="..", title=feat, feature=feat, page=page,
                                                           features=sorted(features), models=sorted(models)))

    for gpu, page in history_pages.items():
        with open(os.path.join(out, "history", f"{gpu}.html"), "w") as fh:
            fh.write(env.get_template("history.html").render(**page, features=sorted(features), models=sorted(models)))

    svgs, sources, levels = generations(newest_sorted, reference_dir, drawn_generations)
    with open(os.path.join(out, "generations.html"), "w") as fh:
        fh.write(env.get_template("generations.html").render(root=".", title="Generations", svgs=svgs, sources=sources,
                                                           levels=levels, features=sorted(features), models=sorted(models)))
    with open(os.path.join(out, "index.html"), "w") as fh:
        fh.write(env.get_template("index.html").render(root=".", title="archbench", cards=the_cards, partial_only=partial_only,
                                                     retired=retired_boards,
                                                     features=sorted(features), models=sorted(models)))
    return os.path.join(out, "index.html")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results_dir", help="results/ (one folder per GPU model)")
    ap.add_argument("--out", required=True, help="the site's folder (created)")
    ap.add_argument("--reference", default=DEFAULT_REFERENCE,
                    help="published values for the generations page (default: the repository's results/reference)")
    args = ap.parse_args(argv)
    reference = args.reference
    try:
        print(build(args.results_dir, args.out, reference))
    except DashboardError as e:
        print(f"dashboard.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The run model: one result file read as data, and the one way a tool picks benchmarks out of it.

    run = Run.load(path)                       # resultfile.load's checks; ResultError on bad input
    run = Run(doc, path)                       # from a loaded document
    run.select(family="Bandwidth/write", where=lambda key, b: b.get("level") == 2)
    run.select(family="HostLink/copy", dir="h2d", memory="pinned")
    run.best("bytes_per_second", family="Bandwidth/headline/DRAM/read")
    run.one("Geometry/l1/capacity", carveout=0)
    run.role("l2_chain")                       # results/roles.py: the benchmark that plays the part here

A benchmark is picked by its declared family and axes (resultfile.family and resultfile.axes read
the entry's own fields, or an older file's name by the same rule), by a role, or by a test of its
counters: never by a pattern over its name, which is how a selector written for one GPU's
footprints or one family's spelling breaks on the next (DESIGN.md, "Roles, not names").

`family` is a family or a tuple of them; each matches itself and every family under it, part by
part: "Bandwidth/smem" matches "Bandwidth/smem/ld" and not "Bandwidth/smemx". Axis values are
compared as the name writes them (text); a tuple or set of values matches any of them.

The metrics of a run as compare, nightly and the fleet model judge them (each benchmark's declared
primary metrics, one value per repetition, and its method identifier: from its own fields, else
from results/method-ledger.json by its commit) are `load_metrics(path)` -> Metrics; several runs of
one GPU model, oldest first, `load_history(sources, gpu_name)`. InputError carries the one line a
command prints on bad input.
"""
import glob
import json
import math
import os

from archbench_tools import paths
from archbench_tools.results import resultfile
from archbench_tools.results import roles


number = resultfile.context_number  # a positive number from the run's context, or None

def entry_key(b):
    """An entry's key in a run: its name without Google Benchmark's '/iterations:N' and time kind."""
    return resultfile.short_name(str(b.get("run_name") or b.get("name", "")))


def _under(family, wanted):
    return any(resultfile.is_under(family, w) for w in wanted)


def _axis_matches(value, want):
    if isinstance(want, (tuple, list, set, frozenset)):
        return value in {str(w) for w in want}
    return value == str(want)


class Run:
    """The measured entries of a run by key (the first repetition of each; aggregates, errors and
    skips left out), with its context. `sm_count` is the GPU's SM count from the context."""

    def __init__(self, doc, path=""):
        self.path, self.doc, self.ctx = path, doc, doc.get("context") or {}
        self.sm_count = number(self.ctx, "gpu_sm_count")
        self.entries = {}
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" or not resultfile.measured(b):
                continue
            self.entries.setdefault(entry_key(b), b)
        self._families = {key: resultfile.family(b) for key, b in self.entries.items()}
        self._axes = {}
        # the keys of each family in the file's order, and each key's place: a select reads the
        # families it asks for, not every entry (a full run has 10,000)
        self._order = {key: i for i, key in enumerate(self.entries)}
        self._by_family = {}
        for key, fam in self._families.items():
            self._by_family.setdefault(fam, []).append(key)

    @classmethod
    def load(cls, path):
        return cls(resultfile.load(path), path)

    def axes(self, key):
        """The axes of the entry `key` (text values), read once."""
        if key not in self._axes:
            self._axes[key] = resultfile.axes(self.entries[key])
        return self._axes[key]

    def family(self, key):
        return self._families[key]

    def on_every_sm(self, key):
        """False for a shape that ran on fewer SMs than the GPU has (its `sms` axis, or the entry's
        sms counter): a ceiling is the whole GPU's."""
        sms = self.axes(key).get("sms", self.entries[key].get("sms"))
        try:
            sms = float(sms)
        except (TypeError, ValueError):
            return True
        return not (self.sm_count and 0 < sms < self.sm_count)

    def select(self, family=None, feature=None, role=None, where=None, every_sm=False, counter=None, **axes):
        """[(key, entry)] in the file's order: entries of `family` (or under it) and `feature` whose
        axes include `axes`, that pass `where(key, entry)`, ran on every SM (`every_sm`) and hold a
        number for `counter`; with `role`, of the one benchmark that plays it on this GPU."""
        wanted = (family,) if isinstance(family, str) else tuple(family or ())
        if role is not None:
            hit = self.role(role)
            candidates = [hit] if hit else []
        elif wanted or feature is not None:
            keys = [k for fam, ks in self._by_family.items()
                    if _under(fam, wanted or (feature,)) for k in ks]
            candidates = [(k, self.entries[k]) for k in sorted(keys, key=self._order.__getitem__)]
        else:
            candidates = self.entries.items()
        out = []
        for key, b in candidates:
            fam = self._families[key]
            if wanted and not _under(fam, wanted):
                continue
            if feature is not None and fam.split("/", 1)[0] != feature:
                continue
            if axes and not all(_axis_matches(self.axes(key).get(k), v) for k, v in axes.items()):
                continue
            if counter is not None and not isinstance(b.get(counter), (int, float)):
                continue
            if every_sm and not self.on_every_sm(key):
                continue
            if where is not None and not where(key, b):
                continue
            out.append((key, b))
        return out

    def best(self, counter, lowest=False, **how):
        """(key, entry) of the selected benchmark (select's arguments; every SM) with the highest
        (lowest) `counter`, or None."""
        hits = self.select(counter=counter, every_sm=True, **how)
        if not hits:
            return None
        return (min if lowest else max)(hits, key=lambda t: t[1][counter])

    def one_key(self, family, **axes):
        """The key of the benchmark of exactly `family` (not one under it) with exactly these axes
        (no others), or None: one point of a sweep, or a benchmark that has no axes."""
        want = {k: str(v) for k, v in axes.items()}
        for key, _ in self.select(family=family, **axes):
            if self._families[key] == family and self.axes(key) == want:
                return key
        return None

    def one(self, family, **axes):
        """The entry of `one_key(family, **axes)`, or None."""
        key = self.one_key(family, **axes)
        return self.entries[key] if key else None

    def families(self, under):
        """The families of the run under `under` (sorted)."""
        return sorted({f for f in self._families.values() if _under(f, (under,))})

    def role(self, role):
        """(key, entry) of the benchmark that plays `role` on this run's GPU (results/roles.py), or None."""
        key = roles.find(role, self.entries.values(), self.ctx)
        if key is None:
            return None
        key = resultfile.short_name(key)
        return (key, self.entries[key]) if key in self.entries else None

    def missing(self, role):
        """Why no benchmark plays `role` in this run; None when one does."""
        return roles.missing_reason(role, self.entries.values(), self.ctx)


# --- The metrics of a run ------------------------------------------------------------------------------
class InputError(Exception):
    pass


def parse_label(label):
    """'primary=a:lower,b:5% | note' -> ([(a, 'lower', 0), (b, 'value', 5.0)], 'note'); ([], label) if none
    (resultfile.declared's legacy path, for a label alone)."""
    try:
        primary, _, note = resultfile.declared({"label": label})
    except resultfile.LabelError as e:
        raise InputError(str(e))
    return primary, note


def label_method(label):
    """The method identifier in a label ('primary=... | method=3f2a9c1b7e40 | note'), or None."""
    try:
        return resultfile.declared({"label": label})[1]
    except resultfile.LabelError:
        return None


# Counters renamed since: a file written before is read under the new name, so the history
# carries over the rename. (l2_split_confidence is not here: it held robust separations until
# 2026-11-24 and a probability after, now l2_split_probability; another meaning, not a rename.)
RENAMED = {"inst_per_clk_per_sm": "thread_inst_per_clk_per_sm"}


class Metrics:
    """One result file as compare, nightly and the fleet model read it: its context, per benchmark
    (its key: resultfile.benchmark_key) the values of each primary metric (one per repetition), its
    declared primaries, and whether it declared them or fell back."""

    def __init__(self, path, context, values, primary, declared, errors, methods=None, method_source=None,
                 skips=None):
        self.path, self.context, self.values, self.primary = path, context, values, primary
        self.declared, self.errors = declared, errors
        self.skips = skips or set()  # benchmarks skipped as not for this GPU (resultfile.skip_reason)
        # {benchmark: method identifier or None (unknown)}; where they came from: "label" (the
        # file's own), "ledger" (its commit's entry), "assumed" (--legacy-methods=same), "unknown"
        self.methods = methods or {}
        self.method_source = method_source or "unknown"


# results/method-ledger.json beside this script's results/: legacy files' methods by commit.
DEFAULT_LEDGER = paths.in_root("results", "method-ledger.json", required=False)  # None: no checkout, no ledger
UNVERSIONED = "unversioned"  # --legacy-methods=same: a file without identifiers, taken as unchanged


def load_ledger(path):
    """{commit: {feature: method}} from a ledger file; {} when there is none."""
    if not path or not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            commits = json.load(f).get("commits", {})
    except (OSError, ValueError, UnicodeDecodeError, AttributeError) as e:
        raise InputError(f"{path}: not a method ledger ({e})")
    if not isinstance(commits, dict):
        raise InputError(f"{path}: not a method ledger (no 'commits' object)")
    return commits


def ledger_methods(ledger, sha):
    """The ledger's entry for a commit (its short or full sha), or None."""
    if not sha:
        return None
    for key, entry in ledger.items():
        if key.startswith(sha) or sha.startswith(key):
            return entry
    return None


def assign_methods(run, ledger, legacy="ledger"):
    """Fills run.methods for a file without identifiers of its own: from the ledger by its
    commit, else unknown (None), or with legacy='same' the one shared UNVERSIONED method."""
    if run.method_source == "label":
        return run
    entry = ledger_methods(ledger, str(run.context.get("archbench_git_sha", "")))
    if entry is not None:
        run.methods = {name: entry.get(resultfile.feature_of_name(name)) for name in run.values}
        run.method_source = "ledger"
    elif legacy == "same":
        run.methods = {name: UNVERSIONED for name in run.values}
        run.method_source = "assumed"
    else:
        run.methods = {name: None for name in run.values}
        run.method_source = "unknown"
    return run


_ledger_cache = {}


def default_ledger():
    if "ledger" not in _ledger_cache:
        _ledger_cache["ledger"] = load_ledger(DEFAULT_LEDGER)
    return _ledger_cache["ledger"]


def load_metrics(path, ledger=None, legacy="ledger"):
    """A result file (.json, or .json.gz as large runs are committed): scripts/resultfile.py.
    Its methods come from its labels, else from `ledger` (default: results/method-ledger.json)."""
    run = load_metrics_file(path)
    return assign_methods(run, default_ledger() if ledger is None else ledger, legacy)


def load_metrics_file(path):
    try:
        doc = resultfile.load(path)
    except resultfile.ResultError as e:
        raise InputError(str(e))
    context = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    values, primary, errors, methods, skips, declarations = {}, {}, set(), {}, set(), {}
    declared = 0
    has_ids = context.get("archbench_method_ids") == "label"
    for b in doc["benchmarks"]:
        if not isinstance(b, dict) or b.get("run_type") == "aggregate":
            continue
        name = b.get("run_name") or b.get("name")
        if not isinstance(name, str) or not name:
            continue
        name = resultfile.benchmark_key(name)
        if resultfile.skip_reason(b) is not None:  # not for this GPU: neither a failure nor a metric
            skips.add(name)
            continue
        if b.get("error_occurred"):
            errors.add(name)
            continue
        try:
            decl, method, _ = resultfile.declared(b)
        except resultfile.LabelError as e:
            raise InputError(f"{path}: {name}: {e}")
        if decl:
            declared += 1
        if has_ids:
            methods[name] = method
            declarations[name] = resultfile.declaration_text(decl) if decl else ""
        primary.setdefault(name, [(RENAMED.get(c, c), how, tol) for c, how, tol in decl or resultfile.legacy_primary(name)])
        entry = values.setdefault(name, {})
        old_name = {new: old for old, new in RENAMED.items()}
        for counter, _, _ in primary[name]:
            # The metric, the spread of the samples it is the median of (report_sampled), and its
            # range over CUDA contexts.
            for key in (counter, counter + resultfile.SAMPLE_SD_SUFFIX, counter + resultfile.SAMPLE_COUNT_SUFFIX,
                        counter + resultfile.CONTEXT_MIN_SUFFIX, counter + resultfile.CONTEXT_MAX_SUFFIX):
                v = b.get(key, b.get(key.replace(counter, old_name.get(counter, counter), 1)))
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    entry.setdefault(key, []).append(float(v))
        # A host copy's share of the link's peak: whether it is bound by the link or by per-copy costs.
        if isinstance(b.get(resultfile.LINK_SHARE_COUNTER), (int, float)) and math.isfinite(b[resultfile.LINK_SHARE_COUNTER]):
            entry.setdefault(resultfile.LINK_SHARE_COUNTER, []).append(float(b[resultfile.LINK_SHARE_COUNTER]))
    if has_ids:  # a build from before an "equivalent" entry: its ids as the tree declares them now
        methods = redeclared(context, methods, declarations)
    return Metrics(path, context, values, primary, declared, errors, methods, "label" if has_ids else None, skips)


def redeclared(context, methods, declarations):
    """The label ids of a file built before benchmarks/methods.json declared one of its feature
    digests the same method as another (method_digest.py owns the rule): a benchmark whose id is
    the one its build's digest gives takes the id the declared digest gives. Unchanged where the
    tree has no methods.json to read (a copied compare.py)."""
    try:
        from archbench_tools.results import method_digest
        since = method_digest.declared_since(context, method_digest.load_methods(method_digest.read_tree(
            method_digest.ROOT)))
    except Exception:
        return methods
    out = dict(methods)
    for name, written in methods.items():
        pair = since.get(resultfile.feature_of_name(name))
        if pair and name in declarations and written == method_digest.label_id(pair[0], declarations[name]):
            out[name] = method_digest.label_id(pair[1], declarations[name])
    return out


def load_history(sources, model, ledger=None, legacy="ledger"):
    """The runs of the history (files, or folders of *.json) of the same GPU model, oldest first
    by their context's date; others are skipped with a note."""
    files = []
    for p in sources:
        files += sorted(glob.glob(os.path.join(p, "*.json")) + glob.glob(os.path.join(p, "*.json.gz"))) \
            if os.path.isdir(p) else [p]
    runs, notes = [], []
    for f in files:
        try:
            r = load_metrics(f, ledger, legacy)
        except InputError as e:
            notes.append(f"history: skipped {e}")
            continue
        if r.context.get("archbench_fault"):
            notes.append(f"history: skipped {f}: a planted-fault run")
            continue
        if model and r.context.get("gpu_name") != model:
            notes.append(f"history: skipped {f}: GPU '{r.context.get('gpu_name')}' is not '{model}'")
            continue
        runs.append(r)
    runs.sort(key=lambda r: str(r.context.get("date", "")))
    return runs, notes

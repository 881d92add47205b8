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
"""
from archbench_tools.results import resultfile
from archbench_tools.results import roles


def number(ctx, key):
    """A positive number from the run's context, or None (absent, empty or not a number)."""
    try:
        v = float((ctx or {}).get(key, ""))
        return v if v > 0 else None
    except (TypeError, ValueError):
        return None


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
        self.path, self.doc, self.ctx = path, doc, doc["context"]
        self.sm_count = number(self.ctx, "gpu_sm_count")
        self.entries = {}
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" or not resultfile.measured(b):
                continue
            self.entries.setdefault(entry_key(b), b)
        self._families = {key: resultfile.family(b) for key, b in self.entries.items()}
        self._axes = {}

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
        if role is not None:
            hit = self.role(role)
            candidates = [hit] if hit else []
        else:
            candidates = self.entries.items()
        wanted = (family,) if isinstance(family, str) else tuple(family or ())
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

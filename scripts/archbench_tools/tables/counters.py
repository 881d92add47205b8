"""The suite's counters: the one catalogue of what each counter is (its meaning, by group), its
unit (from its name), what a better value of it is (direction), and which counters every benchmark
of a family must report. It is joined from benchmarks/counters.json (what no one feature owns) and
each feature's own file beside its registration (benchmarks/<source>.counters.json, found from its
row of benchmarks/features.json): a new counter is a row in its feature's file, no shared list.
validate_results.py and docs/output.md take them from here.

    counters.py --write-docs docs/output.md    rewrites the counter tables of docs/output.md
    counters.py --check-docs docs/output.md    exit 1 when a table there is not the catalogue's
    counters.py --uncatalogued FILE...         the counters a result file reports that the catalogue lacks
"""
import argparse
import json
import os
import re
import sys

from archbench_tools import paths
from archbench_tools.tables import features

CATALOGUE = paths.in_root("benchmarks", "counters.json", required=False)


class CatalogueError(Exception):
    pass

# A counter's unit is the end of its name (the suite's rule: names carry their unit). Longest first.
UNITS = [
    ("_bytes_per_second", "B/s"), ("bytes_per_second", "B/s"), ("_per_second", "1/s"), ("flops", "FLOP/s"),
    ("_bytes_per_clk_per_sm", "B/clk/SM"), ("_per_clk_per_sm", "1/clk/SM"), ("_bytes_per_clk_per_cluster", "B/clk/cluster"), ("_per_clk_per_cluster", "1/clk/cluster"),
    ("_per_clk", "1/clk"), ("_bytes", "B"), ("_cycles", "cycles"), ("_ns", "ns"), ("_us", "us"), ("_ms", "ms"),
    ("_s", "s"), ("_mhz", "MHz"), ("_pct", "%"), ("_w", "W"), ("_c", "degC"), ("_mj", "mJ"), ("_mbps", "Mbit/s"),
]


def load():
    """The catalogue: counters.json's groups ('every' first, then each feature's in the table's
    order, then the rest), its direction, required and renamed, each feature's file joined in.
    CatalogueError when two parts give one counter two directions or one family two lists."""
    with open(CATALOGUE or paths.in_root("benchmarks", "counters.json")) as f:
        shared = json.load(f)
    every = [g for g in shared["groups"] if g["group"] == "every"]
    rest = [g for g in shared["groups"] if g["group"] != "every"]
    own, direction, required = [], dict(shared["direction"]), dict(shared["required"])
    for row in features.rows():
        path = features.counters_file(row)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            part = json.load(f)
        own.append({"group": row["name"], "rows": part.get("rows", [])})
        for what, into in (("direction", direction), ("required", required)):
            for k, v in part.get(what, {}).items():
                if k in into and into[k] != v:
                    raise CatalogueError(f"{os.path.relpath(path, paths.root())}: {what} of '{k}' differs from "
                                         "another part of the catalogue")
                into[k] = v
    return {"groups": every + own + rest, "direction": direction, "required": required,
            "renamed": shared["renamed"]}


def groups():
    return load()["groups"]


def direction():
    """{counter: "higher" | "lower" | "value"} for every counter a benchmark may declare primary."""
    return load()["direction"]


def required():
    """{family or feature: [counters every such benchmark reports]}; "(every benchmark)" for all."""
    return load()["required"]


def renamed():
    """{current name: the name files written before it keep}."""
    return load()["renamed"]


def unit_of(name):
    """The unit a counter's name carries (pj_per_* in pJ per what follows), or None: a count, a
    flag or a ratio."""
    base = re.sub(r"\[\d+\]\[\d+\]$", "", name)  # P2P/matrix: NAME[i][j]
    if base.startswith("pj_per_"):
        return "pJ/" + base[len("pj_per_"):].split("_")[0]
    for suffix, unit in UNITS:
        if base.endswith(suffix) or base == suffix.lstrip("_"):
            return unit
    return None


def _token_regex(token, previous):
    """A documented name (with its placeholders) as a regular expression for real counter names."""
    if token.startswith("_") and previous:  # `_median_cycles`: the previous name, its last words replaced
        words = token.count("_")
        token = re.sub(r"(_[a-z0-9]+){%d}$" % words, "", previous) + token
    out = re.escape(token)
    out = re.sub(r"<[A-Za-z]+>", r"[A-Za-z0-9_]+", out)
    out = out.replace(r"\[i\]\[j\]", r"\[\d+\]\[\d+\]")
    out = out.replace(r"\*", r"[A-Za-z0-9_]*")
    out = re.sub(r"\\\{([^}]*)\\\}", lambda m: "(" + "|".join(m.group(1).split(",")) + ")", out)
    return token, out


def patterns():
    """[(group, compiled regex)] for every name the catalogue documents."""
    out = []
    for g in groups():
        for row in g["rows"]:
            previous = None
            for token in re.findall(r"`([^`]+)`", row["names"]):
                if not re.fullmatch(r"[A-Za-z0-9_<>*{},\[\]]+", token):
                    continue
                previous, rx = _token_regex(token, previous)
                out.append((g["group"], re.compile(rx)))
    return out


def is_derived(name):
    """The spread of a sampled counter (NAME_sd_pct, NAME_samples): documented once for all."""
    return name.endswith("_sd_pct") or name.endswith("_samples")


def uncatalogued(names, ps=None):
    """The names the catalogue does not document; `ps`: patterns(), where a caller checks many
    sets of names (compiling some 540 expressions each time cost 60 ms a benchmark)."""
    ps = patterns() if ps is None else ps
    return sorted(n for n in names if not is_derived(n) and not any(p.fullmatch(n) for _, p in ps))


# Benchmark entries' own fields (Google Benchmark's), not counters.
GB_FIELDS = {"family_index", "per_family_instance_index", "repetitions", "repetition_index", "threads",
             "iterations", "real_time", "cpu_time"}


def counters_of(doc):
    return {k for b in doc.get("benchmarks", []) for k, v in b.items()
            if k not in GB_FIELDS and isinstance(v, (int, float)) and not isinstance(v, bool)}


# --- docs/output.md ------------------------------------------------------------------------------

BEGIN = "<!-- counters: {} (written from the counter catalogue by scripts/counters.py --write-docs) -->"
END = "<!-- /counters -->"


def table(group):
    rows = next(g["rows"] for g in groups() if g["group"] == group)
    return "\n".join(["| Counter | Meaning |", "|---|---|"] + [f"| {r['names']} | {r['meaning']} |" for r in rows])


def write_docs(text):
    """The text with every marked table written from the catalogue."""
    def block(m):
        return BEGIN.format(m.group(1)) + "\n" + table(m.group(1)) + "\n" + END
    return re.sub(r"<!-- counters: (\S+) .*?-->\n.*?" + re.escape(END), block, text, flags=re.S)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-docs", metavar="FILE")
    ap.add_argument("--check-docs", metavar="FILE")
    ap.add_argument("--uncatalogued", nargs="+", metavar="FILE")
    args = ap.parse_args(argv)
    if args.write_docs or args.check_docs:
        path = args.write_docs or args.check_docs
        try:
            text = open(path).read()
        except OSError as e:
            print(f"counters.py: error: {e.strerror}: {path}", file=sys.stderr)
            return 2
        marked = set(re.findall(r"<!-- counters: (\S+) ", text))
        missing = [g["group"] for g in groups() if g["group"] not in marked]
        if missing:
            print(f"counters.py: error: {path} has no table of group(s) {', '.join(missing)}", file=sys.stderr)
            return 2
        new = write_docs(text)
        if args.write_docs:
            open(path, "w").write(new)
            return 0
        if new != text:
            print(f"{path}: its counter tables are not the catalogue's (scripts/counters.py --write-docs {path})")
            return 1
        return 0
    if args.uncatalogued:
        from archbench_tools.results import resultfile
        names = set()
        for path in args.uncatalogued:
            try:
                names |= counters_of(resultfile.load(path))
            except resultfile.ResultError as e:
                print(f"counters.py: error: {e}", file=sys.stderr)
                return 2
        missing = uncatalogued(names)
        for n in missing:
            print(n)
        print(f"{len(names)} counter name(s), {len(missing)} not in the catalogue")
        return 1 if missing else 0
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())

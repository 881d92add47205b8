"""Issue 66, step 1: a benchmark's family and sweep axes travel as data. Result files carry them as
each entry's "family" and "axes" fields beside the name (benchmarks/shell/incremental_json.cpp;
its C++ unit tests hold the writer); resultfile.family/family_parts/axes read those fields, and
read older files' names by the same rule. No other module takes a benchmark name apart."""
import os
import re

from archbench_tools.results import resultfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

LEGACY = {"name": "MemLatency/chain/ld.cg/footprint:4096/stride:128/iterations:3/manual_time",
          "run_name": "MemLatency/chain/ld.cg/footprint:4096/stride:128/iterations:3/manual_time"}
NEW = dict(LEGACY, family="MemLatency/chain/ld.cg", axes={"footprint": 4096, "stride": 128})


def test_fields_and_names_agree():
    for b in (LEGACY, NEW):
        assert resultfile.family(b) == "MemLatency/chain/ld.cg"
        assert resultfile.family_parts(b) == ["MemLatency", "chain", "ld.cg"]
        assert resultfile.feature(b) == "MemLatency"
        assert resultfile.axes(b) == {"footprint": "4096", "stride": "128"}  # as the name writes them


def test_the_fields_win_over_the_name():
    b = dict(LEGACY, family="Other/family", axes={"box": "64x64", "swizzle": 128})
    assert resultfile.family(b) == "Other/family"
    assert resultfile.axes(b) == {"box": "64x64", "swizzle": "128"}


def test_older_names_lose_what_google_benchmark_appends():
    agg = {"name": "Launch/end_to_end/path:driver/iterations:1/repeats:3/manual_time_median"}
    assert resultfile.family(agg) == "Launch/end_to_end"
    assert resultfile.axes(agg) == {"path": "driver"}
    assert resultfile.family_of_name("AsyncCopy/tma/L2/box:64x64/swizzle:128") == "AsyncCopy/tma/L2"
    assert resultfile.feature_of_name("Tlb/latency/ld.cg/mapping:managed") == "Tlb"


def test_no_module_takes_a_name_apart():
    """Splitting a benchmark's name is resultfile's alone (one owner of the naming rule)."""
    offenders = lines_outside_resultfile(r"""\[["']name["']\]\.split\(|name_fields\(|\bname\.split\(["']/["']\)""")
    assert not offenders, "\n".join(offenders)


def lines_outside_resultfile(pattern, owners=("resultfile.py",)):
    """The lines of the tools' modules, the owners in results/ aside, that match `pattern`."""
    rx, offenders = re.compile(pattern), []
    skip = {os.path.join("results", f) for f in owners}
    for dirpath, _, files in os.walk(os.path.join(ROOT, "scripts", "archbench_tools")):
        for f in files:
            path = os.path.join(dirpath, f)
            if not f.endswith(".py") or any(path.endswith(s) for s in skip):
                continue
            for i, line in enumerate(open(path, encoding="utf-8"), 1):
                if rx.search(line):
                    offenders.append(f"{os.path.relpath(path, ROOT)}:{i}: {line.strip()}")
    return offenders


def test_fields_that_disagree_with_the_name_are_caught():
    good = dict(NEW)
    assert resultfile.fields_match_name(good)
    assert not resultfile.fields_match_name(dict(good, name="Bogus/x"))
    assert not resultfile.fields_match_name(dict(good, axes={"footprint": 8192, "stride": 128}))


# A benchmark's declarations travel as data too (issue 86, step 2): "primary", "method" and "note"
# beside its label; resultfile.declared reads them, and the label of an older file.
LABELLED = {"name": "Geometry/l1/capacity/carveout:0",
            "label": "primary=capacity_bytes:5%,hit_cycles:lower | method=3f2a9c1b7e40 | onset | at 240 KiB"}
FIELDED = dict(LABELLED, primary=[{"counter": "capacity_bytes", "how": "value", "tolerance_pct": 5.0},
                                  {"counter": "hit_cycles", "how": "lower"}],
               method="3f2a9c1b7e40", note="onset | at 240 KiB")


def test_declarations_from_fields_and_from_labels_agree():
    want = ([("capacity_bytes", "value", 5.0), ("hit_cycles", "lower", 0.0)], "3f2a9c1b7e40", "onset | at 240 KiB")
    assert resultfile.declared(LABELLED) == want == resultfile.declared(FIELDED)
    assert resultfile.declaration_text(want[0]) == "primary=capacity_bytes:5%,hit_cycles:lower"
    # the fields win: a tool never reads the label of an entry that has them
    assert resultfile.declared(dict(FIELDED, label="primary=other:higher"))[0] == want[0]
    assert resultfile.declared({"label": "a note alone"}) == ([], None, "a note alone")
    assert resultfile.label_note(FIELDED) == "onset; at 240 KiB"


def test_no_module_reads_a_label_but_resultfile():
    """Reading a label's declarations is resultfile.declared's alone (its legacy path)."""
    offenders = lines_outside_resultfile(r"""startswith\(["']primary=|["']method=|label["']?\)?\.(split|partition)\(["'] \| """)
    assert not offenders, "\n".join(offenders)


# One run model (issue 86, step 3): a tool picks benchmarks with results/run.py's select (family,
# axes, role) and reads a name's parts through resultfile; no module but these owners holds a
# pattern over benchmark names. 69 such patterns in 13 modules before the run model (by this rule, at 9a3f88d), 0 after.
def _features():
    import json
    with open(os.path.join(ROOT, "benchmarks", "features.json"), encoding="utf-8") as f:
        return "|".join(row["name"] for row in json.load(f)["features"])


NAME_PATTERNS = "|".join([
    r"""\b(?:rf?|fr)["']\^?(?:{f})/""",                          # a regex over names: r"^Bandwidth/..."
    r"""(?:starts|ends)with\(\s*f?["'](?:{f})/""",                # a name's prefix: .startswith("Tlb/...")
    r"""\b(?:rf?|fr)["'][^"'\n]*/\(?[a-z_][a-z_0-9]+\)?:[(\\\[]""",           # an axis read from a name: r"/footprint:(\d+)"
    r"""["'][^"'\n]*[:/]["']\s+(?:not\s+)?in\s+[\w.\[\]"']*name\b""",  # "/width:4/" in b["name"]
])


def test_no_module_but_the_run_model_holds_a_name_pattern():
    pattern = NAME_PATTERNS.replace("{f}", _features())
    offenders = lines_outside_resultfile(pattern, owners=("resultfile.py", "run.py", "roles.py"))
    assert not offenders, "select benchmarks with results/run.py (family, axes, role):\n" + "\n".join(offenders)


def test_the_guard_sees_the_patterns_it_is_for():
    pattern = re.compile(NAME_PATTERNS.replace("{f}", _features()))
    for line in ('hit = run.best(r"^Pipeline/throughput/dfma/", "results_per_clk_per_sm")',
                 'if b["name"].startswith("Tlb/geometry"):',
                 'm = re.search(r"/footprint:(\\d+)/", name)',
                 'plain_4b = sum(1 for b in plain if "/width:4/" in b["name"])',
                 'rx = rf"^Pipeline/latency/{op}$"',
                 '_AXES = (re.compile(r"/(footprint):(\\d+)"), re.compile(r"/(stride):(\\d+)"))'):
        assert pattern.search(line), line
    for line in ('run.select(family="Bandwidth/write", where=_level(2))',
                 'entry("latency_cycles", family=f"Pipeline/latency/{op}")',
                 'elif text.startswith("//", i):'):
        assert not pattern.search(line), line

"""benchmarks/counters.json, the one catalogue of counters, against what it describes: the counters
the fixture runs report, the primary metrics they declare, the validator's required lists, each
counter's unit, and docs/output.md's tables."""
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.tables import counters  # noqa: E402
from archbench_tools.results import resultfile  # noqa: E402

FIXTURES = sorted(glob.glob(os.path.join(HERE, "..", "data", "*.json")))


def fixture_docs():
    for path in FIXTURES:
        try:
            yield path, resultfile.load(path)
        except resultfile.ResultError:
            continue  # not a run (a reference table, a side file)


def test_every_counter_the_runs_report_is_catalogued():
    names = set()
    for _, doc in fixture_docs():
        names |= counters.counters_of(doc)
    assert len(names) > 300
    assert counters.uncatalogued(names) == []


def test_every_declared_primary_metric_has_the_catalogues_direction():
    seen = 0
    for path, doc in fixture_docs():
        for b in doc["benchmarks"]:
            label = b.get("label", "")
            if not isinstance(label, str) or not label.startswith("primary="):
                continue
            for item in label.split(" | ", 1)[0][len("primary="):].split(","):
                counter, _, how = item.rpartition(":")
                want = "value" if how.endswith("%") else how
                assert counters.direction().get(counter) == want, (os.path.basename(path), b["name"], item)
                seen += 1
    assert seen > 100


def test_directions_and_required_counters_name_catalogued_counters():
    for name in counters.direction():
        assert not counters.uncatalogued([name]), name
    assert set(counters.direction().values()) <= {"higher", "lower", "value"}
    for family, names in counters.required().items():
        assert not counters.uncatalogued(names), family


def test_a_counter_the_catalogue_lacks_fails_validation(tmp_path):
    """A new counter needs its row: validate_results.py names the one the catalogue lacks."""
    doc = json.load(open(os.path.join(HERE, "..", "data", "h100_declared.json")))
    doc["benchmarks"][0]["new_thing_cycles"] = 1.0
    p = tmp_path / "run.json"
    p.write_text(json.dumps(doc))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "validate_results.py"), str(p)],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "counter 'new_thing_cycles' is not in the catalogue" in r.stdout


def test_names_carry_their_units():
    assert counters.unit_of("latency_cycles") == "cycles"
    assert counters.unit_of("bytes_per_second") == "B/s"
    assert counters.unit_of("read_bytes_per_second[0][1]") == "B/s"
    assert counters.unit_of("bytes_per_clk_per_sm") == "B/clk/SM"
    assert counters.unit_of("pj_per_flop_with_static") == "pJ/flop"
    assert counters.unit_of("sm_clock_mhz") == "MHz" and counters.unit_of("power_w") == "W"
    assert counters.unit_of("banks") is None  # a count


def test_docs_output_tables_are_the_catalogues(tmp_path):
    """docs/output.md's counter tables are written from the catalogue: a hand edit fails here."""
    script = os.path.join(ROOT, "scripts", "counters.py")
    doc = os.path.join(ROOT, "docs", "output.md")
    assert subprocess.run([sys.executable, script, "--check-docs", doc]).returncode == 0
    edited = tmp_path / "output.md"
    edited.write_text(re.sub(r"\| `latency_cycles`, `latency_ns` \|", "| `latency_cycles` |", open(doc).read(), count=1))
    r = subprocess.run([sys.executable, script, "--check-docs", str(edited)], capture_output=True, text=True)
    assert r.returncode == 1 and "not the catalogue's" in r.stdout
    r = subprocess.run([sys.executable, script, "--check-docs", str(tmp_path / "none.md")], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_each_feature_s_counters_sit_in_its_own_file():
    """Issue 66: a feature's counters are its own file beside its registration (found from its
    row); counters.json keeps what no one feature owns."""
    from archbench_tools.tables import features
    shared = json.load(open(counters.CATALOGUE))
    assert {g["group"] for g in shared["groups"]} <= {"every", "hw", "retired"}
    assert set(shared["required"]) == {"(every benchmark)"}
    for row in features.rows():
        path = features.counters_file(row)
        assert os.path.isfile(path), f"{row['name']}: no {os.path.relpath(path, ROOT)}"
        part = json.load(open(path))
        assert all(k.split("/")[0] == row["name"] for k in part.get("required", {})), row["name"]
    assert [g["group"] for g in counters.groups()][:2] == ["every", features.rows()[0]["name"]]


def test_the_committed_baselines_counters_stay_catalogued():
    """A counter renamed or retired keeps its row (the 'retired' group): the committed baselines,
    written before, still validate against the catalogue."""
    baselines = sorted(glob.glob(os.path.join(ROOT, "results", "*", "regression", "*.json.gz")))
    assert baselines
    for path in baselines:
        names = counters.counters_of(resultfile.load(path))
        assert counters.uncatalogued(names) == [], os.path.relpath(path, ROOT)

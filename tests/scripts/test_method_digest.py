"""method_digest.py: a feature's method digest follows its kernels' code and declared versions,
not their comments or layout; the ledger of legacy commits; bad input (pytest)."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.results import method_digest  # noqa: E402


def tree(tmp_path):
    """A copy of what the digests read: the feature table, kernels/, analysis/ and the harness."""
    for d in ("kernels", "analysis"):
        shutil.copytree(os.path.join(ROOT, d), tmp_path / d)
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "fixtures" / "harness").mkdir(parents=True)
    for table in ("methods.json", "features.json"):
        shutil.copy(os.path.join(ROOT, "benchmarks", table), tmp_path / "benchmarks")
    shutil.copy(os.path.join(ROOT, "fixtures", "harness", "timing.cu"), tmp_path / "fixtures" / "harness")
    return tmp_path


def digests(root):
    read = method_digest.read_tree(str(root))
    return method_digest.feature_digests(method_digest.load_methods(read), read)


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_comments_and_layout_do_not_change_a_method(tmp_path):
    root = tree(tmp_path)
    before = digests(root)
    cuh = root / "kernels" / "bandwidth.cuh"
    edit(cuh, "enum class Kind { read, write, copy, rmw };",
         "// a new comment\n/* and a block\n   comment */\nenum class Kind {\n  read, write, copy, rmw\n};")
    assert digests(root) == before


def test_a_kernel_instruction_changes_its_features_methods_and_no_other(tmp_path):
    root = tree(tmp_path)
    before = digests(root)
    # The cache operator of the default-ld load: another instruction in the PTX string.
    edit(root / "kernels" / "bandwidth.cuh", 'ARCHBENCH_BW_LOAD(LdCa, ".ca");', 'ARCHBENCH_BW_LOAD(LdCa, ".cg");')
    after = digests(root)
    changed = {f for f in before if before[f] != after[f]}
    assert changed == {"Bandwidth", "Geometry", "P2P", "HostLink", "Energy"}  # the features that time bandwidth.cu


def test_a_move_keeps_every_method_and_an_instruction_still_changes_its_own(tmp_path):
    root = tree(tmp_path)
    before = digests(root)
    # kernels/bandwidth.cu and .cuh to kernels/bandwidth/, every include and the feature table following
    (root / "kernels" / "bandwidth").mkdir()
    for name in ("bandwidth.cu", "bandwidth.cuh"):
        (root / "kernels" / name).rename(root / "kernels" / "bandwidth" / name)
    for f in list(root.rglob("*.cu")) + list(root.rglob("*.cuh")) + list(root.rglob("*.hpp")):
        text = f.read_text()
        moved = text.replace('"kernels/bandwidth.cuh"', '"kernels/bandwidth/bandwidth.cuh"')
        if moved != text:
            f.write_text(moved)
    table = root / "benchmarks" / "features.json"
    table.write_text(table.read_text().replace('"kernels/bandwidth.cu"', '"kernels/bandwidth/bandwidth.cu"'))
    assert digests(root) == before
    edit(root / "kernels" / "bandwidth" / "bandwidth.cuh", 'ARCHBENCH_BW_LOAD(LdCa, ".ca");',
         'ARCHBENCH_BW_LOAD(LdCa, ".cg");')
    after = digests(root)
    assert {f for f in before if before[f] != after[f]} == {"Bandwidth", "Geometry", "P2P", "HostLink", "Energy"}


def test_a_header_the_kernels_include_counts(tmp_path):
    root = tree(tmp_path)
    before = digests(root)
    edit(root / "kernels" / "clock.cuh", "#pragma once", "#pragma once\n__device__ int archbench_probe_marker;")
    after = digests(root)
    assert all(before[f] != after[f] for f in before), "the harness's clock is in every feature"


def test_a_declared_version_changes_only_its_feature(tmp_path):
    root = tree(tmp_path)
    before = digests(root)
    t = root / "benchmarks" / "features.json"
    table = json.loads(t.read_text())
    next(r for r in table["features"] if r["name"] == "Sync")["method"]["version"] += 1
    t.write_text(json.dumps(table))
    after = digests(root)
    assert {f for f in before if before[f] != after[f]} == {"Sync"}
    p = root / "benchmarks" / "methods.json"
    m = json.loads(p.read_text())
    m["harness"]["version"] += 1
    p.write_text(json.dumps(m))
    assert all(v != before[f] for f, v in digests(root).items())


def test_a_change_declared_the_same_method_keeps_its_digest(tmp_path):
    # A refactor of a kernel file (its SASS identical) moves the digest; declared equivalent, the
    # feature keeps the digest before it, and a later real change gets a new one.
    root = tree(tmp_path)
    before = digests(root)
    edit(root / "kernels" / "smem.cu", "namespace archbench {", "namespace archbench {\nusing archbench_refactor_marker = int;")
    moved = digests(root)
    assert moved["Dsm"] != before["Dsm"]
    p = root / "benchmarks" / "methods.json"
    m = json.loads(p.read_text())
    m["equivalent"]["Dsm"] = [{"digest": moved["Dsm"], "same_as": before["Dsm"], "why": "SASS identical (test)"}]
    p.write_text(json.dumps(m))
    assert digests(root)["Dsm"] == before["Dsm"]
    edit(root / "kernels" / "smem.cu", "using archbench_refactor_marker = int;", "using archbench_refactor_marker = long;")
    assert digests(root)["Dsm"] not in (before["Dsm"], moved["Dsm"])
    # An entry without its reason, or for a feature that does not exist, is refused.
    for bad in ({"Dsm": [{"digest": moved["Dsm"], "same_as": before["Dsm"]}]},
                {"Nope": [{"digest": moved["Dsm"], "same_as": before["Dsm"], "why": "x"}]}):
        m["equivalent"] = bad
        p.write_text(json.dumps(m))
        try:
            digests(root)
            assert False, f"accepted {bad}"
        except method_digest.MethodError as e:
            assert "equivalent" in str(e)


def test_strings_keep_what_looks_like_comments():
    assert method_digest.normalize('asm("ld.global.ca.u32 %0, [%1]; // x");  // y') == \
        'asm("ld.global.ca.u32 %0, [%1]; // x");'
    assert method_digest.normalize("a /* b */ c\n\n  d") == "a c d"


def test_the_build_table_and_bad_input(tmp_path):
    out = tmp_path / "ids.cpp"
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "method_digest.py"), "--emit-cpp", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    for row in json.load(open(os.path.join(ROOT, "benchmarks", "features.json")))["features"]:
        name = row["name"]
        assert f'{{"{name}", "' in text
    root = tree(tmp_path / "t")
    (root / "benchmarks" / "methods.json").write_text("{not json")
    try:
        method_digest.load_methods(method_digest.read_tree(str(root)))
        assert False, "malformed methods.json accepted"
    except method_digest.MethodError as e:
        assert "malformed" in str(e)


def test_the_committed_ledger_covers_the_committed_legacy_results():
    ledger = json.load(open(os.path.join(ROOT, "results", "method-ledger.json")))["commits"]
    # The Bandwidth rework: the L1 curve's drop lies between these two commits' kernels.
    assert ledger["622351be8bdc"]["Bandwidth"] != ledger["0f1f688cfda0"]["Bandwidth"]
    assert ledger["622351be8bdc"]["Bandwidth"] == ledger["43288776be77"]["Bandwidth"]
    assert all(v is None or v.startswith("legacy-") for e in ledger.values() for v in e.values())


def guard(*args):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "guard.py"), *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def test_guard_names_the_features_a_change_affects_and_refuses_bad_input(tmp_path):
    # Against the commit before the Bandwidth fix and the identifiers: Bandwidth's kernels changed,
    # and with them every feature that times them; a kernel the change left alone is not named.
    code, out = guard("--list", "--base", "7858ba8")
    if "not a commit of this repository" in out:  # a shallow clone without that commit
        return
    assert code == 0, out
    named = out.splitlines()[0].split(": ", 2)[2].split(", ")
    # (Which features a later change also touched moves with the tree: MemLatency's registration
    # changed at cc9ec94, so no feature is asserted absent here.)
    assert {"Bandwidth", "Geometry", "HostLink", "P2P"} <= set(named), out
    code, out = guard("--list", "--base", "no-such-commit")
    assert code == 2 and out.strip().startswith("guard.py: error:") and len(out.strip().splitlines()) == 1, out
    code, out = guard("--features", "Bandwidth", "--base", "HEAD", "--binary", str(tmp_path / "none"))
    assert code == 2 and "not an executable archbench" in out, out

"""The tracked results/ stays small, and every run the docs cite is reachable: in the tree, or in
the results archive (git history, results/archive.json) and restored by one command (pytest)."""
import fnmatch
import hashlib
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from archbench_tools.results import results_archive  # noqa: E402

TRACKED_LIMIT_BYTES = 8 * 1000 * 1000  # the house issue's bound: baselines, models, references, pictures
ARCHIVE = os.path.join(ROOT, "scripts", "results_archive.py")


def tracked_results():
    r = subprocess.run(["git", "-C", ROOT, "ls-files", "results"], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout.strip():
        return [p for p in r.stdout.split("\n") if p and os.path.exists(os.path.join(ROOT, p))]
    return [os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(os.path.join(ROOT, "results")) for f in fs]


def test_the_tracked_results_fit():
    size = sum(os.path.getsize(os.path.join(ROOT, p)) for p in tracked_results())
    assert size <= TRACKED_LIMIT_BYTES, f"results/ holds {size / 1e6:.2f} MB: archive runs (docs/results.md)"


def expand_braces(text):
    """{a,b} alternatives and N..M ranges, as the docs write a set of runs."""
    text = re.sub(r"(\d+)\.\.(\d+)", lambda m: "{" + ",".join(map(str, range(int(m[1]), int(m[2]) + 1))) + "}", text)
    m = re.search(r"\{([^{}]*)\}", text)
    if not m:
        return [text]
    return [x for alt in m.group(1).split(",") for x in expand_braces(text[:m.start()] + alt + text[m.end():])]


CITED = re.compile(r"results/[A-Za-z0-9_.*{},/-]+\.(?:json\.gz|json\.xz|json|tgz|csv\.gz|csv|txt|md|png|svg|log\.xz|log)")


def cited_paths():
    docs = [os.path.join(ROOT, "README.md")] + [os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                                                if f.endswith(".md")]
    out = set()
    for d in docs:
        for m in CITED.finditer(open(d).read()):
            out.update((os.path.relpath(d, ROOT), p) for p in expand_braces(m.group(0)))
    return sorted(out)


def test_every_cited_result_is_in_the_tree_or_the_archive():
    archived = [e["path"] for e in results_archive.load_index()["files"]]
    tree = tracked_results()
    cited = cited_paths()
    assert len(cited) > 20, cited  # the docs cite runs; a pattern that finds none tests nothing
    missing = [(doc, p) for doc, p in cited if "<" not in p and not any(fnmatch.fnmatchcase(x, p) for x in tree + archived)]
    assert not missing, missing


def test_the_archive_index_is_whole_and_apart_from_the_tree():
    doc = results_archive.load_index()
    tree = set(tracked_results())
    assert len(doc["files"]) > 100
    for e in doc["files"]:
        assert set(e) >= {"path", "bytes", "sha256", "blob", "commit"}, e
        assert e["path"].startswith("results/") and e["path"] not in tree, e["path"]
        assert re.fullmatch(r"[0-9a-f]{40}", e["blob"]) and re.fullmatch(r"[0-9a-f]{40}", e["commit"]), e


def test_a_run_restores_from_git_history_checked(tmp_path):
    entries = results_archive.select(results_archive.load_index()["files"],
                                     ["results/nvidia-h200/regression/*-compare.txt"])
    small = sorted(entries, key=lambda e: e["bytes"])[:2]
    try:
        paths = results_archive.restore(small, str(tmp_path))
    except results_archive.ArchiveError as e:
        if "not in this clone" in str(e):
            pytest.skip(str(e))
        raise
    for e, p in zip(small, paths):
        assert p == os.path.join(str(tmp_path), e["path"])
        assert hashlib.sha256(open(p, "rb").read()).hexdigest() == e["sha256"]
    # Twice is a no-op; a changed file is written again.
    open(paths[0], "w").write("x")
    results_archive.restore(small, str(tmp_path))
    assert hashlib.sha256(open(paths[0], "rb").read()).hexdigest() == small[0]["sha256"]


def run_archive(*args):
    r = subprocess.run([sys.executable, ARCHIVE, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    code, out, err = run_archive("restore", "results/no-such-gpu/*.json", "--to", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "no archived file matches" in err, err
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run_archive("restore", "results/nvidia-h200/regression/*-compare.txt", "--to", str(blocker))
    assert code == 2 and err.count("\n") == 1 and "not a directory" in err, err
    code, out, err = run_archive("add", "/etc/hostname")
    assert code == 2 and "not a file under the repository's results/" in err, err
    code, out, err = run_archive("list", "results/nvidia-h200/regression/*.json.gz")
    assert code == 0 and len(out.splitlines()) >= 10, out

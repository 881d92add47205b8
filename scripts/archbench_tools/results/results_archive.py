#!/usr/bin/env python3
"""The results archive: result files that left the tree and stay one command away in git history.

The tracked results/ holds what a user and the tests need (per GPU model the baseline, the fleet
model, the reference data, the method ledger and the pictures the docs show; docs/results.md).
Every other run committed here lives in the repository's history: results/archive.json lists each
file with the commit that holds it, its git blob and its SHA-256, so any full clone restores it.

Usage:
    results_archive.py list [GLOB ...]                   what the archive holds (path, bytes, commit)
    results_archive.py restore [GLOB ...] [--to DIR]     the files, checked, under DIR/<their path>
    results_archive.py add PATH ...                      move committed files out of the tree into it

GLOB matches the path as the docs cite it (results/nvidia-h200/regression/*.json.gz); none means
every file. DIR defaults to $ARCHBENCH_ARCHIVE_DIR, else ~/.cache/archbench/archive: outside the
repository, so a device call never carries it. A restored results/<gpu> folder is a folder of runs
for compare.py --history, nightly.py and fleet_model.py.

`add` takes files that are committed and unchanged, records the commit that holds them and
removes them from the tree (git rm); commit the result. Exit codes: 0 done, 2 bad input (a glob
that matches nothing, a shallow clone without the commit, a file not committed).
"""
import argparse
import fnmatch
import hashlib
import json
import os
import subprocess
import sys

from archbench_tools import paths

ROOT = paths.root(required=False)  # main() requires it: the archive is the checkout's git history
INDEX = os.path.join(ROOT, "results", "archive.json") if ROOT else None
ABOUT = ("Result files that left the tree (docs/results.md). Each stays in the commit named beside it: "
         "scripts/results_archive.py restore [GLOB] brings it back, checked against its SHA-256.")


class ArchiveError(Exception):
    pass


def default_dir():
    return os.environ.get("ARCHBENCH_ARCHIVE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "archbench",
                                                                   "archive")


def load_index(path=INDEX):
    if not os.path.exists(path):
        return {"about": ABOUT, "files": []}
    try:
        with open(path) as f:
            doc = json.load(f)
    except ValueError as e:
        raise ArchiveError(f"{path}: not valid JSON: {e}")
    if not isinstance(doc.get("files"), list):
        raise ArchiveError(f"{path}: no 'files' list")
    return doc


def save_index(doc, path=INDEX):
    """One entry a line: small, and a diff shows the files that moved."""
    doc["files"].sort(key=lambda e: e["path"])
    head = {k: v for k, v in doc.items() if k != "files"}
    lines = [json.dumps(e, separators=(",", ":")) for e in doc["files"]]
    with open(path, "w") as f:
        f.write(json.dumps(head)[:-1] + ', "files": [\n' + ",\n".join(lines) + "\n]}\n")


def select(entries, globs):
    """The entries whose path matches any glob (every entry without globs); a glob that matches
    nothing is bad input."""
    if not globs:
        return list(entries)
    chosen = []
    for g in globs:
        hit = [e for e in entries if fnmatch.fnmatchcase(e["path"], g) or fnmatch.fnmatchcase(e["path"], g.rstrip("/") + "/*")]
        if not hit:
            raise ArchiveError(f"{g}: no archived file matches")
        chosen += [e for e in hit if e not in chosen]
    return chosen


def _git(*args, data=False):
    r = subprocess.run(["git", "-C", ROOT, *args], capture_output=True)
    if r.returncode != 0:
        raise ArchiveError(f"git {' '.join(args)}: {r.stderr.decode(errors='replace').strip().splitlines()[-1:] or ''}")
    return r.stdout if data else r.stdout.decode().strip()


def blob_bytes(entry):
    """The archived file's bytes, from git's object store; checked against the recorded SHA-256."""
    try:
        data = _git("cat-file", "blob", entry["blob"], data=True)
    except FileNotFoundError:
        raise ArchiveError("git is not installed: the archive lives in git's history")
    except ArchiveError as e:
        if "dubious ownership" in str(e) or "safe.directory" in str(e):
            # git refuses a checkout another user owns: its own words, not a shallow clone's
            raise ArchiveError(f"git refuses this checkout, which another user owns (dubious ownership): run as its "
                               f"owner, or `git config --global --add safe.directory {ROOT}`")
        raise ArchiveError(f"{entry['path']}: its blob {entry['blob'][:12]} (commit {entry['commit'][:12]}) is not in "
                           "this clone (a shallow clone? `git fetch --unshallow` brings the history)")
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise ArchiveError(f"{entry['path']}: the bytes in git do not match the recorded SHA-256")
    return data


def restore(entries, dest):
    """Writes each entry under dest/<its path> (skipping one already there with the right bytes);
    returns the paths written or found."""
    out = []
    for e in entries:
        target = os.path.join(dest, e["path"])
        if os.path.exists(target):
            with open(target, "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() == e["sha256"]:
                    out.append(target)
                    continue
        data = blob_bytes(e)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = target + ".part"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
        out.append(target)
    return out


def add(paths, doc):
    """Moves committed, unchanged files into the archive: records HEAD's blob of each and removes
    it from the tree."""
    head = _git("rev-parse", "HEAD")
    added = []
    for p in paths:
        rel = os.path.relpath(os.path.abspath(p), ROOT)
        if rel.startswith("..") or not rel.startswith("results" + os.sep):
            raise ArchiveError(f"{p}: not a file under the repository's results/")
        if _git("status", "--porcelain", "--", rel):
            raise ArchiveError(f"{p}: not committed as it is (commit it first, then archive it)")
        try:
            blob = _git("rev-parse", f"HEAD:{rel}")
        except ArchiveError:
            raise ArchiveError(f"{p}: not tracked by git")
        with open(os.path.join(ROOT, rel), "rb") as f:
            data = f.read()
        doc["files"] = [e for e in doc["files"] if e["path"] != rel]
        doc["files"].append({"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                             "blob": blob, "commit": head})
        added.append(rel)
    if added:
        _git("rm", "-q", "--", *added)
    return added


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    p = sub.add_parser("list", help="what the archive holds")
    p.add_argument("globs", nargs="*")
    p = sub.add_parser("restore", help="bring archived files back, checked")
    p.add_argument("globs", nargs="*")
    p.add_argument("--to", default=None, help="where (default $ARCHBENCH_ARCHIVE_DIR or ~/.cache/archbench/archive)")
    p = sub.add_parser("add", help="move committed files out of the tree into the archive")
    p.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    paths.checkout()  # this tool works on a checkout's git tree: outside one, one line and exit 2
    try:
        doc = load_index()
        if args.verb == "list":
            for e in select(doc["files"], args.globs):
                print(f"{e['bytes']:>10}  {e['commit'][:12]}  {e['path']}")
        elif args.verb == "restore":
            dest = os.path.abspath(args.to or default_dir())
            if os.path.exists(dest) and not os.path.isdir(dest):
                raise ArchiveError(f"{dest}: not a directory")
            try:
                written = restore(select(doc["files"], args.globs), dest)
            except OSError as e:
                raise ArchiveError(f"{dest}: cannot write: {e.strerror or e}")
            print(f"{len(written)} file(s) under {dest}")
        else:
            added = add(args.paths, doc)
            save_index(doc)
            print(f"{len(added)} file(s) archived; commit results/archive.json and the removals")
    except ArchiveError as e:
        print(f"results_archive.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

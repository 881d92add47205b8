#!/usr/bin/env python3
"""Method identifiers: what defines each feature's numbers, as a digest (docs/regression.md).

A feature's method is its kernels' code (each feature's row in benchmarks/features.json names the sources; their
includes under kernels/ and analysis/ count too), the harness's kernels, and two declared
versions: the feature's host side (launch shape, timing and aggregation rule, counter meanings)
and the harness's. Comments and white space do not count; any other change to the code does.
Each benchmark's identifier is this feature digest with its primary declaration, made at run time
(fixtures/harness/method_ids.hpp); this script is the one place the feature digest is computed.

    method_digest.py --emit-cpp OUT.cpp          the build's table (CMake runs it)
    method_digest.py --ledger results/ [--out F] digests of the commits that wrote legacy result
                                                 files (no identifiers), from git: compare.py reads
                                                 results/method-ledger.json
    method_digest.py --show                      this checkout's digests
    method_digest.py --declare-same REV          the "equivalent" entries that keep REV's identifiers
                                                 for a change whose SASS is identical
"""
import argparse
import glob
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

from archbench_tools import paths

ROOT = paths.root(required=False)  # main() requires it: the digests are of the checkout's tree
METHODS_JSON = "benchmarks/methods.json"
FEATURES_JSON = "benchmarks/features.json"
LEDGER = "results/method-ledger.json"
_INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:kernels|analysis)/[^"]+)"', re.M)


class MethodError(Exception):
    pass


def normalize(text):
    """The code's tokens without comments and white space runs: a comment-only or layout-only
    change leaves it unchanged. String and character literals are kept whole (PTX in asm
    strings is code)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return " ".join("".join(out).split())


def closure(paths, read, strict=True):
    """The sources and, transitively, the headers they include from kernels/ and analysis/.
    Not strict (a legacy commit): a named source that the commit did not have is left out."""
    seen, todo = [], list(paths)
    while todo:
        p = todo.pop(0)
        if p in seen:
            continue
        text = read(p)
        if text is None:
            if p in paths and strict:
                raise MethodError(f"{p}: no such source")
            continue
        seen.append(p)
        todo += [inc for inc in _INCLUDE.findall(text) if inc not in seen]
    return sorted(seen)


def digest_sources(paths, read, strict=True):
    """The digest of the sources and the headers they include: each file's code without its
    comments, layout and project include lines, in an order of the code alone. Where a file lives
    and what it is called do not count (a move leaves every digest as it was); the code of every
    file does, included ones too (issue 66)."""
    files = closure(paths, read, strict)
    if not files:
        raise MethodError(f"none of {', '.join(paths)} exists")
    parts = sorted(hashlib.sha256(normalize(_INCLUDE.sub("", read(p))).encode()).hexdigest() for p in files)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def feature_digests(methods, read, versions=True):
    """{feature: digest}: its kernels, the harness's kernels, and (with versions) the declared
    host-side versions of both."""
    harness = methods["harness"]
    try:
        harness_part = digest_sources(harness["kernels"], read, strict=versions)
    except MethodError:
        if versions:
            raise
        harness_part = "none"  # a legacy commit before the harness's kernels had these files
    out = {}
    for name, f in methods["features"].items():
        h = hashlib.sha256()
        h.update(f"{name}\0{digest_sources(f['kernels'], read, strict=versions)}\0{harness_part}\0".encode())
        if versions:
            h.update(f"host {f['version']}\0harness {harness['version']}\0".encode())
            out[name] = same_method(methods, name, h.hexdigest()[:16])
        else:
            out[name] = h.hexdigest()[:16]
    return out


def same_method(methods, feature, digest):
    """The digest `digest` stands for: a change that left the feature's method as it was (a file
    moved, an include renamed, formatting: its SASS identical, scripts/sass_diff.py) is declared in
    methods.json's "equivalent" table as the same method as the digest before it, so the
    identifiers, and every history, carry on. Followed until a digest has no entry."""
    table = methods.get("equivalent", {}).get(feature, [])
    seen = {digest}
    while True:
        nxt = next((e["same_as"] for e in table if e["digest"] == digest), None)
        if nxt is None or nxt in seen:
            return digest
        seen.add(nxt)
        digest = nxt


def label_id(feature_digest, primary_declaration):
    """A benchmark's label id as archbench writes it (fixtures/harness/method_ids.cpp, method_id):
    12 hex digits of a 64-bit FNV-1a hash of its feature's digest and its primary declaration,
    each followed by a zero byte."""
    h = 14695981039346656037
    for part in (feature_digest, primary_declaration):
        for c in part.encode() + b"\0":
            h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"[:12]


def declared_since(context, methods):
    """{feature: (digest written, digest now)} for a result file built before an "equivalent"
    entry declared its digest the same method as another: its context names each feature's
    digest (archbench_method_<Feature>: 'digest <16 hex>, ...'); the ids of its labels are then
    label_id(digest now, declaration)."""
    out = {}
    for key, value in context.items():
        if not key.startswith("archbench_method_") or key == "archbench_method_ids":
            continue
        m = re.match(r"digest ([0-9a-f]{16})\b", str(value))
        feature = key[len("archbench_method_"):]
        if not m or feature not in methods.get("features", {}):
            continue
        now = same_method(methods, feature, m.group(1))
        if now != m.group(1):
            out[feature] = (m.group(1), now)
    return out


def load_methods(read):
    """methods.json (the harness, the equivalences) with each feature's method: its row's `method`
    in benchmarks/features.json (the feature's one declaration), or, in a commit from before the
    rows carried it, methods.json's own `features`."""
    text = read(METHODS_JSON)
    if text is None:
        raise MethodError(f"{METHODS_JSON}: missing")
    try:
        methods = json.loads(text)
        if "features" not in methods:
            table = read(FEATURES_JSON)
            if table is None:
                raise MethodError(f"{FEATURES_JSON}: missing")
            methods["features"] = {row["name"]: row.get("method", {}) for row in json.loads(table)["features"]}
        for name, f in methods["features"].items():
            if not isinstance(f.get("version"), int) or not f.get("kernels"):
                raise MethodError(f"{FEATURES_JSON}: {name}'s method needs a whole-number version and its kernels")
        if not isinstance(methods["harness"].get("version"), int):
            raise MethodError(f"{METHODS_JSON}: the harness needs a whole-number version")
        for name, entries in methods.get("equivalent", {}).items():
            if name == "about":
                continue
            if name not in methods["features"]:
                raise MethodError(f"{METHODS_JSON}: equivalent: no feature {name}")
            for e in entries:
                if not (re.fullmatch(r"[0-9a-f]{16}", str(e.get("digest"))) and
                        re.fullmatch(r"[0-9a-f]{16}", str(e.get("same_as"))) and e["digest"] != e["same_as"]
                        and str(e.get("why", "")).strip()):
                    raise MethodError(f"{METHODS_JSON}: equivalent: {name}: each entry needs a digest, another "
                                      "digest it is the same method as (same_as), and why (its SASS diff)")
        return methods
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise MethodError(f"{METHODS_JSON}: malformed ({e})")


def read_tree(root):
    def read(p):
        try:
            with open(os.path.join(root, p), encoding="utf-8") as f:
                return f.read()
        except (FileNotFoundError, IsADirectoryError):
            return None
    return read


def read_commit(sha, root=ROOT):
    def read(p):
        try:
            r = subprocess.run(["git", "-C", root, "show", f"{sha}:{p}"], capture_output=True)
        except FileNotFoundError:
            raise MethodError("git is not installed (apt-get install git): a commit's files cannot be read")
        return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None
    return read


def emit_cpp(digests, methods):
    lines = ["// Generated by scripts/method_digest.py from benchmarks/methods.json and features.json: do not edit.",
             '#include "fixtures/harness/method_ids.hpp"', "", "namespace archbench {", "",
             "const std::vector<FeatureMethod>& feature_methods() {",
             "  static const std::vector<FeatureMethod> table = {"]
    for name in sorted(digests):
        f = methods["features"][name]
        lines.append(f'      {{"{name}", "{digests[name]}", {f["version"]}, {methods["harness"]["version"]}}},')
    lines += ["  };", "  return table;", "}", "", "}  // namespace archbench", ""]
    return "\n".join(lines)


# --- the ledger: legacy result files (written before identifiers) by the commit that wrote them ---

def result_shas(results_dir):
    shas = set()
    for path in glob.glob(os.path.join(results_dir, "**", "*.json*"), recursive=True):
        if not (path.endswith(".json") or path.endswith(".json.gz")):
            continue
        try:
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt", encoding="utf-8") as f:
                ctx = json.load(f).get("context", {})
        except (OSError, ValueError, EOFError, UnicodeDecodeError, AttributeError):
            continue
        sha = str(ctx.get("archbench_git_sha", ""))
        if re.fullmatch(r"[0-9a-f]{7,40}", sha) and ctx.get("archbench_method_ids") != "label":
            shas.add(sha)
    return sorted(shas)


def ledger_entry(sha):
    """A legacy commit's digests: its kernels' code under today's feature table (no versions:
    the host side of a commit before identifiers is not known), or None if git lacks it."""
    read = read_commit(sha)
    if read("CMakeLists.txt") is None:
        return None
    methods = load_methods(read_tree(ROOT))
    digests = {}
    for name, f in methods["features"].items():
        try:
            one = {"harness": methods["harness"], "features": {name: f}}
            digests[name] = "legacy-" + feature_digests(one, read, versions=False)[name]
        except MethodError:
            digests[name] = None  # the feature's kernels did not exist yet
    return digests


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--emit-cpp", metavar="OUT")
    g.add_argument("--ledger", metavar="RESULTS_DIR")
    g.add_argument("--show", action="store_true")
    g.add_argument("--declare-same", metavar="REV",
                   help="print the equivalent entries that declare this tree's digests the same methods as REV's "
                        "(only after scripts/sass_diff.py found every kernel identical)")
    ap.add_argument("--out", default=None, help="with --ledger: the ledger file (default results/method-ledger.json)")
    args = ap.parse_args(argv)
    paths.checkout()  # this tool works on a checkout's git tree: outside one, one line and exit 2
    try:
        read = read_tree(ROOT)
        methods = load_methods(read)
        if args.emit_cpp:
            text = emit_cpp(feature_digests(methods, read), methods)
            try:
                with open(args.emit_cpp) as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:  # unchanged digests leave the file alone: nothing rebuilds
                os.makedirs(os.path.dirname(os.path.abspath(args.emit_cpp)), exist_ok=True)
                with open(args.emit_cpp, "w") as f:
                    f.write(text)
        elif args.show:
            for name, d in sorted(feature_digests(methods, read).items()):
                print(f"{name:12s} {d}")
        elif args.declare_same:
            old_read = read_commit(args.declare_same)
            then = feature_digests(load_methods(old_read), old_read)
            entries = {}
            for name, d in sorted(feature_digests(methods, read).items()):
                if name in then and then[name] != d:
                    entries[name] = [{"digest": d, "same_as": then[name], "why": "TODO: the SASS diff against "
                                      f"{args.declare_same} (scripts/sass_diff.py): every kernel identical"}]
            print(json.dumps(entries, indent=2) if entries else f"no digest differs from {args.declare_same}'s")
        else:
            out = args.out or os.path.join(ROOT, LEDGER)
            ledger = {"about": "Method digests of the commits that wrote result files before method identifiers "
                               "existed: their kernels' code (scripts/method_digest.py --ledger); compare.py "
                               "reads a legacy file's methods here.", "commits": {}}
            for sha in result_shas(args.ledger):
                entry = ledger_entry(sha)
                if entry is not None:
                    ledger["commits"][sha] = entry
            with open(out, "w") as f:
                json.dump(ledger, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"{out}: {len(ledger['commits'])} commit(s)")
    except (MethodError, OSError) as e:
        print(f"method_digest.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

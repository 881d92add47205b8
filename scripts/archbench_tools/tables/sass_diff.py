#!/usr/bin/env python3
"""Compares the SASS of two builds kernel by kernel (a refactor must leave every timed kernel's
machine code as it was).

Usage: sass_diff.py [--cuobjdump PATH] BEFORE AFTER      (binaries, or text files of cuobjdump -sass)

Each kernel's SASS is compared after three normalisations that carry no code: the source path in
cuobjdump's `identifier` lines, the hash that names a translation unit's anonymous namespace
(`_GLOBAL__N__<hash>_`, from the file's path), and the padding between columns (cuobjdump widens
every line of a file to its longest instruction, so a kernel added beside others re-pads them). Prints one line per kernel that differs or exists on
one side only, and a summary. Exit codes: 0 every kernel identical, 1 a kernel differs or is
missing, 2 unreadable input.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ANON = re.compile(r"_GLOBAL__N__[0-9a-f]+_")
FUNCTION = re.compile(r"^\s*Function : (\S+)")


def sass_text(path, cuobjdump):
    if not os.path.isfile(path):
        raise ValueError(f"{path}: no such file")
    with open(path, "rb") as f:
        head = f.read(4)
    if head != b"\x7fELF":
        return open(path, errors="replace").read()
    tool = cuobjdump or shutil.which("cuobjdump")
    if not tool:
        raise ValueError("cuobjdump not found (give --cuobjdump)")
    r = subprocess.run([tool, "--dump-sass", path], capture_output=True, text=True)
    if r.returncode != 0:
        raise ValueError(f"cuobjdump failed on {path}: {r.stderr.strip()[:200]}")
    return r.stdout


def kernels(text):
    """{(arch, normalised kernel name): [normalised SASS lines]}; a kernel compiled for several
    architectures appears once per architecture."""
    out, arch, name = {}, "?", None
    for line in text.splitlines():
        if line.startswith("arch = "):
            arch = line.split("=", 1)[1].strip()
            name = None
            continue
        if line.startswith(("identifier = ", "Fatbin ", "producer = ", "host = ", "compile_size = ")):
            name = None  # a fatbin's header: no kernel's code until the next Function
            continue
        m = FUNCTION.match(line)
        if m:
            name = (arch, ANON.sub("_GLOBAL__N__", m.group(1)))
            out.setdefault(name, [])
            continue
        if name is not None and line.strip():
            out[name].append(ANON.sub("_GLOBAL__N__", " ".join(line.split())))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--cuobjdump")
    args = ap.parse_args(argv)
    try:
        a, b = kernels(sass_text(args.before, args.cuobjdump)), kernels(sass_text(args.after, args.cuobjdump))
    except ValueError as e:
        print(f"sass_diff.py: error: {e}", file=sys.stderr)
        return 2
    if not a or not b:
        print("sass_diff.py: error: no kernel found in " + (args.before if not a else args.after), file=sys.stderr)
        return 2
    same = changed = 0
    for key in sorted(set(a) | set(b)):
        arch, name = key
        if key not in a or key not in b:
            print(f"{'ADDED  ' if key not in a else 'REMOVED'} {arch} {name}")
            changed += 1
        elif a[key] != b[key]:
            print(f"CHANGED {arch} {name} ({len(a[key])} -> {len(b[key])} lines)")
            changed += 1
        else:
            same += 1
    print(f"{same} kernel(s) identical, {changed} differ or exist on one side only")
    return 0 if changed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

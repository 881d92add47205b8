#!/usr/bin/env python3
"""Why each test of a ctest run was skipped: ctest's screen says only "***Skipped"; the reason a
test gave (a GPU test without a GPU, a profiler not allowed) is in its output, which ctest keeps
in the JUnit file that `ctest --output-junit FILE` writes (FILE relative to the build folder).
Usage: skipped_tests.py JUNIT_XML     one line per skipped test: its name and its last words
Exit 0; 2 with a one-line error when the file is missing or not ctest's JUnit XML.
"""
import argparse
import sys
import xml.etree.ElementTree as ET


def skipped(root):
    """[(test name, reason)] in the run's order: the test cases ctest marked skipped, each with the
    last line of its output (ctest's own message where the test said nothing)."""
    out = []
    for case in root.iter("testcase"):
        mark = case.find("skipped")
        if mark is None:
            continue
        said = [line.strip() for line in (case.findtext("system-out") or "").splitlines() if line.strip()]
        out.append((case.get("name", "?"), said[-1] if said else mark.get("message", "no reason given")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("junit_xml")
    args = ap.parse_args()
    try:
        root = ET.parse(args.junit_xml).getroot()
    except OSError as e:
        print(f"skipped_tests: cannot read {args.junit_xml} ({e.strerror}); write it with ctest --output-junit", file=sys.stderr)
        return 2
    except ET.ParseError as e:
        print(f"skipped_tests: {args.junit_xml}: not XML ({e})", file=sys.stderr)
        return 2
    if root.tag != "testsuite":
        print(f"skipped_tests: {args.junit_xml}: not ctest's JUnit file (its root is <{root.tag}>)", file=sys.stderr)
        return 2
    found = skipped(root)
    for name, reason in found:
        print(f"skipped {name}: {reason}")
    if found:
        print(f"{len(found)} test(s) skipped, each for the reason it gave")
    return 0


if __name__ == "__main__":
    sys.exit(main())

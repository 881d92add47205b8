#!/usr/bin/env python3
"""Why each test of the last ctest run was skipped: ctest prints only "***Skipped"; the reason a
test gave (a GPU test without a GPU, a profiler not allowed) is in Testing/Temporary/LastTest.log.
Usage: skipped_tests.py BUILD_DIR     one line per skipped test, its name and its reason
Exit 0; 2 with a one-line error when BUILD_DIR holds no ctest log.
"""
import argparse
import os
import re
import sys

# A test that skips says so in its last words: "no GPU visible: skipped", "counters unavailable:
# ...: skipped", "every benchmark is unsupported here, skipped: <reasons>", gtest's "[  SKIPPED ]".
SKIP_LINE = re.compile(r"skipped", re.IGNORECASE)
SECTION = re.compile(r"^\d+/\d+ Testing: (\S+)$")


def skipped(log_text):
    """[(test name, reason)] in the log's order: a test whose output has a line that says it skipped
    (the last such line is its reason)."""
    out, name, output, in_output = [], None, [], False
    for line in log_text.splitlines():
        m = SECTION.match(line)
        if m:
            name, output, in_output = m.group(1), [], False
        elif line == "Output:":
            in_output = True
        elif line == "<end of output>":
            in_output = False
            reasons = [x.strip() for x in output if SKIP_LINE.search(x)]
            if name and reasons:
                out.append((name, reasons[-1]))
        elif in_output:
            output.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build_dir")
    args = ap.parse_args()
    log = os.path.join(args.build_dir, "Testing", "Temporary", "LastTest.log")
    try:
        with open(log, errors="replace") as f:
            text = f.read()
    except OSError as e:
        print(f"skipped_tests: no ctest log in {args.build_dir} ({e.strerror}: {log}); run ctest there first", file=sys.stderr)
        return 2
    found = skipped(text)
    for name, reason in found:
        print(f"skipped {name}: {reason}")
    if found:
        print(f"{len(found)} test(s) skipped, each for the reason it gave")
    return 0


if __name__ == "__main__":
    sys.exit(main())

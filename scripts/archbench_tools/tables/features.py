"""The suite's features, from benchmarks/features.json: the one list the scripts read (CMake's
tests read the same file). Each row: name, label (ctest), plot (scripts/plot_<plot>.py),
plot_files, captions (a line under each plot), doc, run (default, apart, on_request, fault_injection), gpus (how many its GPU tests
need, where more than one), and summary (its row in the README's feature table).

    features.py --write-readme README.md    rewrites the README's feature table from the table
    features.py --check-readme README.md    exit 1 when the README's table is not the table's
"""
import argparse
import json
import os
import sys

from archbench_tools import paths

TABLE = paths.in_root("benchmarks", "features.json", required=False)


def rows():
    with open(TABLE or paths.in_root("benchmarks", "features.json")) as f:
        return json.load(f)["features"]


def counters_file(row):
    """Where a feature's counters are: beside its registration, benchmarks/<source>.counters.json."""
    return paths.in_root(os.path.splitext(row["source"])[0] + ".counters.json")


def names():
    """Every feature a result file may hold."""
    return [r["name"] for r in rows()]


def measured():
    """The features that measure the GPU (all but the fault-injection one): a planted slowdown can
    be asked of each."""
    return [r["name"] for r in rows() if r["run"] != "fault_injection"]


def on_request():
    """Features the default run leaves out, registered only when a filter names them."""
    return {r["name"] for r in rows() if r["run"] == "on_request"}


def optional():
    """Features a whole run may lack: run apart, on request, or only under fault injection."""
    return {r["name"] for r in rows() if r["run"] != "default"}


def plots():
    """The plot scripts' names (plot_<name>.py), in the order reports show them."""
    return [r["plot"] for r in rows() if r["plot"]]


def captions():
    """{plot file stem: the one line under it}: every feature's captions (its row's `captions`)."""
    return {stem: text for r in rows() for stem, text in r.get("captions", {}).items()}


def feature_of_plot():
    """{plot script name: feature name}."""
    return {r["plot"]: r["name"] for r in rows() if r["plot"]}


README_HEADER = "| Feature | What you get | Page |"


def readme_rows():
    """The README's feature table (its docs index): a row per feature a user runs, in the table's order."""
    return [f"| `{r['name']}` | {r['summary']} | [{r['doc']}]({r['doc']}) |" for r in rows()
            if r["run"] != "fault_injection"]


def with_readme_table(text):
    """`text` (the README) with its feature table's rows replaced by the table's."""
    lines = text.split("\n")
    if README_HEADER not in lines:
        raise ValueError(f"no feature table ('{README_HEADER}') in the README")
    start = lines.index(README_HEADER) + 2  # past the header and its |---| line
    end = start
    while end < len(lines) and lines[end].startswith("| `"):
        end += 1
    return "\n".join(lines[:start] + readme_rows() + lines[end:])


def main(argv=None):
    ap = argparse.ArgumentParser(description="The README's feature table from benchmarks/features.json")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write-readme", metavar="README")
    g.add_argument("--check-readme", metavar="README")
    args = ap.parse_args(argv)
    path = args.write_readme or args.check_readme
    try:
        with open(path) as f:
            text = f.read()
        new = with_readme_table(text)
    except (OSError, ValueError) as e:
        print(f"features.py: error: {e}", file=sys.stderr)
        return 2
    if args.write_readme:
        if new != text:
            with open(path, "w") as f:
                f.write(new)
        return 0
    if new != text:
        print(f"features.py: {path}'s feature table is not benchmarks/features.json's "
              "(scripts/features.py --write-readme README.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

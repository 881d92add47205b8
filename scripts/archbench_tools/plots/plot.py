"""Draws one feature's plots: archbench-plot NAME FILE... [--out DIR] [the plot's own options].

NAME is a plot of benchmarks/features.json (a row's `plot`, e.g. `memlatency`) or its feature
(`MemLatency`), or `generations` and `counters`, the plots no one feature owns. The plot module,
archbench_tools.plots.plot_<plot>, is found from the table, so a new feature's plot needs no
command line of its own (docs/house.md)."""
import importlib
import os
import sys

from archbench_tools.tables import features

SHARED = ("generations", "counters")  # plots over several features' results


def plot_names():
    """{what a user may type, lower-case: the plot's module suffix}."""
    out = {p: p for p in SHARED}
    for row in features.rows():
        if row.get("plot"):
            out[row["plot"].lower()] = row["plot"]
            out[row["name"].lower()] = row["plot"]
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    names = plot_names()
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: {os.path.basename(sys.argv[0])} NAME FILE... [--out DIR] [the plot's own options]\n\n"
              + __doc__.strip() + "\n\nplots: " + ", ".join(sorted(set(names.values()))))
        return 0 if argv else 2
    plot = names.get(argv[0].lower())
    if plot is None:
        print(f"{os.path.basename(sys.argv[0])}: error: no plot named '{argv[0]}' (plots: "
              f"{', '.join(sorted(set(names.values())))})", file=sys.stderr)
        return 2
    module = importlib.import_module(f"archbench_tools.plots.plot_{plot}")
    return module.SCRIPT.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())

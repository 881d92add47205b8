#!/usr/bin/env python3
"""`python3 scripts/plot_timeline.py ...`: the command archbench_tools.plots.plot_timeline of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `plot_timeline` is that module itself."""
import sys

from archbench_tools.plots import plot_timeline as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

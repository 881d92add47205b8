#!/usr/bin/env python3
"""`python3 scripts/plot.py NAME ...`: the command archbench_tools.plots.plot of this checkout (docs/house.md,
"The tools"): any feature's plots by the feature table. Imported, with scripts/ on the path, `plot` is that module itself."""
import sys

from archbench_tools.plots import plot as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

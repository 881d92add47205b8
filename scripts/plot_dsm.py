#!/usr/bin/env python3
"""`python3 scripts/plot_dsm.py ...`: the command archbench_tools.plots.plot_dsm of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `plot_dsm` is that module itself."""
import sys

from archbench_tools.plots import plot_dsm as _m

if __name__ == "__main__":
    sys.exit(_m.SCRIPT.main())
sys.modules[__name__] = _m

#!/usr/bin/env python3
"""`python3 scripts/plot_memlatency.py ...`: the command archbench_tools.plots.plot_memlatency of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `plot_memlatency` is that module itself."""
import sys

from archbench_tools.plots import plot_memlatency as _m

if __name__ == "__main__":
    sys.exit(_m.SCRIPT.main())
sys.modules[__name__] = _m

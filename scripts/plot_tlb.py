#!/usr/bin/env python3
"""`python3 scripts/plot_tlb.py ...`: the command archbench_tools.plots.plot_tlb of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `plot_tlb` is that module itself."""
import sys

from archbench_tools.plots import plot_tlb as _m

if __name__ == "__main__":
    sys.exit(_m.SCRIPT.main())
sys.modules[__name__] = _m

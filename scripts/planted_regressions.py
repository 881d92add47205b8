#!/usr/bin/env python3
"""`python3 scripts/planted_regressions.py ...`: the command archbench_tools.compare.planted_regressions of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `planted_regressions` is that module itself."""
import sys

from archbench_tools.compare import planted_regressions as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

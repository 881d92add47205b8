#!/usr/bin/env python3
"""`python3 scripts/roofline.py ...`: the command archbench_tools.tables.roofline of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `roofline` is that module itself."""
import sys

from archbench_tools.tables import roofline as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

#!/usr/bin/env python3
"""`python3 scripts/cv_table.py ...`: the command archbench_tools.tables.cv_table of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `cv_table` is that module itself."""
import sys

from archbench_tools.tables import cv_table as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

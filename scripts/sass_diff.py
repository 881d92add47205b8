#!/usr/bin/env python3
"""`python3 scripts/sass_diff.py ...`: the command archbench_tools.tables.sass_diff of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `sass_diff` is that module itself."""
import sys

from archbench_tools.tables import sass_diff as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

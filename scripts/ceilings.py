#!/usr/bin/env python3
"""`python3 scripts/ceilings.py ...`: the command archbench_tools.tables.ceilings of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `ceilings` is that module itself."""
import sys

from archbench_tools.tables import ceilings as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

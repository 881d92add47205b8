#!/usr/bin/env python3
"""`python3 scripts/check_counters.py ...`: the command archbench_tools.tables.check_counters of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `check_counters` is that module itself."""
import sys

from archbench_tools.tables import check_counters as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

#!/usr/bin/env python3
"""`python3 scripts/counters.py ...`: the command archbench_tools.tables.counters of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `counters` is that module itself."""
import sys

from archbench_tools.tables import counters as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

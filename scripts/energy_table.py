#!/usr/bin/env python3
"""`python3 scripts/energy_table.py ...`: the command archbench_tools.tables.energy_table of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `energy_table` is that module itself."""
import sys

from archbench_tools.tables import energy_table as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

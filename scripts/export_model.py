#!/usr/bin/env python3
"""`python3 scripts/export_model.py ...`: the command archbench_tools.tables.export_model of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `export_model` is that module itself."""
import sys

from archbench_tools.tables import export_model as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

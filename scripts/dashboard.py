#!/usr/bin/env python3
"""`python3 scripts/dashboard.py ...`: the command archbench_tools.report.dashboard of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `dashboard` is that module itself."""
import sys

from archbench_tools.report import dashboard as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

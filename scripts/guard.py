#!/usr/bin/env python3
"""`python3 scripts/guard.py ...`: the command archbench_tools.compare.guard of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `guard` is that module itself."""
import sys

from archbench_tools.compare import guard as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

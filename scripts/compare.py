#!/usr/bin/env python3
"""`python3 scripts/compare.py ...`: the command archbench_tools.compare.compare of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `compare` is that module itself."""
import sys

from archbench_tools.compare import compare as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

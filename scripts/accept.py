#!/usr/bin/env python3
"""`python3 scripts/accept.py ...`: the command archbench_tools.nightly.accept of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `accept` is that module itself."""
import sys

from archbench_tools.nightly import accept as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

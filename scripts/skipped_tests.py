#!/usr/bin/env python3
"""`python3 scripts/skipped_tests.py ...`: the command archbench_tools.tables.skipped_tests of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `skipped_tests` is that module itself."""
import sys

from archbench_tools.tables import skipped_tests as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

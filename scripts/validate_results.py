#!/usr/bin/env python3
"""`python3 scripts/validate_results.py ...`: the command archbench_tools.results.validate_results of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `validate_results` is that module itself."""
import sys

from archbench_tools.results import validate_results as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

#!/usr/bin/env python3
"""`python3 scripts/method_digest.py ...`: the command archbench_tools.results.method_digest of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `method_digest` is that module itself."""
import sys

from archbench_tools.results import method_digest as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

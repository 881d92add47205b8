#!/usr/bin/env python3
"""`python3 scripts/results_archive.py ...`: the command archbench_tools.results.results_archive of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `results_archive` is that module itself."""
import sys

from archbench_tools.results import results_archive as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

#!/usr/bin/env python3
"""`python3 scripts/run_node.py ...`: the command archbench_tools.fleet.run_node of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `run_node` is that module itself."""
import sys

from archbench_tools.fleet import run_node as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

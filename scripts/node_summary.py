#!/usr/bin/env python3
"""`python3 scripts/node_summary.py ...`: the command archbench_tools.fleet.node_summary of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `node_summary` is that module itself."""
import sys

from archbench_tools.fleet import node_summary as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

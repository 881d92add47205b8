#!/usr/bin/env python3
"""`python3 scripts/fleet_model.py ...`: the command archbench_tools.fleet.fleet_model of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `fleet_model` is that module itself."""
import sys

from archbench_tools.fleet import fleet_model as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

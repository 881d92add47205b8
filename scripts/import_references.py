#!/usr/bin/env python3
"""`python3 scripts/import_references.py ...`: the command archbench_tools.tables.import_references of this checkout (docs/house.md,
"The tools"). Imported, with scripts/ on the path, `import_references` is that module itself."""
import sys

from archbench_tools.tables import import_references as _m

if __name__ == "__main__":
    sys.exit(_m.main())
sys.modules[__name__] = _m

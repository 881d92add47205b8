"""`import passthrough`, with scripts/ on the path: the module archbench_tools.compare.passthrough itself (docs/house.md,
"The tools")."""
import sys

from archbench_tools.compare import passthrough as _m

sys.modules[__name__] = _m

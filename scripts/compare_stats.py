"""`import compare_stats`, with scripts/ on the path: the module archbench_tools.compare.compare_stats itself (docs/house.md,
"The tools")."""
import sys

from archbench_tools.compare import compare_stats as _m

sys.modules[__name__] = _m

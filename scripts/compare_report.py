"""`import compare_report`, with scripts/ on the path: the module archbench_tools.compare.compare_report itself (docs/house.md,
"The tools")."""
import sys

from archbench_tools.compare import compare_report as _m

sys.modules[__name__] = _m

"""`import resultfile`, with scripts/ on the path: the module archbench_tools.results.resultfile itself (docs/house.md,
"The tools")."""
import sys

from archbench_tools.results import resultfile as _m

sys.modules[__name__] = _m

"""`import plotlib`, with scripts/ on the path: the module archbench_tools.plots.plotlib itself (docs/house.md,
"The tools")."""
import sys

from archbench_tools.plots import plotlib as _m

sys.modules[__name__] = _m

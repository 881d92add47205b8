"""archbench's tools as one package: result files, tables, statistics and compare, nightly, plots,
report and dashboard, fleet (docs/house.md, "The tools"). `pip install .` installs it with a
command per tool (`archbench-compare`, ...); `python3 scripts/<tool>.py` runs the same code from a
checkout. The tools read the checkout's catalogues and results (paths.root())."""

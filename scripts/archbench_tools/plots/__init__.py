"""The plots, one module per feature, and what they share (plotlib)."""

"""Nightly runs and the acceptance verdict of a board."""

"""Statistics and compare: the verdicts between runs and the guard around a change."""

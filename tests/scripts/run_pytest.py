#!/usr/bin/env python3
"""Runs pytest on the given test files; exit 77 (ctest: skipped) when pytest is not installed
(pip install -r scripts/requirements-ci.txt)."""
import sys

try:
    import pytest
except ImportError:
    print("pytest not installed (pip install pytest): skipped")
    sys.exit(77)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))

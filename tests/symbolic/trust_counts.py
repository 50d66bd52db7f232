"""Filled by test_trust.py, printed by conftest.py."""

COUNTS: dict = {}

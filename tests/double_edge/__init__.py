"""Shared helpers of the Double-Edge tests (tests/test_double_edge*.py)."""

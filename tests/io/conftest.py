"""Fixtures of the io tests: a small synthetic benchmark (``tree``) and its results."""

from tests.support.hostile import results, tree  # noqa: F401 (fixtures)

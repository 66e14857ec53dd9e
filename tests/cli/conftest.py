"""Fixtures of the command tests: a small synthetic benchmark (``tree``), its results, and a
results folder of rows without images (``stats_input``)."""

from tests.support.hostile import results, stats_input, tree  # noqa: F401 (fixtures)

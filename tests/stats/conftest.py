"""Fixtures of the stats tests: a small results folder (``stats_input``)."""

from tests.support.hostile import stats_input  # noqa: F401 (fixture)

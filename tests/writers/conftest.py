"""Fixtures for writer tests (helpers live in generate_helpers.py)."""

import pytest
from generate_helpers import small_suite

from paintkit.suites import Suite


@pytest.fixture(scope="module")
def suite() -> Suite:
    return small_suite()

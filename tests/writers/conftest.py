"""Fixtures for writer tests (helpers live in tests/support/generate_helpers.py)."""

import pytest

from paintkit.suites import Suite
from tests.support.generate_helpers import small_suite


@pytest.fixture(scope="module")
def suite() -> Suite:
    return small_suite()

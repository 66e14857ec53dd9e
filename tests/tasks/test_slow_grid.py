"""The full grid: 12 slots of every (task, mode, condition). Run with ``pytest -m slow``."""

import pytest

from paintkit.sources import generate


@pytest.mark.slow
def test_twelve_slots_generate(task, mode, condition):
    for slot in range(12):
        p = generate(task, slot, condition, mode)
        assert p.edit_mask.any()

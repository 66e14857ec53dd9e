"""The full grid: 12 slots of every (task, mode, condition). Run with ``pytest -m slow``."""

import pytest

from paintkit.slots import make_slot_problem


@pytest.mark.slow
def test_twelve_slots_generate(task, mode, condition):
    for slot in range(12):
        p = make_slot_problem(task, condition, mode, slot)
        assert p.edit_mask.any()

"""Shared fixtures for task tests: the reduced (task, mode, condition) grid."""

import pytest

from paintkit.conditions import CONDITIONS
from paintkit.tasks import available_tasks, task_spec


def task_mode_pairs() -> list[tuple[str, str]]:
    return [(t, m) for t in available_tasks() for m in task_spec(t).modes]


def reduced_grid() -> list[tuple[str, str, str]]:
    """Every (task, mode, condition) once."""
    return [(t, m, c) for t, m in task_mode_pairs() for c in CONDITIONS]


def pytest_generate_tests(metafunc):
    if {"task", "mode", "condition"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("task", "mode", "condition"), reduced_grid())
    elif {"task", "mode"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("task", "mode"), task_mode_pairs())


@pytest.fixture
def slot() -> int:
    return 0

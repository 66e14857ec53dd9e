"""Shared fixtures for task tests: the reduced (task, mode, condition) grid."""

import functools
import sys
from pathlib import Path

import pytest

from paintkit.conditions import CONDITIONS
from paintkit.tasks import available_tasks, task_spec
from paintkit.tasks.slots import generate_slot

# The metric's NumPy oracle (tests/metrics/oracle.py) scores problems independently of paintkit.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "metrics"))


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


@functools.cache
def _grid_problem(task: str, mode: str, condition: str, slot: int):
    return generate_slot(task, condition, mode, slot)


@pytest.fixture(scope="session")
def grid_problem():
    """``grid_problem(task, mode, condition, slot=0)``: benchmark problems, generated once per
    session and shared by the test files that check every (task, mode, condition)."""
    def get(task: str, mode: str, condition: str, slot: int = 0):
        return _grid_problem(task, mode, condition, slot)
    return get

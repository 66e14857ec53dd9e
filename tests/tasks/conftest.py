"""Shared fixtures for task tests: the reduced (task, mode, condition) grid."""

import functools
from dataclasses import dataclass

import numpy as np
import pytest

from paintkit.conditions import CONDITIONS
from paintkit.sources import generate
from paintkit.tasks import TASKS, task_spec


def task_mode_pairs() -> list[tuple[str, str]]:
    return [(t, m) for t in TASKS for m in task_spec(t).modes]


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


@dataclass(frozen=True)
class GridFacts:
    """What the grid-wide checks need of one problem (images are not kept: 280 problems of
    two 1024x1024 images would hold ~1.8 GB for the whole session)."""

    instruction: str
    metadata: dict
    hashes: dict
    identity_miou: float  # the unchanged input scored by paintkit.metrics.score
    painted: frozenset  # colors of the answer's edit region


@functools.cache
def _grid_facts(task: str, mode: str, condition: str) -> GridFacts:
    from pinned import problem_hashes

    from paintkit.kernels.pixels import distinct_colors
    from paintkit.metrics import score

    p = generate(task, 0, condition, mode)
    painted = distinct_colors(np.ascontiguousarray(p.answer[p.edit_mask]).reshape(1, -1, 3))
    return GridFacts(p.instruction, p.metadata, problem_hashes(p),
                     score([p.input], [p.answer], [p.input])[0].miou, frozenset(painted))


@pytest.fixture(scope="session")
def grid_facts():
    """``grid_facts(task, mode, condition)``: facts about slot 0 of the benchmark cell,
    generated once per session and shared by the files that check every cell."""
    return _grid_facts

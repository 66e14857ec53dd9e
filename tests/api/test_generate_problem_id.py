"""``paintkit.generate()``'s problem carries its ``problem_id``: the id the suite gives the
same problem (the key of the service and the trainer formats), as the suites' problems do."""

from __future__ import annotations

import pytest

import paintkit
from paintkit.suites import Suite


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_generate_has_the_suites_problem_id(index):
    spec = Suite(tasks=["translation"], conditions=["n_med"], per_cell=4,
                 preservation=False).spec(index)
    problem = paintkit.generate("translation", seed=spec.slot, condition="n_med", mode=spec.mode)
    assert problem.problem_id == spec.problem_id
    assert repr(problem).startswith(f"Problem({spec.problem_id!r}")


def test_generate_problem_id_names_the_namespace():
    problem = paintkit.generate("recolor", seed=3, namespace="mine")
    assert problem.problem_id == "mine-recolor-baseline-color_code-000003"
    assert "problem_id" not in problem.metadata  # the pinned bytes of generate() stay


def test_a_suites_problem_has_it_too():
    suite = Suite(tasks=["recolor"], conditions=["baseline"], per_cell=1, preservation=False)
    (problem,) = list(suite.problems())
    assert problem.problem_id == problem.metadata["problem_id"] == suite.spec(0).problem_id

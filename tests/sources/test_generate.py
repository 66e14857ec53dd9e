"""``paintkit.generate(task, seed=...)`` is the problem of a slot: it runs the suites' attempt
search, so it never raises ``RejectedSeed``, and in the benchmark's namespace it is the
problem the benchmark holds for that slot."""

from __future__ import annotations

import numpy as np
import pytest

import paintkit
from paintkit.errors import RejectedSeed
from paintkit.seeds import paintbench_seed
from paintkit.suites import Suite
from paintkit.tasks import task_module


def _same(a, b) -> bool:
    return (np.array_equal(a.input, b.input) and np.array_equal(a.answer, b.answer)
            and a.instruction == b.instruction)


def test_generate_never_raises_rejected_seed_for_seeds_0_to_29():
    # 0.3.0 called the task generator with the seed itself: 6 of these 30 raised RejectedSeed.
    for seed in range(30):
        problem = paintkit.generate("translation", seed=seed)
        meta = problem.metadata
        assert (meta["slot"], meta["namespace"], meta["mode"]) == (seed, "paintbench", "amount")
        assert meta["seed"] == paintbench_seed("translation", "baseline", "amount", seed,
                                               meta["attempt"])


def test_a_slot_whose_first_attempt_is_rejected_is_the_benchmark_s_problem():
    # translation / striped / amount slot 0: attempt 0's seed is rejected by the task.
    first = paintbench_seed("translation", "striped", "amount", 0, 0)
    with pytest.raises(RejectedSeed):
        task_module("translation").generate(first, "striped", "amount")
    problem = paintkit.generate("translation", seed=0, condition="striped", mode="amount")
    assert problem.metadata["attempt"] >= 1
    suite = Suite(tasks=["translation"], conditions=["striped"], per_cell=1)
    held = next(suite.problems())
    assert held.metadata["problem_id"] == "paintbench-translation-striped-amount-000000"
    assert _same(problem, held)
    assert {k: v for k, v in held.metadata.items() if k not in ("problem_id", "idx")} == \
        problem.metadata


@pytest.mark.parametrize(("task", "source", "mode"), [
    ("bar_chart_add_bar", "tinygrafixbench", None),
    ("scaling", "guidance", None),
    ("conversational", "compositional", "steps3"),
])
def test_every_source_answers_by_name(task, source, mode):
    problem = paintkit.generate(task, seed=2, mode=mode, source=source)
    meta = problem.metadata
    assert (meta["task"], meta["slot"], meta["namespace"]) == (task, 2, source)
    assert problem.input.dtype == np.uint8 and problem.input.shape == problem.answer.shape


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"task": "teleport"}, "unknown task 'teleport'; allowed: translation"),
    ({"task": "translation", "mode": "sideways"}, "has no mode 'sideways'; allowed: amount, align"),
    ({"task": "translation", "condition": "foggy"}, "unknown condition 'foggy'; allowed: baseline"),
    ({"task": "translation", "seed": -1}, "slot must be a non-negative int, got -1"),
    ({"task": "translation", "seed": True}, "slot must be a non-negative int"),
    ({"task": "translation", "source": "paintbenchx"}, "unknown problem source 'paintbenchx'"),
    ({"task": "removal", "source": "guidance"}, "has no guided variant; allowed: translation"),
])
def test_bad_arguments_are_one_line_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        paintkit.generate(**kwargs)

"""PaintBench problems by slot: the seed scheme (docs/generator-rules.md#seeds) with the
attempt search (:func:`~paintkit.attempts.search_attempts`).

Problem ``slot`` of (task, condition, mode) uses the seed of attempt 0, 1, 2, ... until the
task accepts it (a task raises :class:`~paintkit.errors.RejectedSeed` for a seed that gives
no valid problem). The same slot gives the same bytes in any process.
"""

from __future__ import annotations

import warnings

from paintkit.arguments import check_int
from paintkit.attempts import SLOT_ATTEMPTS, search_attempts
from paintkit.conditions import Condition
from paintkit.seeds import paintbench_seed
from paintkit.tasks import Problem, task_module

#: Attempts of a slot before :class:`~paintkit.attempts.AttemptsExhausted` (kept name).
MAX_ATTEMPTS = SLOT_ATTEMPTS


def make_slot_problem(task: str, condition: str | Condition, mode: str | None, slot: int, *,
                      namespace: str = "paintbench", max_attempts: int = MAX_ATTEMPTS,
                      condition_key: str | None = None) -> Problem:
    """Problem ``slot`` of (task, condition, mode) in seed ``namespace``, in memory.

    ``condition`` is a condition name or a :class:`~paintkit.conditions.Condition` variant
    (another canvas size or count table); a variant's seeds use ``condition_key`` (e.g.
    ``"baseline@512x512"``) in place of the condition name, so variants never reuse the
    benchmark's scenes, and the key is recorded in the metadata.

    Adds ``slot``, ``attempt`` and ``namespace`` to the metadata.

    Raises:
        ValueError: unknown task or mode, a negative slot, a variant without a key.
        AttemptsExhausted: (a ``RuntimeError``) ``max_attempts`` seeds in a row were
            rejected (a bug or an impossible setting).
    """
    module = task_module(task)
    mode = module.SPEC.check_mode(mode)
    if not isinstance(slot, int) or isinstance(slot, bool) or slot < 0:
        raise ValueError(f"slot must be a non-negative int, got {slot!r}")
    max_attempts = check_int(max_attempts, "max_attempts", 1)
    if condition_key is None and not isinstance(condition, str):
        raise ValueError("a Condition variant needs a condition_key for its seeds")
    key = condition if condition_key is None else condition_key
    found = search_attempts(
        lambda attempt: paintbench_seed(task, key, mode, slot, attempt, namespace=namespace),
        lambda seed: module.generate(seed, condition, mode),
        max_attempts=max_attempts, what=f"{task}/{mode}/{key} slot {slot}")
    problem = found.value
    problem.metadata.update({"slot": slot, "attempt": found.attempt, "namespace": namespace})
    if condition_key is not None:
        problem.metadata["condition_key"] = condition_key
    return problem


def generate_slot(task: str, condition: str | Condition, mode: str | None, slot: int,
                  **kwargs) -> Problem:
    """Deprecated alias of :func:`make_slot_problem` (same arguments); removed in the next
    version."""
    warnings.warn("paintkit.slots.generate_slot is deprecated; use make_slot_problem (same "
                  "arguments)", DeprecationWarning, stacklevel=2)
    return make_slot_problem(task, condition, mode, slot, **kwargs)

"""Problems by slot: the seed scheme (docs/generator-rules.md#seeds) with attempt search.

Problem ``slot`` of (task, condition, mode) uses the seed of attempt 0, 1, 2, ... until the
task accepts it (a task raises :class:`~paintkit.errors.RejectedSeed` for a seed that gives
no valid problem). The same slot gives the same bytes in any process.
"""

from __future__ import annotations

from paintkit.conditions import Condition
from paintkit.errors import RejectedSeed
from paintkit.seeds import paintbench_seed
from paintkit.tasks import Problem, task_module

MAX_ATTEMPTS = 200


def generate_slot(task: str, condition: str | Condition, mode: str | None, slot: int, *,
                  namespace: str = "paintbench", max_attempts: int = MAX_ATTEMPTS,
                  condition_key: str | None = None) -> Problem:
    """Problem ``slot`` of (task, condition, mode) in seed ``namespace``.

    ``condition`` is a condition name or a :class:`~paintkit.conditions.Condition` variant
    (another canvas size or count table); a variant's seeds use ``condition_key`` (e.g.
    ``"baseline@512x512"``) in place of the condition name, so variants never reuse the
    benchmark's scenes, and the key is recorded in the metadata.

    Adds ``slot``, ``attempt`` and ``namespace`` to the metadata. Raises ``RuntimeError``
    when ``max_attempts`` seeds in a row are rejected (a bug or an impossible setting).
    """
    module = task_module(task)
    mode = module.SPEC.check_mode(mode)
    if not isinstance(slot, int) or slot < 0:
        raise ValueError(f"slot must be a non-negative int, got {slot!r}")
    if condition_key is None and not isinstance(condition, str):
        raise ValueError("a Condition variant needs a condition_key for its seeds")
    key = condition if condition_key is None else condition_key
    last: RejectedSeed | None = None
    for attempt in range(max_attempts):
        seed = paintbench_seed(task, key, mode, slot, attempt, namespace=namespace)
        try:
            problem = module.generate(seed, condition, mode)
        except RejectedSeed as exc:
            last = exc
            continue
        problem.metadata.update({"slot": slot, "attempt": attempt, "namespace": namespace})
        if condition_key is not None:
            problem.metadata["condition_key"] = condition_key
        return problem
    raise RuntimeError(f"{task}/{mode}/{key} slot {slot}: {max_attempts} attempts in a row "
                       f"were rejected; last reason: {last}")

"""Problems by slot: the SPEC 3 seed scheme with attempt search.

Problem ``slot`` of (task, condition, mode) uses the seed of attempt 0, 1, 2, ... until the
task accepts it (a task raises :class:`~paintkit.errors.RejectedSeed` for a seed that gives
no valid problem). The same slot gives the same bytes in any process.
"""

from __future__ import annotations

from paintkit.errors import RejectedSeed
from paintkit.seeds import paintbench_seed
from paintkit.tasks import Problem, task_module

MAX_ATTEMPTS = 200


def generate_slot(task: str, condition: str, mode: str | None, slot: int, *,
                  namespace: str = "paintbench", max_attempts: int = MAX_ATTEMPTS) -> Problem:
    """Problem ``slot`` of (task, condition, mode) in seed ``namespace``.

    Adds ``slot``, ``attempt`` and ``namespace`` to the metadata. Raises ``RuntimeError``
    when ``max_attempts`` seeds in a row are rejected (a bug or an impossible setting).
    """
    module = task_module(task)
    mode = module.SPEC.check_mode(mode)
    if not isinstance(slot, int) or slot < 0:
        raise ValueError(f"slot must be a non-negative int, got {slot!r}")
    last: RejectedSeed | None = None
    for attempt in range(max_attempts):
        seed = paintbench_seed(task, condition, mode, slot, attempt, namespace=namespace)
        try:
            problem = module.generate(seed, condition, mode)
        except RejectedSeed as exc:
            last = exc
            continue
        problem.metadata.update({"slot": slot, "attempt": attempt, "namespace": namespace})
        return problem
    raise RuntimeError(f"{task}/{mode}/{condition} slot {slot}: {max_attempts} attempts in a row "
                       f"were rejected; last reason: {last}")

"""The attempt search: try attempt 0, 1, 2, ... until a seed gives a valid problem.

Every generator that fills a numbered slot (PaintBench task slots, chart tasks, guided and
compositional problems, the gallery's scenes) makes its problem the same way
(docs/generate.md#the-attempt-search): attempt ``a`` has the seed ``seed_of(a)``, a pure
function of the slot's key and ``a`` (:mod:`paintkit.seeds`); ``make(seed)`` either returns
the problem or raises :class:`~paintkit.errors.RejectedSeed` for a seed that gives none
(a degenerate edit, a description that is not unique, doing nothing would score); the
first accepted attempt wins. The result is a pure function of the slot, so the same slot
gives the same bytes in any process, on any worker count.

>>> from paintkit.errors import RejectedSeed
>>> def make(seed):
...     if seed % 2:
...         raise RejectedSeed(f"odd seed {seed}")
...     return f"problem of seed {seed}"
>>> found = search_attempts(lambda attempt: 11 + attempt, make, what="demo slot 0")
>>> found.value, found.attempt, found.seed
('problem of seed 12', 1, 12)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from paintkit.arguments import check_int
from paintkit.errors import RejectedSeed

T = TypeVar("T")

#: Attempts of a PaintBench slot (and of the guided and compositional problems built on the
#: same scenes) before the search gives up: far more than any task needs (a task rejecting
#: 200 seeds in a row has a bug or an impossible setting).
SLOT_ATTEMPTS = 200
#: Attempts of a TinyGrafixBench chart slot.
CHART_ATTEMPTS = 100
#: Attempts of a gallery scene.
SCENE_ATTEMPTS = 100


class AttemptsExhausted(RuntimeError):
    """Every attempt of a slot was rejected: a bug in the generator or an impossible setting.

    A ``RuntimeError`` (what the retry loops raised before the search was shared).
    ``what`` names the slot, ``attempts`` is how many seeds were tried and ``last`` the
    last rejection (its reason is in the message).
    """

    def __init__(self, what: str, attempts: int, last: RejectedSeed | None):
        self.what, self.attempts, self.last = what, attempts, last
        super().__init__(f"{what}: {attempts} attempts in a row were rejected; "
                         f"last reason: {last}")


@dataclass(frozen=True)
class Found(Generic[T]):
    """The first accepted attempt: ``make``'s result, the attempt number and its seed."""

    value: T
    attempt: int
    seed: int


def search_attempts(seed_of: Callable[[int], int], make: Callable[[int], T], *,
                    max_attempts: int = SLOT_ATTEMPTS, what: str = "slot") -> Found[T]:
    """The first attempt ``a`` in ``0 .. max_attempts-1`` whose seed ``make`` accepts.

    Args:
        seed_of: ``attempt -> seed``; the caller's seed key (keeps every benchmark byte).
        make: ``seed -> problem``; raises :class:`~paintkit.errors.RejectedSeed` to move on
            to the next attempt (any other exception propagates at once: it is a bug, not
            a rejected seed).
        max_attempts: how many attempts before giving up (an int >= 1).
        what: names the slot in the error (``"translation/amount/baseline slot 3"``).

    Returns:
        :class:`Found` with ``make``'s result, the attempt and the seed that made it.

    Raises:
        AttemptsExhausted: every attempt was rejected; the message names ``what``, the
            number of attempts and the last rejection's reason.
    """
    max_attempts = check_int(max_attempts, "max_attempts", 1)
    last: RejectedSeed | None = None
    for attempt in range(max_attempts):
        seed = seed_of(attempt)
        try:
            return Found(make(seed), attempt, seed)
        except RejectedSeed as exc:
            last = exc
    raise AttemptsExhausted(what, max_attempts, last)

"""The attempt search: try attempt 0, 1, 2, ... until a seed gives a valid problem.

Every generator that fills a numbered slot (PaintBench task slots, chart tasks, guided and
compositional problems, the gallery's scenes) makes its problem the same way
(docs/generate.md#the-attempt-search): attempt ``a`` has the seed ``seed_of(a)``, a pure
function of the slot's key and ``a`` (:mod:`paintkit.seeds`); ``make(seed)`` either returns
the problem or raises :class:`~paintkit.errors.RejectedSeed` for a seed that gives none
(a degenerate edit, a description that is not unique, doing nothing would score); the
first accepted attempt wins. The result is a pure function of the slot, so the same slot
gives the same bytes in any process, on any worker count.

>>> from paintkit.errors import PaintkitError, RejectedSeed
>>> def make(seed):
...     if seed % 2:
...         raise RejectedSeed(f"odd seed {seed}")
...     return f"problem of seed {seed}"
>>> found = search_attempts(lambda attempt: 11 + attempt, make, what="demo slot 0")
>>> found.value, found.attempt, found.seed
('problem of seed 12', 1, 12)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from paintkit.arguments import check_int
from paintkit.errors import PaintkitError, RejectedSeed

T = TypeVar("T")

#: Attempts of a PaintBench slot (and of the guided and compositional problems built on the
#: same scenes) before the search gives up: far more than any task needs (a task rejecting
#: 200 seeds in a row has a bug or an impossible setting).
SLOT_ATTEMPTS = 200
#: Attempts of a TinyGrafixBench chart slot.
CHART_ATTEMPTS = 100
#: Attempts of a gallery scene.
SCENE_ATTEMPTS = 100


#: Seconds a slot's attempt search may run before it gives up (checked after each rejected
#: attempt): a problem takes well under a second at the default sizes, so a slot still
#: rejecting seeds after this long is an impossible setting (a canvas too small for the
#: condition's shapes), not bad luck. Giving up raises; it never picks another seed, so no
#: problem's bytes depend on it. ``None``: no limit. :func:`slot_seconds` changes it.
SLOT_SECONDS: float | None = 120.0
_limit: list[float | None] = [SLOT_SECONDS]
#: The search running in this process, for :func:`check_time` (None outside a search).
_running: list[_Search | None] = [None]


class AttemptsExhausted(PaintkitError, RuntimeError):
    """Every attempt of a slot was rejected: a bug in the generator or an impossible setting.

    A ``RuntimeError`` (what the retry loops raised before the search was shared).
    ``what`` names the slot, ``attempts`` is how many seeds were tried and ``last`` the
    last rejection (its reason is in the message); ``seconds`` is set when the search gave
    up on the time limit (:data:`SLOT_SECONDS`) before the attempt limit. It crosses
    process boundaries (a pool worker's error comes back pickled): :meth:`__reduce__`
    rebuilds it from its fields.
    """

    def __init__(self, what: str, attempts: int, last: RejectedSeed | None,
                 seconds: float | None = None):
        self.what, self.attempts, self.last, self.seconds = what, attempts, last, seconds
        if seconds is None:
            head = f"{attempts} attempts in a row were rejected"
        else:
            head = (f"gave up after {attempts} attempts in {seconds:.0f} s (the time limit of "
                    "one problem)")
        super().__init__(f"{what}: {head}; last reason: {last}")

    def __reduce__(self):
        return type(self), (self.what, self.attempts, self.last, self.seconds), self.__dict__


class ImpossibleSlot(PaintkitError, ValueError):
    """A generator refused a slot's settings outright (a ``ValueError`` such as "2 shapes of
    at least 32 px cannot fit a 34x34 canvas"); the message starts with the slot (task,
    mode, condition, size) the search was for."""


@contextmanager
def slot_seconds(seconds: float | None) -> Iterator[None]:
    """Within the block, a slot's search gives up after ``seconds`` (``None``: never)."""
    if seconds is not None and (isinstance(seconds, bool) or not seconds > 0):
        raise ValueError(f"slot seconds must be a number > 0 or None, got {seconds!r}")
    previous = _limit[0]
    _limit[0] = seconds
    try:
        yield
    finally:
        _limit[0] = previous


@dataclass
class _Search:
    what: str
    start: float
    limit: float | None
    attempt: int = 0
    last: RejectedSeed | None = None

    def check(self) -> None:
        spent = time.monotonic() - self.start
        if self.limit is not None and spent > self.limit:
            raise AttemptsExhausted(self.what, self.attempt + 1, self.last, seconds=spent)


def check_time() -> None:
    """Give up the running slot search once its time limit passed (:func:`slot_seconds`).

    For the loops inside one attempt that may run for seconds (the scene sampler's
    restarts): the limit then holds within an attempt too. It raises
    :class:`AttemptsExhausted`, never a rejection, so it never decides which seed a problem
    gets; outside a search it does nothing."""
    search = _running[0]
    if search is not None:
        search.check()


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
        AttemptsExhausted: every attempt was rejected, or the search ran past the time
            limit (:func:`slot_seconds`); the message names ``what``, the number of
            attempts and the last rejection's reason.
        ImpossibleSlot: ``make`` raised a ``ValueError`` (its settings cannot work); the
            message is ``what`` and its reason.
    """
    max_attempts = check_int(max_attempts, "max_attempts", 1)
    search = _Search(what, time.monotonic(), _limit[0])
    outer, _running[0] = _running[0], search
    try:
        for attempt in range(max_attempts):
            search.attempt = attempt
            seed = seed_of(attempt)
            try:
                return Found(make(seed), attempt, seed)
            except RejectedSeed as exc:
                search.last = exc
            except ImpossibleSlot:
                raise
            except ValueError as exc:
                raise ImpossibleSlot(f"{what}: {exc}") from exc
            if attempt + 1 < max_attempts:
                search.check()
        raise AttemptsExhausted(what, max_attempts, search.last)
    finally:
        _running[0] = outer

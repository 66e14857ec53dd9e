"""What every suite derives from its ``len`` and ``spec(index)``: ``specs`` and ``problems``
(the rest of :class:`~paintkit.suites.protocol.ProblemSuite` is each suite's own)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from paintkit.suites.build import build_problem
from paintkit.suites.spec import ProblemSpec
from paintkit.tasks.base import Problem

if TYPE_CHECKING:
    from paintkit.suites.protocol import ProblemSuite


class SuiteMethods:
    """``specs`` and ``problems`` of a suite, from its ``len`` and ``spec(index)``."""

    if TYPE_CHECKING:  # what a suite deriving from this provides
        def __len__(self) -> int: ...

        def spec(self, index: int, round: int = 0) -> ProblemSpec: ...

    def specs(self) -> Iterator[ProblemSpec]:
        """Every problem spec, in order."""
        return (self.spec(i) for i in range(len(self)))

    def problems(self, start: int = 0, stop: int | None = None) -> Iterator[Problem]:
        """Generate problems ``start .. stop-1`` in this process (an iterator of
        :class:`~paintkit.tasks.Problem` with ``problem_id`` and ``idx`` in their metadata)."""
        stop = len(self) if stop is None else min(stop, len(self))
        suite = cast("ProblemSuite", self)
        return (build_problem(suite, self.spec(i)) for i in range(start, stop))

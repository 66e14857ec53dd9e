"""What every suite derives from its ``len`` and ``spec(index)``: ``specs`` and ``problems``
(the rest of :class:`~paintkit.suites.protocol.ProblemSuite` is each suite's own)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

from paintkit.suites.build import build_problem
from paintkit.suites.spec import ProblemSpec
from paintkit.tasks.base import Problem


class SuiteMethods:
    """``specs`` and ``problems`` of a suite, from its ``len`` and ``spec(index)``."""

    def specs(self) -> Iterator[ProblemSpec]:
        """Every problem spec, in order."""
        return (self.spec(i) for i in range(len(self)))

    def problems(self, start: int = 0, stop: int | None = None) -> Iterator[Problem]:
        """Generate problems ``start .. stop-1`` in this process (an iterator of
        :class:`~paintkit.tasks.Problem` with ``problem_id`` and ``idx`` in their metadata)."""
        stop = len(self) if stop is None else min(stop, len(self))
        return (build_problem(self, self.spec(i)) for i in range(start, stop))

    def generate_spec(self, spec: ProblemSpec) -> Problem:
        """Deprecated alias of ``make_problem(spec)``; removed in the next version."""
        warnings.warn(f"{type(self).__name__}.generate_spec is deprecated; use make_problem",
                      DeprecationWarning, stacklevel=2)
        return self.make_problem(spec)


class DataclassSuite(SuiteMethods):
    """:class:`SuiteMethods` plus ``from_dict`` for a dataclass suite whose ``to_dict``
    writes its fields (tuples as JSON lists)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        """The suite ``to_dict`` described (unknown keys such as ``problems`` ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: (tuple(v) if isinstance(v, list) else v)
                      for k, v in data.items() if k in names})

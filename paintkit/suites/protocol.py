"""The two declared interfaces of generation (docs/generate.md, "Protocols").

- :class:`ProblemSuite`: what every suite provides (the grids over one problem source,
  :class:`~paintkit.suites.grid.SourceSuite`: PaintBench's :class:`~paintkit.suites.Suite`,
  :class:`~paintkit.tinygrafix.suite.TinyGrafixSuite`,
  :class:`~paintkit.suites.compositional.CompositionalSuite`,
  :class:`~paintkit.suites.guidance.GuidanceSuite`; and
  :class:`~paintkit.suites.combined.CombinedSuite`): an ordered, indexed set of problems
  that every engine, writer and stream runs unchanged.
- :class:`~paintkit.tasks.base.ProblemGenerator`: what a PaintBench task module provides:
  ``SPEC`` and ``generate(seed, condition, mode)``, a pure function of the seed that raises
  :class:`~paintkit.errors.RejectedSeed` when the seed gives no problem (the PaintBench
  problem source, :class:`~paintkit.sources.paintbench.PaintBenchSource`, runs the attempt
  search over it).

Both are :func:`typing.runtime_checkable`: ``isinstance(suite, ProblemSuite)`` checks the
members are there (not their signatures; the tests check those).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, runtime_checkable

from paintkit.suites.spec import ProblemSpec
from paintkit.tasks.base import Problem, ProblemGenerator


@runtime_checkable
class ProblemSuite(Protocol):
    """An ordered set of problems addressed by index.

    ``benchmark`` is the folder of the directory layout (``"."`` for a combined suite,
    whose parts keep their own). ``len(suite)`` problems; ``spec(index, round)`` says what
    problem ``index`` of round ``round`` is and where it goes (``IndexError`` outside
    ``[0, len)``); ``make_problem(spec)`` makes it in memory (pure: the same bytes in any
    process); ``specs()`` and ``problems(start, stop)`` walk them in order (problems with
    ``problem_id`` and ``idx`` stamped in, see :func:`paintkit.suites.build_problem`);
    ``to_dict()`` is the JSON description written into the manifest.
    """

    @property
    def benchmark(self) -> str: ...  # read-only: the presets are frozen dataclasses

    def __len__(self) -> int: ...

    def spec(self, index: int, round: int = 0) -> ProblemSpec: ...

    def specs(self) -> Iterator[ProblemSpec]: ...

    def problems(self, start: int = 0, stop: int | None = None) -> Iterator[Problem]: ...

    def make_problem(self, spec: ProblemSpec) -> Problem: ...

    def to_dict(self) -> dict[str, Any]: ...


def check_suite(suite: object) -> ProblemSuite:
    """``suite`` if it provides :class:`ProblemSuite`, else a ``TypeError`` naming what is
    missing."""
    if isinstance(suite, ProblemSuite):
        return suite
    members = ("benchmark", "__len__", "spec", "specs", "problems", "make_problem", "to_dict")
    missing = [m for m in members if not hasattr(suite, m)]
    raise TypeError(f"{type(suite).__name__} is not a suite (paintkit.suites.ProblemSuite): it "
                    f"lacks {', '.join(missing)}")


def may_hold_references(suite: object) -> bool:
    """Whether problems of ``suite`` can have reference images (docs/references.md): its
    ``reference_images`` attribute (every paintkit suite has one); True for a suite without
    it, since nothing says its problems cannot."""
    return bool(getattr(suite, "reference_images", True))


__all__ = ["ProblemGenerator", "ProblemSuite", "check_suite", "may_hold_references"]

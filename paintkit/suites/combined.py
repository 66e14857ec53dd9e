"""Several suites written as one: ``paintkit generate all`` (PaintBench + TinyGrafixBench).

The parts keep their own problems, seeds and ids; in the directory layout each part sits in
its own benchmark folder (``<out>/PaintBench/...``, ``<out>/TinyGrafixBench/...``) under one
output root with one manifest, and shard formats hold the parts one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from paintkit.suites.base import SuiteMethods
from paintkit.suites.build import build_problem
from paintkit.suites.protocol import may_hold_references
from paintkit.suites.spec import PROBLEM, ProblemSpec
from paintkit.tasks import Problem

#: The ``benchmark`` of a combined suite: the parts' benchmark folders sit in the output root.
ROOT_BENCHMARK = "."


@dataclass(frozen=True)
class PartSpec(ProblemSpec):
    """A part's spec inside a combined suite: ``folder`` is ``<Benchmark>/<task>``, the
    problem id is the part's own, ``part`` is the spec in the part's suite."""

    part: ProblemSpec | None = None

    @property
    def problem_id(self) -> str:
        return cast(ProblemSpec, self.part).problem_id


class CombinedSuite(SuiteMethods):
    """The problems of ``parts`` in order (part 0 first), as one suite."""

    benchmark = ROOT_BENCHMARK

    def __init__(self, parts: Sequence[Any]) -> None:
        if not parts:
            raise ValueError("a combined suite needs at least one suite")
        names = [part.benchmark for part in parts]
        if len(set(names)) != len(names):
            raise ValueError(f"combined suites need distinct benchmark folders, got {', '.join(names)}")
        self.parts = tuple(parts)
        self._starts = []
        total = 0
        for part in self.parts:
            self._starts.append(total)
            total += len(part)
        self._len = total

    def __len__(self) -> int:
        return self._len

    @property
    def reference_images(self) -> bool:
        """Whether problems of this suite can have reference images (some part's can)."""
        return any(may_hold_references(part) for part in self.parts)

    def _locate(self, index: int) -> tuple[int, int]:
        if not 0 <= index < self._len:
            raise IndexError(f"problem index {index} outside [0, {self._len})")
        k = max(i for i, start in enumerate(self._starts) if start <= index)
        return k, index - self._starts[k]

    def spec(self, index: int, round: int = 0) -> PartSpec:
        k, local = self._locate(index)
        part = self.parts[k]
        inner = part.spec(local, round)
        return PartSpec(
            index=index, kind=PROBLEM, task=inner.task, condition=inner.condition,
            seed_condition=inner.seed_condition, mode=inner.mode, slot=inner.slot,
            namespace=inner.namespace, folder=f"{part.benchmark}/{inner.folder}", idx=inner.idx,
            idx_digits=inner.idx_digits, part=inner)

    def make_problem(self, spec: ProblemSpec) -> Problem:
        """The part's own problem (with its own ``problem_id`` and ``idx``); ``spec``: a
        :class:`PartSpec` of this suite."""
        k, _ = self._locate(spec.index)
        return build_problem(self.parts[k], cast(ProblemSpec, cast(PartSpec, spec).part))

    def to_dict(self) -> dict[str, Any]:
        return {"suite": "combined", "benchmark": self.benchmark, "problems": len(self),
                "parts": [part.to_dict() for part in self.parts]}

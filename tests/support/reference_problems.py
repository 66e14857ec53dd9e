"""A small hand-made suite whose problems carry reference images, for the writer, reward and
scoring tests: each problem of a PaintBench suite with ``count`` references attached through
:func:`paintkit.tasks.base.with_references` (its inverted input, a 48x64 checkerboard, the
inverted input mirrored; copying one never pays), and the category ``reference_guided``.

The problems keep their PaintBench problem ids: the service, given such a key, regenerates
the same input and answer (the references never change a score).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from paintkit.suites import Suite
from paintkit.tasks import Reference
from paintkit.tasks.base import with_references

ROLES = ("reference", "layout", "style")


def reference_images(image: np.ndarray, count: int) -> list[Reference]:
    """``count`` references made from ``image`` (uint8 ``(H, W, 3)``)."""
    board = ((np.indices((48, 64)).sum(axis=0) // 8) % 2 * 200 + 20).astype(np.uint8)
    made = [np.ascontiguousarray(255 - image), np.repeat(board[:, :, None], 3, axis=2),
            np.ascontiguousarray((255 - image)[:, ::-1])]
    return [Reference(made[n], ROLES[n]) for n in range(count)]


@dataclass(frozen=True)
class ReferenceSuite:
    """``base``'s problems, each with ``count`` (1 to 3) reference images; ``category`` is
    written into every problem's metadata."""

    base: Suite = field(default_factory=lambda: Suite(
        tasks=("translation", "recolor"), conditions=("baseline",), per_cell=3,
        namespace="writers", size=(256, 256)))
    count: int = 1
    category: str = "reference_guided"

    @property
    def benchmark(self) -> str:
        return self.base.benchmark

    def __len__(self) -> int:
        return len(self.base)

    def spec(self, index: int, round: int = 0):
        return self.base.spec(index, round)

    def specs(self):
        return self.base.specs()

    def make_problem(self, spec):
        problem = self.base.make_problem(spec)
        if self.count == 0:
            return problem
        problem = with_references(problem, reference_images(problem.input, self.count),
                                  what=spec.problem_id)
        problem.metadata["category"] = self.category
        return problem

    def problems(self, start: int = 0, stop: int | None = None):
        from paintkit.suites import build_problem

        stop = len(self) if stop is None else stop
        for index in range(start, stop):
            yield build_problem(self, self.spec(index))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "reference-test", "count": self.count, "category": self.category,
                "base": self.base.to_dict()}

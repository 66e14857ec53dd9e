"""A small suite mixing problems with and without reference images, for the storage tests
(directory, WebDataset and Parquet writers, paintkit.load, the stream, verify, show, the
gallery): PaintBench problems with references attached by
:func:`paintkit.tasks.base.with_references`, independent of the reference families."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from paintkit.suites import Suite
from paintkit.tasks import Reference
from paintkit.tasks.base import with_references


def stored_references(problem, idx: int) -> list[Reference]:
    """Problem ``idx``'s references: none when ``idx % 3 == 2`` (a one-image problem among
    them), else the inverted input ("style") and, for even ``idx``, a 48x64 checkerboard
    ("layout", another size)."""
    if idx % 3 == 2:
        return []
    refs = [Reference(np.ascontiguousarray(255 - problem.input), "style")]
    if idx % 2 == 0:
        board = ((np.indices((48, 64)).sum(axis=0) // 8) % 2 * 200 + 20).astype(np.uint8)
        refs.append(Reference(np.repeat(board[:, :, None], 3, axis=2), "layout"))
    return refs


@dataclass(frozen=True)
class MixedReferenceSuite(Suite):
    """:class:`~paintkit.suites.Suite` whose problems get :func:`stored_references`."""

    reference_images: ClassVar[bool] = True  # type: ignore[misc]  # says so, as a suite should

    def make_problem(self, spec):
        problem = super().make_problem(spec)
        refs = stored_references(problem, spec.idx)
        return with_references(problem, refs, what=spec.problem_id) if refs else problem


def mixed_reference_suite(**kwargs) -> MixedReferenceSuite:
    """recolor + translation under one condition, 3 per cell at 128x128: 6 problems, 4 with
    references (problems 0 and 1 of each task; 0 has two), no preservation split."""
    return MixedReferenceSuite(**{"tasks": ("recolor", "translation"),
                                  "conditions": ("baseline",), "per_cell": 3,
                                  "namespace": "refs", "size": (128, 128),
                                  "preservation": False, **kwargs})


@dataclass(frozen=True)
class UnsaidReferenceSuite(MixedReferenceSuite):
    """:class:`MixedReferenceSuite` that says its problems have no references
    (``reference_images`` False) but attaches them anyway."""

    reference_images: ClassVar[bool] = False  # type: ignore[misc]


def unsaid_reference_suite(**kwargs) -> UnsaidReferenceSuite:
    """:func:`mixed_reference_suite`'s problems from a suite that says it has no
    references."""
    from dataclasses import fields

    said = mixed_reference_suite(**kwargs)
    return UnsaidReferenceSuite(**{f.name: getattr(said, f.name) for f in fields(said)
                                   if f.init})

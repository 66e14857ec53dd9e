"""Scores that explain themselves: which objects an output got right, moved, recoloured,
lost or damaged, and where its errors are (connected error segments).

Everything is rebuilt from the scenes the problem metadata already stores (see
:mod:`paintkit.explain.footprints`); nothing extra is generated or saved. Thresholds and tags
are described in :mod:`paintkit.explain.objects` and ``docs/explain.md``.

>>> from paintkit.explain import explain_problem
>>> from paintkit.slots import make_slot_problem
>>> problem = make_slot_problem("translation", "baseline", "amount", 0)
>>> explain_problem(problem.metadata, problem.input, problem.answer, problem.input)["tags"]
{'correct': 2, 'misplaced': 1}
"""

from paintkit.explain.objects import CORRECT_SHARE, MISPLACED_SHARE, MISSING_SHARE, UNIFORM_SHARE
from paintkit.explain.problem import (
    DEFAULT_TOLERANCE,
    ProblemScenes,
    explain_problem,
    prepare_scenes,
    segment_maps,
)
from paintkit.explain.segments import MAX_SEGMENTS, error_segments

__all__ = [
    "CORRECT_SHARE", "DEFAULT_TOLERANCE", "MAX_SEGMENTS", "MISPLACED_SHARE", "MISSING_SHARE",
    "ProblemScenes", "UNIFORM_SHARE", "error_segments", "explain_problem", "prepare_scenes",
    "segment_maps",
]

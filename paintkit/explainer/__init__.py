"""Scores that explain themselves: which objects an output got right, moved, recoloured,
lost or damaged, and where its errors are (connected error segments).

Everything is rebuilt from the scenes the problem metadata already stores (see
:mod:`paintkit.explainer.footprints`); nothing extra is generated or saved. Thresholds and tags
are described in :mod:`paintkit.explainer.objects` and ``docs/explain.md``.

The arguments come in the order of :func:`paintkit.score`: the output, the answer, the
input, then the problem's metadata (a dict or the path of its JSON file).

>>> import paintkit
>>> problem = paintkit.generate("translation", seed=0)
>>> paintkit.explain(problem.input, problem.answer, problem.input, problem.metadata)["tags"]
{'correct': 2, 'misplaced': 1}

``paintkit.explain`` is :func:`paintkit.explainer.explain`, a plain function.
"""

from paintkit.explainer.objects import CORRECT_SHARE, MISPLACED_SHARE, MISSING_SHARE, UNIFORM_SHARE
from paintkit.explainer.problem import (
    DEFAULT_TOLERANCE,
    ProblemScenes,
    explain,
    prepare_scenes,
    segment_maps,
)
from paintkit.explainer.segments import MAX_SEGMENTS, error_segments

__all__ = [
    "CORRECT_SHARE", "DEFAULT_TOLERANCE", "MAX_SEGMENTS", "MISPLACED_SHARE", "MISSING_SHARE",
    "ProblemScenes", "UNIFORM_SHARE", "error_segments", "explain",
    "prepare_scenes", "segment_maps",
]

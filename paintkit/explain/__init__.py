"""Scores that explain themselves: which objects an output got right, moved, recoloured,
lost or damaged, and where its errors are (connected error segments).

Everything is rebuilt from the scenes the problem metadata already stores (see
:mod:`paintkit.explain.footprints`); nothing extra is generated or saved. Thresholds and tags
are described in :mod:`paintkit.explain.objects` and ``docs/explain.md``.

The arguments come in the order of :func:`paintkit.score`: the output, the answer, the
input, then the problem's metadata (a dict or the path of its JSON file).

>>> import paintkit
>>> problem = paintkit.generate("translation", seed=0)
>>> paintkit.explain(problem.input, problem.answer, problem.input, problem.metadata)["tags"]
{'correct': 2, 'misplaced': 1}

The package is callable: ``paintkit.explain(...)`` is :func:`paintkit.explain.explain`.
"""

import sys
import types

from paintkit.explain.objects import CORRECT_SHARE, MISPLACED_SHARE, MISSING_SHARE, UNIFORM_SHARE
from paintkit.explain.problem import (
    DEFAULT_TOLERANCE,
    ProblemScenes,
    explain,
    explain_problem,
    prepare_scenes,
    segment_maps,
)
from paintkit.explain.segments import MAX_SEGMENTS, error_segments


class _CallableModule(types.ModuleType):
    """``paintkit.explain`` names both this package and the top-level function: calling the
    package runs :func:`explain`, so ``paintkit.explain(...)`` works whether or not the
    package's submodules were imported first."""

    __call__ = staticmethod(explain)  # no extra frame: warnings point at the caller's line


sys.modules[__name__].__class__ = _CallableModule

__all__ = [
    "CORRECT_SHARE", "DEFAULT_TOLERANCE", "MAX_SEGMENTS", "MISPLACED_SHARE", "MISSING_SHARE",
    "ProblemScenes", "UNIFORM_SHARE", "error_segments", "explain", "explain_problem",
    "prepare_scenes", "segment_maps",
]

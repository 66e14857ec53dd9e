"""The PaintBench metric: CIE76 colour tolerances, edit/preservation accuracy, IoU
(defined in docs/metric-definition.md).

Functional API: :func:`score` (per-problem results), :func:`tolerance_statistics` (the
update step: sufficient statistics), :func:`reward` (mIoU tensor for training loops),
:func:`soft_reward` (a differentiable surrogate).
Stateful: :class:`ScoreAccumulator` (``update`` / ``compute``, sums across batches and
processes). Prepare answers and inputs once with :func:`prepare_reference` to reuse them.
Heavy work runs in :mod:`paintkit.kernels` (Numba on CPU, torch on any device).
:func:`explain` tags each object of an output (correct, missing, misplaced, ...); it loads
the scene renderer on first call only.
"""

from paintkit.metrics.accumulator import ScoreAccumulator
from paintkit.metrics.coerce import MissingImage
from paintkit.metrics.reference import Reference, TargetGroup, Targets, prepare_reference
from paintkit.metrics.result import ProblemScore
from paintkit.metrics.reward import reward
from paintkit.metrics.score import BatchStatistics, score, tolerance_statistics
from paintkit.metrics.statistics import TOLERANCES, ToleranceStatistics
from paintkit.metrics.surrogate import soft_reward


def explain(metadata, inputs, answer, output, *, tolerance: int = 5, delta_e: str = "cie76",
            **options) -> dict:
    """Object tags and error segments of one output: :func:`paintkit.explain.explain_problem`
    (same arguments and result; see ``docs/explain.md``).

    A thin wrapper, imported lazily: ``import paintkit.metrics`` does not load the renderer.
    ``tolerance``: the ΔE tolerance a pixel must meet (default 5, as ``paintkit explain``).
    """
    from paintkit.explain import explain_problem

    return explain_problem(metadata, inputs, answer, output, tolerance=tolerance,
                           delta_e=delta_e, **options)


def __getattr__(name):
    # PixelEditIoU needs the optional torchmetrics: imported on first use only.
    if name == "PixelEditIoU":
        from paintkit.metrics.torchmetric import PixelEditIoU

        return PixelEditIoU
    raise AttributeError(f"module 'paintkit.metrics' has no attribute {name!r}")


__all__ = [
    "BatchStatistics", "MissingImage", "PixelEditIoU", "ProblemScore", "Reference", "ScoreAccumulator",
    "TOLERANCES", "TargetGroup", "Targets", "ToleranceStatistics", "prepare_reference",
    "explain", "reward", "score", "soft_reward", "tolerance_statistics",
]

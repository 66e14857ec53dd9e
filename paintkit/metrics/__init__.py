"""The PaintBench metric: CIE76 colour tolerances, edit/preservation accuracy, IoU
(defined in docs/metric-definition.md).

Every entry point takes ``(outputs, answers, inputs)`` in this order.

Functional API: :func:`score` (per-problem results: a list of :class:`ProblemScore`),
:func:`tolerance_statistics` (the update step: :class:`BatchStatistics`), :func:`reward`
(float32 tensor ``(B,)`` of mIoU for training loops), :func:`soft_reward` (a differentiable
surrogate, float tensor ``(B,)``).
Stateful: :class:`ScoreAccumulator` (``update`` / ``compute``, sums across batches and
processes). Prepare answers and inputs once with :func:`prepare_targets` (a
:class:`Targets`) to reuse them.
Heavy work runs in :mod:`paintkit.kernels` (Numba on CPU, torch on any device).
Explaining an output (which objects it got right) is :func:`paintkit.explain`.
"""

from paintkit.metrics.accumulator import ScoreAccumulator
from paintkit.metrics.coerce import MissingImage
from paintkit.metrics.result import ProblemScore
from paintkit.metrics.reward import reward
from paintkit.metrics.score import BatchStatistics, score, tolerance_statistics
from paintkit.metrics.statistics import TOLERANCES, ToleranceStatistics
from paintkit.metrics.surrogate import soft_reward
from paintkit.metrics.targets import TargetGroup, Targets, prepare_targets


def __getattr__(name):
    # PixelEditIoU needs the optional torchmetrics: imported on first use only.
    if name == "PixelEditIoU":
        from paintkit.metrics.torchmetric import PixelEditIoU  # torchmetrics

        return PixelEditIoU
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BatchStatistics", "MissingImage", "PixelEditIoU", "ProblemScore", "ScoreAccumulator",
    "TOLERANCES", "TargetGroup", "Targets", "ToleranceStatistics", "prepare_targets",
    "reward", "score", "soft_reward", "tolerance_statistics",
]

"""The PaintBench metric: CIE76 colour tolerances, edit/preservation accuracy, IoU
(defined in docs/metric-definition.md).

Every entry point takes ``(outputs, answers, inputs)`` in this order.

Functional API: :func:`score` (per-problem results: a list of :class:`ProblemScore`),
:func:`tolerance_statistics` (the update step: a :class:`BatchToleranceStatistics`, whose
``stats`` are the :class:`ToleranceStatistics`), :func:`reward` (float32 tensor ``(B,)`` of
mIoU for training loops), :func:`soft_reward` (a differentiable surrogate, float tensor
``(B,)``).
Stateful, two faces of one state: :class:`PixelEditIoUAccumulator` (``update`` /
``compute``, sums across batches and processes) and :class:`PixelEditIoU` (the same as a
torchmetrics ``Metric``). Prepare answers and inputs once with :func:`prepare_targets` (a
:class:`Targets`) to reuse them.
Heavy work runs in :mod:`paintkit.kernels` (Numba on CPU, torch on any device).
Explaining an output (which objects it got right) is :func:`paintkit.explain`.
"""

import importlib
from typing import TYPE_CHECKING, Any

from paintkit.old_names import deprecated_aliases

if TYPE_CHECKING:  # what type checkers see of the names _HOMES imports on first use
    from paintkit.metrics.accumulator import PixelEditIoUAccumulator as PixelEditIoUAccumulator
    from paintkit.metrics.batch_scoring import BatchToleranceStatistics as BatchToleranceStatistics
    from paintkit.metrics.batch_scoring import score as score
    from paintkit.metrics.batch_scoring import tolerance_statistics as tolerance_statistics
    from paintkit.metrics.coerce import MissingImage as MissingImage
    from paintkit.metrics.result import ProblemScore as ProblemScore
    from paintkit.metrics.statistics import TOLERANCES as TOLERANCES
    from paintkit.metrics.statistics import ToleranceStatistics as ToleranceStatistics
    from paintkit.metrics.surrogate import soft_reward as soft_reward
    from paintkit.metrics.targets import TargetGroup as TargetGroup
    from paintkit.metrics.targets import Targets as Targets
    from paintkit.metrics.targets import prepare_targets as prepare_targets
    from paintkit.metrics.torchmetric import PixelEditIoU as PixelEditIoU
    from paintkit.metrics.training_reward import reward as reward

# Loaded on first use, so that importing a light submodule (``paintkit.metrics.version``,
# read by ``paintkit stats``) does not load Numba and the kernels.
_HOMES = {
    "paintkit.metrics.accumulator": ("PixelEditIoUAccumulator",),
    "paintkit.metrics.batch_scoring": ("BatchToleranceStatistics", "score", "tolerance_statistics"),
    "paintkit.metrics.coerce": ("MissingImage",),
    "paintkit.metrics.result": ("ProblemScore",),
    "paintkit.metrics.statistics": ("TOLERANCES", "ToleranceStatistics"),
    "paintkit.metrics.surrogate": ("soft_reward",),
    "paintkit.metrics.targets": ("TargetGroup", "Targets", "prepare_targets"),
    "paintkit.metrics.torchmetric": ("PixelEditIoU",),  # needs the optional torchmetrics
    "paintkit.metrics.training_reward": ("reward",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def _lazy_attribute(name: str) -> Any:
    if name in _HOME_OF:
        value = getattr(importlib.import_module(_HOME_OF[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__getattr__ = deprecated_aliases(__name__, {
    "BatchStatistics": "BatchToleranceStatistics", "ScoreAccumulator": "PixelEditIoUAccumulator",
}, _lazy_attribute)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = sorted(_HOME_OF)

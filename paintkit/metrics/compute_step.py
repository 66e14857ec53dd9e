"""The compute step of the metric, once: per-tolerance counts -> accuracies, IoU, mIoU.

docs/metric-definition.md §6-8 and §10 as one function, :func:`tolerance_figures`, that
runs on NumPy arrays (``paintkit eval``, no torch in its workers) and on torch tensors (on
their device: rewards, :class:`~paintkit.metrics.PixelEditIoUAccumulator`) with the same
operations. Everything that reports a figure (:class:`~paintkit.metrics.ProblemScore`,
:class:`~paintkit.metrics.ToleranceStatistics`, eval rows) takes it from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from paintkit.types import TensorLike

#: Where the over-edit ratio is read: the median of the tolerances 0..10 (§10).
MEDIAN_TOLERANCE = 5


def _is_numpy(x: object) -> bool:
    return isinstance(x, np.ndarray)


def _ratio(num: Any, den: Any, empty_value: float, dtype: Any) -> Any:
    """``num / den`` elementwise, ``empty_value`` where ``den == 0``, in ``dtype``."""
    if _is_numpy(num):
        num, den = num.astype(dtype or np.float64), den.astype(dtype or np.float64)
        return np.where(den > 0, num / np.maximum(den, 1), empty_value)
    import torch  # heavy: loaded on first use

    dtype = dtype or torch.float64
    num, den = num.to(dtype), den.to(dtype)
    return torch.where(den > 0, num / den.clamp_min(1), torch.full_like(num, empty_value))


def tolerance_figures(edit_pixels: TensorLike, preservation_pixels: TensorLike,
                      edit_correct: TensorLike, preservation_correct: TensorLike,
                      changed: TensorLike, has_output: TensorLike, dtype: Any = None
                      ) -> dict[str, Any]:
    """The figures of a batch of problems from their counts (NumPy arrays or torch tensors).

    Args:
        edit_pixels, preservation_pixels: int ``(B,)``, ``|E|`` and ``|P|``.
        edit_correct, preservation_correct: int ``(B, 11)``, CE_t and CP_t for t = 0..10
            (0 for a missing output).
        changed: int ``(B, 11)``, pixels with ``ΔE(O, I) > t``.
        has_output: bool ``(B,)``.
        dtype: float dtype of the figures (default float64).

    Returns:
        ``edit_accuracy``, ``preservation_accuracy``, ``iou`` (each ``(B, 11)``), ``miou``
        ``(B,)`` (mean IoU over t, :func:`mean_over_tolerances`) and ``over_edit_ratio``
        ``(B,)`` (changed at t = 5 over ``|E|``, NaN when ``|E| = 0``). Rules (§6, §8): an
        empty region's accuracy is 1.0, a missing output's accuracies are 0, IoU is
        ``CE_t / (|E| + |P| - CP_t)`` and 1.0 when that denominator is 0 (for a missing
        output only when ``|E| = |P| = 0``).
    """
    e = edit_pixels.reshape(-1, 1)
    p = preservation_pixels.reshape(-1, 1)
    keep: Any = has_output.reshape(-1, 1)
    edit_accuracy = _ratio(edit_correct, e, 1.0, dtype)  # (B, 11) / (B, 1), broadcast
    preservation_accuracy = _ratio(preservation_correct, p, 1.0, dtype)
    iou = _ratio(edit_correct, (e + p) - preservation_correct, 1.0, dtype)
    if _is_numpy(iou):
        edit_accuracy = edit_accuracy * keep
        preservation_accuracy = preservation_accuracy * keep
    else:
        edit_accuracy = edit_accuracy * keep.to(edit_accuracy.dtype)
        preservation_accuracy = preservation_accuracy * keep.to(preservation_accuracy.dtype)
    over_edit = _ratio(changed[:, MEDIAN_TOLERANCE], edit_pixels.reshape(-1), float("nan"), dtype)
    return {"edit_accuracy": edit_accuracy, "preservation_accuracy": preservation_accuracy,
            "iou": iou, "miou": mean_over_tolerances(iou), "over_edit_ratio": over_edit}


def mean_over_tolerances(values: TensorLike) -> Any:
    """Mean over the last axis (the 11 tolerances) in a fixed order:
    ``(((v0 + v1) + v2) + ... + v10) / 11``, elementwise, so NumPy, torch on any device and
    plain Python (``sum(values) / 11``) give the same bits (a library reduction may sum in
    another order)."""
    total = values[..., 0]
    for t in range(1, values.shape[-1]):
        total = total + values[..., t]
    return total / values.shape[-1]

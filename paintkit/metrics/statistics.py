"""Sufficient statistics of a batch of problems and the figures computed from them.

The update/compute split of torchmetrics: :class:`ToleranceStatistics` holds, per problem,
``|E|``, ``|P|`` and for t = 0..10 the counts CE_t, CP_t and changed_t (metric §6); all other
figures (accuracies, IoU, mIoU, over-edit ratio) are computed from them by the metric's one
compute step, :func:`~paintkit.metrics.compute_step.tolerance_figures`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import numpy as np

from paintkit.metrics.compute_step import MEDIAN_TOLERANCE, tolerance_figures
from paintkit.metrics.counts import counts_from_histograms

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, DTypeLike

TOLERANCES: tuple[int, ...] = tuple(range(11))
__all__ = ["MEDIAN_TOLERANCE", "TOLERANCES", "ToleranceStatistics"]


def _numpy_float(dtype: DTypeLike | None) -> type[np.floating] | None:
    """The NumPy dtype of the CPU figures for a torch float dtype (None: float64), or None
    where the figures stay in torch (another dtype)."""
    import torch  # heavy: already loaded with the counts

    floats: dict[object, type[np.floating]] = {None: np.float64, torch.float64: np.float64,
                                                torch.float32: np.float32}
    return floats.get(dtype)


@dataclass
class ToleranceStatistics:
    """Per-problem counts, torch tensors on one device.

    Attributes:
        edit_pixels: int64 ``(B,)``, ``|E|``.
        preservation_pixels: int64 ``(B,)``, ``|P|``.
        edit_correct: int64 ``(B, 11)``, CE_t for t = 0..10.
        preservation_correct: int64 ``(B, 11)``, CP_t.
        changed: int64 ``(B, 11)``, pixels with ``ΔE(O, I) > t``.
        has_output: bool ``(B,)``; a missing output has all counts 0 (docs/metric-definition.md §8) while
            ``edit_pixels`` / ``preservation_pixels`` keep the problem's region sizes.
    """

    edit_pixels: torch.Tensor
    preservation_pixels: torch.Tensor
    edit_correct: torch.Tensor
    preservation_correct: torch.Tensor
    changed: torch.Tensor
    has_output: torch.Tensor

    @classmethod
    def from_histograms(cls, hist: torch.Tensor, has_output: torch.Tensor
                        ) -> ToleranceStatistics:
        """From ``(B, 3, 12)`` int64 histograms (see :mod:`paintkit.metrics.counts`)."""

        counts = counts_from_histograms(hist)
        keep = has_output.view(-1, 1).to(counts["edit_correct"].dtype)
        return cls(
            edit_pixels=counts["edit_pixels"],
            preservation_pixels=counts["preservation_pixels"],
            edit_correct=counts["edit_correct"] * keep,
            preservation_correct=counts["preservation_correct"] * keep,
            changed=counts["changed"] * keep,
            has_output=has_output,
        )

    @classmethod
    def cat(cls, parts: list[ToleranceStatistics]) -> ToleranceStatistics:
        import torch  # heavy: loaded on first use

        return cls(**{f.name: torch.cat([getattr(p, f.name) for p in parts])
                      for f in fields(cls)})

    def to(self, device: DeviceLike) -> ToleranceStatistics:
        return type(self)(**{f.name: getattr(self, f.name).to(device) for f in fields(self)})

    def __len__(self) -> int:
        return int(self.edit_pixels.shape[0])

    @property
    def device(self) -> torch.device:
        return self.edit_pixels.device

    # ------------------------------------------------------------------ compute step
    def figures(self, dtype: DTypeLike | None = None) -> dict[str, torch.Tensor]:
        """Every figure at once (:func:`~paintkit.metrics.compute_step.tolerance_figures`, on the
        statistics' device): ``edit_accuracy``, ``preservation_accuracy``, ``iou`` ``(B, 11)``,
        ``miou`` and ``over_edit_ratio`` ``(B,)``.

        On the CPU the same operations run on NumPy views of the counts (the same bits:
        :func:`tolerance_figures` is written for both), and the figures come back as tensors
        sharing that memory: a small batch's figures cost about 30 µs instead of 100 (torch's
        per-operation overhead), which a reward call per image pays each time."""
        counts = (self.edit_pixels, self.preservation_pixels, self.edit_correct,
                  self.preservation_correct, self.changed, self.has_output)
        numpy_dtype = _numpy_float(dtype)
        if numpy_dtype is None or self.edit_pixels.device.type != "cpu":
            return tolerance_figures(*counts, dtype)
        import torch  # heavy: already loaded with the counts

        e, p, ce, cp, ch, has = (c.numpy() for c in counts)
        found = tolerance_figures(e, p, ce, cp, ch, has, numpy_dtype)
        return {name: torch.from_numpy(np.asarray(value)) for name, value in found.items()}

    def edit_accuracy(self, dtype: DTypeLike | None = None) -> torch.Tensor:
        """CE_t / |E| (1.0 when |E| = 0; 0 for a missing output), ``(B, 11)``."""
        return self.figures(dtype)["edit_accuracy"]

    def preservation_accuracy(self, dtype: DTypeLike | None = None) -> torch.Tensor:
        """CP_t / |P| (1.0 when |P| = 0; 0 for a missing output), ``(B, 11)``."""
        return self.figures(dtype)["preservation_accuracy"]

    def iou(self, dtype: DTypeLike | None = None) -> torch.Tensor:
        """CE_t / (|E| + IP_t), IP_t = |P| - CP_t (1.0 when the denominator is 0), ``(B, 11)``."""
        return self.figures(dtype)["iou"]

    def miou(self, dtype: DTypeLike | None = None) -> torch.Tensor:
        """Mean of IoU_t over the 11 tolerances, ``(B,)``."""
        return self.figures(dtype)["miou"]

    def over_edit_ratio(self, dtype: DTypeLike | None = None) -> torch.Tensor:
        """changed_5 / |E| (docs/metric-definition.md §10), ``(B,)``; NaN when |E| = 0."""
        return self.figures(dtype)["over_edit_ratio"]

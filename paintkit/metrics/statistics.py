"""Sufficient statistics of a batch of problems and the figures computed from them.

The update/compute split of torchmetrics: :class:`ToleranceStatistics` holds, per problem,
``|E|``, ``|P|`` and for t = 0..10 the counts CE_t, CP_t and changed_t (metric §6); all other
figures (accuracies, IoU, mIoU, over-edit ratio) are computed from them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

TOLERANCES: tuple[int, ...] = tuple(range(11))
MEDIAN_TOLERANCE = 5  # median of 0..10: where the over-edit ratio is read (docs/metric-definition.md §10)


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

    edit_pixels: object
    preservation_pixels: object
    edit_correct: object
    preservation_correct: object
    changed: object
    has_output: object

    @classmethod
    def from_histograms(cls, hist, has_output) -> ToleranceStatistics:
        """From ``(B, 3, 12)`` int64 histograms (see ``paintkit.kernels.tolerance_counts``)."""
        from paintkit.kernels.tolerance_counts import counts_from_histograms

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
        import torch

        return cls(**{f.name: torch.cat([getattr(p, f.name) for p in parts])
                      for f in fields(cls)})

    def to(self, device) -> ToleranceStatistics:
        return type(self)(**{f.name: getattr(self, f.name).to(device) for f in fields(self)})

    def __len__(self) -> int:
        return int(self.edit_pixels.shape[0])

    @property
    def device(self):
        return self.edit_pixels.device

    # ------------------------------------------------------------------ compute step

    def _ratio(self, num, den, empty_value: float, dtype):
        import torch

        num = num.to(dtype)
        den = den.to(dtype)
        value = torch.where(den > 0, num / den.clamp_min(1), torch.full_like(num, empty_value))
        return value

    def edit_accuracy(self, dtype=None):
        """CE_t / |E| (1.0 when |E| = 0; 0 for a missing output), ``(B, 11)``."""
        import torch

        dtype = dtype or torch.float64
        e = self.edit_pixels.view(-1, 1).expand_as(self.edit_correct)
        acc = self._ratio(self.edit_correct, e, 1.0, dtype)
        return acc * self.has_output.view(-1, 1).to(dtype)

    def preservation_accuracy(self, dtype=None):
        """CP_t / |P| (1.0 when |P| = 0; 0 for a missing output), ``(B, 11)``."""
        import torch

        dtype = dtype or torch.float64
        p = self.preservation_pixels.view(-1, 1).expand_as(self.preservation_correct)
        acc = self._ratio(self.preservation_correct, p, 1.0, dtype)
        return acc * self.has_output.view(-1, 1).to(dtype)

    def iou(self, dtype=None):
        """CE_t / (|E| + IP_t), IP_t = |P| - CP_t (1.0 when the denominator is 0), ``(B, 11)``.

        A missing output has CE_t = CP_t = 0, so its IoU is 0 except when |E| = |P| = 0.
        """
        import torch

        dtype = dtype or torch.float64
        den = (self.edit_pixels + self.preservation_pixels).view(-1, 1) - self.preservation_correct
        return self._ratio(self.edit_correct, den, 1.0, dtype)

    def miou(self, dtype=None):
        """Mean of IoU_t over the 11 tolerances, ``(B,)``."""
        return self.iou(dtype).mean(dim=1)

    def over_edit_ratio(self, dtype=None):
        """changed_5 / |E| (docs/metric-definition.md §10), ``(B,)``; NaN when |E| = 0."""
        import torch

        dtype = dtype or torch.float64
        changed = self.changed[:, MEDIAN_TOLERANCE]
        return self._ratio(changed, self.edit_pixels, float("nan"), dtype)

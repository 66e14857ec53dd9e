"""``PixelEditIoU``: the PaintBench metric as a ``torchmetrics.Metric`` (optional dependency).

Install with ``pip install "paintkit[torchmetrics]"``. Its states are sums (added with
``add_state(..., dist_reduce_fx="sum")``), so torchmetrics syncs them across DDP ranks and
the result equals scoring all ranks' problems in one process. States live on the metric's
device; ``update`` never copies pixels to the host.
"""

from __future__ import annotations

import torch  # heavy: loaded on first use
from torchmetrics import Metric

from paintkit.arguments import check_int
from paintkit.metrics.score import tolerance_statistics
from paintkit.metrics.statistics import TOLERANCES
from paintkit.metrics.tolerance import check_tolerance

_PER_TOLERANCE = ("sum_iou", "sum_edit_accuracy", "sum_preservation_accuracy",
                  "edit_correct", "preservation_correct")
_SCALARS = ("problems", "missing", "edit_pixels", "preservation_pixels")


class PixelEditIoU(Metric):
    """Mean over problems of the mIoU (or of IoU_t with ``tolerance=t``), docs/metric-definition.md.

    ``update(preds, target, inputs=None, samples_per_problem=1)`` follows torchmetrics'
    ``(preds, target)`` order: the model outputs, then the answers (or a prepared
    :class:`~paintkit.metrics.Targets`, then ``inputs`` is omitted); it takes what
    :func:`paintkit.metrics.reward` takes, so it sits in a ``MetricCollection`` beside
    ``PeakSignalNoiseRatio`` (the collection hands ``inputs=`` to this metric only).
    ``compute()`` returns a 0-d float32 tensor on the metric's device (the states are
    float64 sums, exact over many updates); :meth:`compute_all` gives the per-tolerance
    figures as a dict of tensors; :meth:`plot` draws the value(s) with torchmetrics'
    plotting (matplotlib).

    Example:
        >>> import torch
        >>> metric = PixelEditIoU()
        >>> inp = torch.zeros(2, 3, 8, 8, dtype=torch.uint8); ans = inp.clone(); ans[:, 0] = 255
        >>> metric.update(ans, ans, inputs=inp)
        >>> metric.compute()
        tensor(1.)
    """

    full_state_update = False
    higher_is_better = True
    is_differentiable = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, tolerance: int | None = None, backend: str = "auto", **kwargs):
        super().__init__(**kwargs)
        self.tolerance = check_tolerance(tolerance, allow_none=True)
        self.backend = backend
        n = len(TOLERANCES)
        for name in _PER_TOLERANCE:
            dtype = torch.int64 if name.endswith("correct") else torch.float64
            self.add_state(name, default=torch.zeros(n, dtype=dtype), dist_reduce_fx="sum")
        for name in _SCALARS:
            self.add_state(name, default=torch.zeros((), dtype=torch.int64),
                           dist_reduce_fx="sum")

    def update(self, preds, target, inputs=None, samples_per_problem: int = 1) -> None:
        """Add a batch: ``preds`` the outputs, ``target`` the answers (or a Targets),
        ``inputs`` the input images."""
        samples_per_problem = check_int(samples_per_problem, "samples_per_problem", 1)
        s = tolerance_statistics(preds, target, inputs, backend=self.backend,
                                 samples_per_problem=samples_per_problem).stats
        if s.device != self.problems.device:
            s = s.to(self.problems.device)  # Numba results (CPU) into a metric on a GPU
        dtype = self.sum_iou.dtype
        self.sum_iou += s.iou(dtype).sum(0)
        self.sum_edit_accuracy += s.edit_accuracy(dtype).sum(0)
        self.sum_preservation_accuracy += s.preservation_accuracy(dtype).sum(0)
        self.edit_correct += s.edit_correct.sum(0)
        self.preservation_correct += s.preservation_correct.sum(0)
        self.problems += len(s)
        self.missing += (~s.has_output).sum()
        self.edit_pixels += s.edit_pixels.sum()
        self.preservation_pixels += s.preservation_pixels.sum()

    def compute(self):
        iou = self.sum_iou / self.problems.clamp_min(1)
        value = iou.mean() if self.tolerance is None else iou[self.tolerance]
        return value.to(torch.float32)

    def plot(self, val=None, ax=None):
        """Plot one value or a sequence of values (``compute()`` results; the current value
        when ``val`` is None) with torchmetrics' plotting; returns ``(figure, axes)``."""
        return self._plot(val, ax)

    def compute_all(self) -> dict:
        """Per-tolerance macro means ``iou``, ``edit_accuracy``, ``preservation_accuracy``
        ``(11,)``, ``miou``, and the counts ``problems`` / ``missing``."""
        n = self.problems.clamp_min(1)
        iou = self.sum_iou / n
        return {"miou": iou.mean(), "iou": iou, "edit_accuracy": self.sum_edit_accuracy / n,
                "preservation_accuracy": self.sum_preservation_accuracy / n,
                "problems": self.problems.clone(), "missing": self.missing.clone()}

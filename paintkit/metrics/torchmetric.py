"""``PixelEditIoU``: the PaintBench metric as a ``torchmetrics.Metric`` (optional dependency).

Install with ``pip install "paintkit[torchmetrics]"``. It is the torchmetrics face of the one
accumulator core (:mod:`paintkit.metrics.accumulator`): the core's state of sums is
registered with ``add_state(..., dist_reduce_fx="sum")``, so torchmetrics syncs it across DDP
ranks and the result equals scoring all ranks' problems in one process; ``update`` adds the
core's batch sums and both :meth:`PixelEditIoU.compute` and :meth:`PixelEditIoU.compute_all`
read the core's figures of the synced state. States live on the metric's device; ``update``
never copies pixels to the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import torch  # heavy: loaded on first use
from torchmetrics import Metric

from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.metrics.accumulator import (
    STATE_NAMES,
    batch_sums,
    score_batch,
    state_figures,
    zero_state,
)
from paintkit.metrics.tolerance import check_tolerance

if TYPE_CHECKING:
    from paintkit.metrics.targets import Targets
    from paintkit.types import ImageBatch


class PixelEditIoU(Metric):
    """Mean over problems of the mIoU (or of IoU_t with ``tolerance=t``), docs/metric-definition.md.

    ``update(preds, target, inputs=None, samples_per_problem=1)`` follows torchmetrics'
    ``(preds, target)`` order: the model outputs, then the answers (or a prepared
    :class:`~paintkit.metrics.Targets`, then ``inputs`` is omitted); it takes what
    :func:`paintkit.metrics.reward` takes, so it sits in a ``MetricCollection`` beside
    ``PeakSignalNoiseRatio`` (the collection hands ``inputs=`` to this metric only).
    ``delta_e`` picks the colour difference as in :class:`~paintkit.metrics.PixelEditIoUAccumulator`
    (``"cie76"``, the benchmark's, by default).
    ``compute()`` returns a 0-d float32 tensor on the metric's device (the states are
    float64 sums, exact over many updates); :meth:`compute_all` gives every figure of
    :meth:`PixelEditIoUAccumulator.compute <paintkit.metrics.PixelEditIoUAccumulator.compute>` as tensors;
    both are synced over DDP ranks. :meth:`plot` draws the value(s) with torchmetrics'
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
    # the states add_state registers (accumulator.STATE_NAMES), as torchmetrics holds them
    problems: torch.Tensor
    sum_iou: torch.Tensor

    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, tolerance: int | None = None, backend: str = "auto",
                 delta_e: str = "cie76", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tolerance = check_tolerance(tolerance, allow_none=True)
        self.backend = backend
        self.delta_e = check_delta_e(delta_e)  # every batch is counted with this formula
        for name, default in zero_state("cpu", torch.float64).items():
            self.add_state(name, default=default, dist_reduce_fx="sum")

    def update(self, preds: ImageBatch, target: ImageBatch | Targets,
               inputs: ImageBatch | None = None, samples_per_problem: int = 1) -> None:
        """Add a batch: ``preds`` the outputs, ``target`` the answers (or a Targets),
        ``inputs`` the input images."""
        stats = score_batch(preds, target, inputs, backend=self.backend,
                            samples_per_problem=samples_per_problem, delta_e=self.delta_e)
        for name, value in batch_sums(stats, self.problems.device, self.sum_iou.dtype).items():
            getattr(self, name).add_(value)  # in place, on the states' device

    def _figures(self) -> dict[str, torch.Tensor]:
        return state_figures({name: getattr(self, name) for name in STATE_NAMES})

    def compute(self) -> torch.Tensor:
        figures = self._figures()
        value = figures["miou"] if self.tolerance is None else figures["iou"][self.tolerance]
        return value.to(torch.float32)

    def compute_all(self) -> dict[str, torch.Tensor]:
        """Every figure of the problems of all ranks (synced as :meth:`compute` is), tensors
        on the metric's device: ``miou`` and ``over_edit_ratio`` (0-d), per tolerance
        ``(11,)`` the macro means ``iou``, ``edit_accuracy``, ``preservation_accuracy`` and
        the pooled ``micro_iou``, ``micro_edit_accuracy``, ``micro_preservation_accuracy``,
        and the counts ``problems`` / ``missing`` (:func:`~paintkit.metrics.accumulator.state_figures`)."""
        # What torchmetrics wraps compute() in: sum the states over the ranks, read them,
        # then restore this rank's own states so that accumulation goes on.
        with self.sync_context(dist_sync_fn=self.dist_sync_fn, should_sync=self._to_sync,
                               should_unsync=self._should_unsync):
            return {name: value.clone() for name, value in self._figures().items()}

    def plot(self, val: torch.Tensor | Sequence[torch.Tensor] | None = None, ax: Any = None
             ) -> tuple[Any, Any]:
        """Plot one value or a sequence of values (``compute()`` results; the current value
        when ``val`` is None) with torchmetrics' plotting; returns ``(figure, axes)``."""
        return self._plot(val, ax)

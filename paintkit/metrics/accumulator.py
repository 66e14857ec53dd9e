"""The stateful metric: one accumulator core, two faces.

The core is three functions over one state, a dict of sums (tensors on one device):
:func:`zero_state` (the state before any batch), :func:`batch_sums` (what one batch of
:class:`~paintkit.metrics.ToleranceStatistics` adds to it) and :func:`state_figures` (the
figures of all problems seen, from the sums, through
:func:`~paintkit.metrics.compute_step.tolerance_figures`). Because the state is sums, states
of different batches, workers or processes combine by addition.

Its faces: :class:`PixelEditIoUAccumulator` (plain Python: ``update`` / ``compute`` / ``merge`` /
``sync``, figures as Python numbers) and :class:`~paintkit.metrics.PixelEditIoU` (the
same state registered as ``torchmetrics`` states, so torchmetrics syncs it over DDP ranks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.metrics.batch_scoring import tolerance_statistics
from paintkit.metrics.compute_step import mean_over_tolerances, tolerance_figures
from paintkit.metrics.statistics import TOLERANCES, ToleranceStatistics
from paintkit.old_names import deprecated_aliases

if TYPE_CHECKING:
    import torch

    from paintkit.metrics.targets import Targets
    from paintkit.types import DeviceLike, DTypeLike, ImageBatch

#: The accumulator's state: :data:`STATE_NAMES` -> tensors on one device.
State: TypeAlias = "dict[str, torch.Tensor]"

#: Sums of per-problem figures, float ``(11,)``: the macro means divide them by ``problems``.
FIGURE_SUMS = ("sum_edit_accuracy", "sum_preservation_accuracy", "sum_iou")
#: Pixel counts summed over problems, int64 ``(11,)``: the pooled (micro) figures.
COUNT_SUMS = ("edit_correct", "preservation_correct", "changed")
#: Float scalar: the over-edit ratios of the problems with ``|E| > 0``.
RATIO_SUM = "sum_over_edit_ratio"
#: Int64 scalars.
COUNTS = ("problems", "missing", "over_edit_problems", "edit_pixels", "preservation_pixels")
STATE_NAMES = FIGURE_SUMS + COUNT_SUMS + (RATIO_SUM,) + COUNTS
#: What :func:`state_figures` returns (and ``PixelEditIoUAccumulator.compute``, ``compute_all``).
FIGURE_NAMES = ("problems", "missing", "miou", "iou", "edit_accuracy", "preservation_accuracy",
                "over_edit_ratio", "micro_iou", "micro_edit_accuracy",
                "micro_preservation_accuracy")


def float_dtype(device: DeviceLike) -> torch.dtype:
    """float64 sums where the device has float64, else float32 (e.g. Apple MPS)."""
    import torch  # heavy: loaded on first use

    return torch.float32 if torch.device(device).type == "mps" else torch.float64


def zero_state(device: DeviceLike, dtype: DTypeLike | None = None) -> State:
    """The empty state on ``device``: :data:`STATE_NAMES` -> zero tensors (float sums in
    ``dtype``, default :func:`float_dtype`; counts int64)."""
    import torch  # heavy: loaded on first use

    dtype = dtype or float_dtype(device)
    n = len(TOLERANCES)
    state = {name: torch.zeros(n, dtype=dtype, device=device) for name in FIGURE_SUMS}
    state.update({name: torch.zeros(n, dtype=torch.int64, device=device)
                  for name in COUNT_SUMS})
    state[RATIO_SUM] = torch.zeros((), dtype=dtype, device=device)
    state.update({name: torch.zeros((), dtype=torch.int64, device=device) for name in COUNTS})
    return state


def batch_sums(stats: ToleranceStatistics, device: DeviceLike, dtype: DTypeLike
               ) -> dict[str, Any]:
    """What a batch adds to the state: :data:`STATE_NAMES` -> tensors on ``device`` (float
    sums in ``dtype``; ``problems`` a Python int, added on the device without a copy from
    the host), from the batch's per-problem figures
    (:meth:`~paintkit.metrics.ToleranceStatistics.figures`, computed once)."""
    s = stats if stats.device == device else stats.to(device)  # Numba results onto a GPU
    figures = s.figures(dtype)
    ratio = figures["over_edit_ratio"]
    return {
        "sum_edit_accuracy": figures["edit_accuracy"].sum(0),
        "sum_preservation_accuracy": figures["preservation_accuracy"].sum(0),
        "sum_iou": figures["iou"].sum(0),
        "edit_correct": s.edit_correct.sum(0),
        "preservation_correct": s.preservation_correct.sum(0),
        "changed": s.changed.sum(0),
        RATIO_SUM: ratio.nan_to_num(0.0, posinf=0.0, neginf=0.0).sum(),
        "problems": len(s),
        "missing": (~s.has_output).sum(),
        "over_edit_problems": ratio.isfinite().sum(),
        "edit_pixels": s.edit_pixels.sum(),
        "preservation_pixels": s.preservation_pixels.sum(),
    }


def state_figures(state: State) -> dict[str, torch.Tensor]:
    """The figures of every problem summed into ``state``, tensors on its device.

    Returns :data:`FIGURE_NAMES`: ``problems``, ``missing`` (int64 scalars); ``miou``
    (the mean over tolerances of ``iou``); per tolerance ``(11,)``: ``iou``,
    ``edit_accuracy``, ``preservation_accuracy`` (macro means over problems, the benchmark's
    figures) and ``micro_iou``, ``micro_edit_accuracy``, ``micro_preservation_accuracy``
    (pooled: the figures of :func:`~paintkit.metrics.compute_step.tolerance_figures` of the summed
    pixel counts); ``over_edit_ratio`` (mean over the problems with ``|E| > 0``, NaN if none).
    With no problem the macro means are 0.
    """
    import torch  # heavy: loaded on first use

    n = state["problems"].clamp_min(1)
    iou = state["sum_iou"] / n
    dtype = iou.dtype
    ones = torch.ones(1, dtype=torch.bool, device=n.device)
    pooled = tolerance_figures(state["edit_pixels"].reshape(1),
                               state["preservation_pixels"].reshape(1),
                               state["edit_correct"].reshape(1, -1),
                               state["preservation_correct"].reshape(1, -1),
                               state["changed"].reshape(1, -1), ones, dtype)
    k = state["over_edit_problems"]
    over_edit = torch.where(k > 0, state[RATIO_SUM] / k.clamp_min(1),
                            torch.full_like(state[RATIO_SUM], float("nan")))
    return {
        "problems": state["problems"], "missing": state["missing"],
        "miou": mean_over_tolerances(iou), "iou": iou,
        "edit_accuracy": state["sum_edit_accuracy"] / n,
        "preservation_accuracy": state["sum_preservation_accuracy"] / n,
        "over_edit_ratio": over_edit,
        "micro_iou": pooled["iou"][0], "micro_edit_accuracy": pooled["edit_accuracy"][0],
        "micro_preservation_accuracy": pooled["preservation_accuracy"][0],
    }


def score_batch(outputs: ImageBatch, answers: ImageBatch | Targets, inputs: ImageBatch | None, *,
                backend: str, samples_per_problem: int,
                delta_e: str) -> ToleranceStatistics:
    """The update step both faces run on a batch (:func:`paintkit.metrics.tolerance_statistics`)."""
    return tolerance_statistics(outputs, answers, inputs, backend=backend,
                                samples_per_problem=samples_per_problem, delta_e=delta_e).stats


class PixelEditIoUAccumulator:
    """Accumulates scores over batches; ``compute()`` gives means over all problems.

    Per-problem figures are macro-averaged (the mean of each problem's accuracy/IoU, as the
    benchmark reports them); the pooled ``micro_*`` figures use summed pixel counts.

    The state stays on the device of the statistics (CUDA outputs: CUDA state; nothing is
    copied to the host before :meth:`compute`); float sums are float64 except on devices
    without float64, where they are float32.

    Example:
        >>> import numpy as np
        >>> acc = PixelEditIoUAccumulator()
        >>> inp = np.zeros((2, 8, 8, 3), np.uint8); ans = inp.copy(); ans[:, :4] = 255
        >>> _ = acc.update(ans, ans, inp)
        >>> acc.compute()["miou"]
        1.0
    """

    def __init__(self, backend: str = "auto", device: DeviceLike | None = None,
                 delta_e: str = "cie76") -> None:
        self.backend = backend
        self.device = device
        self.state: State | None
        self.delta_e = check_delta_e(delta_e)  # every batch is counted with this formula
        self.reset()

    def reset(self) -> None:
        """Empty state; it lives on ``device`` (default: the first batch's device)."""
        self.state = None if self.device is None else zero_state(self.device)

    def update(self, outputs: ImageBatch, answers: ImageBatch, inputs: ImageBatch | None = None,
               *, samples_per_problem: int = 1) -> ToleranceStatistics:
        """Score a batch (same arguments as :func:`paintkit.metrics.score`) and add it."""
        stats = score_batch(outputs, answers, inputs, backend=self.backend,
                            samples_per_problem=samples_per_problem, delta_e=self.delta_e)
        self.update_statistics(stats)
        return stats

    def update_statistics(self, stats: ToleranceStatistics) -> None:
        """Add already computed per-problem statistics, on their device (no host copy)."""
        if self.state is None:
            self.state = zero_state(stats.device)
        st = self.state
        for name, value in batch_sums(stats, st["problems"].device, st["sum_iou"].dtype).items():
            st[name] += value

    def merge(self, other: PixelEditIoUAccumulator) -> PixelEditIoUAccumulator:
        """Add another accumulator's state into this one (returns self)."""
        if getattr(other, "delta_e", "cie76") != self.delta_e:
            raise ValueError(f"merge: this accumulator counts with {self.delta_e!r}, the other "
                             f"with {other.delta_e!r}; sums of two formulas do not mix")
        if other.state is None:
            return self
        if self.state is None:
            self.state = zero_state(other.state["problems"].device)
        for key, value in other.state.items():
            self.state[key] += value.to(self.state[key].device)
        return self

    def state_dict(self) -> State:
        state = self.state if self.state is not None else zero_state("cpu")
        return {k: v.clone() for k, v in state.items()}

    def load_state_dict(self, state: State) -> None:
        self.state = {k: v.clone() for k, v in state.items()}

    def sync(self, group: Any = None, device: DeviceLike | None = None) -> None:
        """Sum the state over all processes of ``torch.distributed`` (no-op if not running).

        ``device``: where the all-reduce happens (e.g. ``"cuda"`` for NCCL); default: where
        the state lives. The state stays where it was.
        """
        import torch.distributed as dist  # heavy: loaded on first use

        if not (dist.is_available() and dist.is_initialized()):
            return
        if self.state is None:
            self.state = zero_state(device or "cpu")
        for key, value in self.state.items():
            moved = value.to(device) if device is not None else value.clone()
            dist.all_reduce(moved, op=dist.ReduceOp.SUM, group=group)
            self.state[key] = moved.to(value.device)

    def compute(self) -> dict[str, Any]:
        """Means over all problems seen, as Python numbers (:func:`state_figures`).

        Returns a dict with ``problems``, ``missing``, ``miou``, per-tolerance lists
        ``iou``, ``edit_accuracy``, ``preservation_accuracy`` (macro means),
        ``over_edit_ratio`` (mean over problems with |E| > 0), and pooled
        ``micro_iou`` / ``micro_edit_accuracy`` / ``micro_preservation_accuracy``.
        """
        if self.state is None or int(self.state["problems"]) == 0:
            raise ValueError("compute: no problems accumulated yet (call update first)")
        figures = state_figures({k: v.cpu() for k, v in self.state.items()})
        return {name: figures[name].tolist() for name in FIGURE_NAMES}


__getattr__ = deprecated_aliases(__name__, {"ScoreAccumulator": "PixelEditIoUAccumulator"})

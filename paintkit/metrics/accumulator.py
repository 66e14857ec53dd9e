"""A stateful accumulator (torchmetrics-style ``update`` / ``compute``) over many batches.

Its state is a handful of sums, so accumulators from different batches, workers or
processes combine by addition (:meth:`ScoreAccumulator.merge`, :meth:`ScoreAccumulator.sync`).
"""

from __future__ import annotations

from paintkit.arguments import check_int
from paintkit.kernels.delta_e import check_delta_e
from paintkit.metrics.score import tolerance_statistics
from paintkit.metrics.statistics import TOLERANCES, ToleranceStatistics

_FLOAT_STATE = ("sum_edit_accuracy", "sum_preservation_accuracy", "sum_iou",
                "sum_over_edit_ratio")
_INT_STATE = ("problems", "missing", "over_edit_problems", "edit_pixels",
              "preservation_pixels", "edit_correct", "preservation_correct", "changed")


def _float_dtype(device):
    """float64 sums where the device has float64, else float32 (e.g. Apple MPS)."""
    import torch  # heavy: loaded on first use

    return torch.float32 if torch.device(device).type == "mps" else torch.float64


def _zero_state(device) -> dict:
    import torch  # heavy: loaded on first use

    n = len(TOLERANCES)
    f, i = _float_dtype(device), torch.int64
    shapes = {key: (n,) for key in ("sum_edit_accuracy", "sum_preservation_accuracy", "sum_iou",
                                    "edit_correct", "preservation_correct", "changed")}
    return {key: torch.zeros(shapes.get(key, ()), dtype=f if key in _FLOAT_STATE else i,
                             device=device) for key in _FLOAT_STATE + _INT_STATE}


class ScoreAccumulator:
    """Accumulates scores over batches; ``compute()`` gives means over all problems.

    Per-problem figures are macro-averaged (the mean of each problem's accuracy/IoU, as the
    benchmark reports them); the pooled ``micro_*`` figures use summed pixel counts.

    The state stays on the device of the statistics (CUDA outputs: CUDA state; nothing is
    copied to the host before :meth:`compute`); float sums are float64 except on devices
    without float64, where they are float32.

    Example:
        >>> import numpy as np
        >>> acc = ScoreAccumulator()
        >>> inp = np.zeros((2, 8, 8, 3), np.uint8); ans = inp.copy(); ans[:, :4] = 255
        >>> _ = acc.update(ans, ans, inp)
        >>> acc.compute()["miou"]
        1.0
    """

    def __init__(self, backend: str = "auto", device=None, delta_e: str = "cie76"):
        self.backend = backend
        self.device = device
        self.delta_e = check_delta_e(delta_e)  # every batch is counted with this formula
        self.reset()

    def reset(self) -> None:
        """Empty state; it lives on ``device`` (default: the first batch's device)."""
        self.state = None if self.device is None else _zero_state(self.device)

    def update(self, outputs, answers, inputs=None, *, samples_per_problem: int = 1
               ) -> ToleranceStatistics:
        """Score a batch (same arguments as :func:`paintkit.metrics.score`) and add it."""
        samples_per_problem = check_int(samples_per_problem, "samples_per_problem", 1)
        stats = tolerance_statistics(outputs, answers, inputs, backend=self.backend,
                                     samples_per_problem=samples_per_problem,
                                     delta_e=self.delta_e).stats
        self.update_statistics(stats)
        return stats

    def update_statistics(self, stats: ToleranceStatistics) -> None:
        """Add already computed per-problem statistics, on their device (no host copy)."""
        if self.state is None:
            self.state = _zero_state(stats.device)
        device = self.state["problems"].device
        s = stats if stats.device == device else stats.to(device)
        st = self.state
        dtype = st["sum_iou"].dtype
        st["sum_edit_accuracy"] += s.edit_accuracy(dtype).sum(0)
        st["sum_preservation_accuracy"] += s.preservation_accuracy(dtype).sum(0)
        st["sum_iou"] += s.iou(dtype).sum(0)
        ratio = s.over_edit_ratio(dtype)
        finite = ratio.isfinite()
        st["sum_over_edit_ratio"] += ratio.nan_to_num(0.0, posinf=0.0, neginf=0.0).sum()
        st["over_edit_problems"] += finite.sum()
        st["problems"] += len(s)
        st["missing"] += (~s.has_output).sum()
        st["edit_pixels"] += s.edit_pixels.sum()
        st["preservation_pixels"] += s.preservation_pixels.sum()
        st["edit_correct"] += s.edit_correct.sum(0)
        st["preservation_correct"] += s.preservation_correct.sum(0)
        st["changed"] += s.changed.sum(0)

    def merge(self, other: ScoreAccumulator) -> ScoreAccumulator:
        """Add another accumulator's state into this one (returns self)."""
        if getattr(other, "delta_e", "cie76") != self.delta_e:
            raise ValueError(f"merge: this accumulator counts with {self.delta_e!r}, the other "
                             f"with {other.delta_e!r}; sums of two formulas do not mix")
        if other.state is None:
            return self
        if self.state is None:
            self.state = _zero_state(other.state["problems"].device)
        for key, value in other.state.items():
            self.state[key] += value.to(self.state[key].device)
        return self

    def state_dict(self) -> dict:
        state = self.state if self.state is not None else _zero_state("cpu")
        return {k: v.clone() for k, v in state.items()}

    def load_state_dict(self, state: dict) -> None:
        self.state = {k: v.clone() for k, v in state.items()}

    def sync(self, group=None, device=None) -> None:
        """Sum the state over all processes of ``torch.distributed`` (no-op if not running).

        ``device``: where the all-reduce happens (e.g. ``"cuda"`` for NCCL); default: where
        the state lives. The state stays where it was.
        """
        import torch.distributed as dist  # heavy: loaded on first use

        if not (dist.is_available() and dist.is_initialized()):
            return
        if self.state is None:
            self.state = _zero_state(device or "cpu")
        for key, value in self.state.items():
            moved = value.to(device) if device is not None else value.clone()
            dist.all_reduce(moved, op=dist.ReduceOp.SUM, group=group)
            self.state[key] = moved.to(value.device)

    def compute(self) -> dict:
        """Means over all problems seen.

        Returns a dict with ``problems``, ``missing``, ``miou``, per-tolerance lists
        ``iou``, ``edit_accuracy``, ``preservation_accuracy`` (macro means),
        ``over_edit_ratio`` (mean over problems with |E| > 0), and pooled
        ``micro_iou`` / ``micro_edit_accuracy`` / ``micro_preservation_accuracy``.
        """
        st = {k: v.cpu() for k, v in self.state.items()} if self.state is not None else {}
        n = int(st["problems"]) if st else 0
        if n == 0:
            raise ValueError("compute: no problems accumulated yet (call update first)")
        iou = (st["sum_iou"] / n).tolist()
        e, p = int(st["edit_pixels"]), int(st["preservation_pixels"])
        ce, cp = st["edit_correct"].tolist(), st["preservation_correct"].tolist()
        micro_iou = [c / (e + p - q) if e + p - q else 1.0 for c, q in zip(ce, cp, strict=True)]
        k = int(st["over_edit_problems"])
        return {
            "problems": n,
            "missing": int(st["missing"]),
            "miou": sum(iou) / len(iou),
            "iou": iou,
            "edit_accuracy": (st["sum_edit_accuracy"] / n).tolist(),
            "preservation_accuracy": (st["sum_preservation_accuracy"] / n).tolist(),
            "over_edit_ratio": float(st["sum_over_edit_ratio"]) / k if k else float("nan"),
            "micro_iou": micro_iou,
            "micro_edit_accuracy": [c / e if e else 1.0 for c in ce],
            "micro_preservation_accuracy": [c / p if p else 1.0 for c in cp],
        }

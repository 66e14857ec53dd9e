"""``stream_pixel_miou(outputs, problems)`` for hand-written loops over ``ProblemStream`` batches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paintkit.arguments import check_int
from paintkit.kernels import numba_lock
from paintkit.metrics import targets as metric_targets
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.metrics.training_reward import reward
from paintkit.old_names import deprecated_aliases

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch


def batch_targets(problems: dict[str, Any], device: DeviceLike | None = None
                  ) -> metric_targets.Targets:
    """A batch from :class:`paintkit.data.ProblemStream` -> its prepared
    :class:`~paintkit.metrics.Targets` on ``device`` (once per batch; reuse them for every
    step and sample): :func:`paintkit.prepare_targets` of its answers and inputs."""
    for key in ("answer", "input"):
        if key not in problems:
            raise ValueError(f"problems: expected a ProblemStream batch with 'answer' and "
                             f"'input', got keys {sorted(problems)}")
    return metric_targets.prepare_targets(problems["answer"], problems["input"], device=device)


def stream_pixel_miou(outputs: ImageBatch, problems: dict[str, Any] | metric_targets.Targets, *,
              samples_per_problem: int = 1, fit: str = DEFAULT_FIT, tolerance: int | None = None
              ) -> torch.Tensor:
    """Per-output mIoU ``(B,)`` on the outputs' device.

    Args:
        outputs: float ``(B, 3, H, W)`` in [0, 1] or uint8, or a list of per-problem images
            (mixed canvas sizes); ``samples_per_problem`` outputs per problem, problem-major.
        problems: a ``ProblemStream`` batch (dict with ``"answer"`` and ``"input"``, stacked
            or lists), or targets from :func:`batch_targets` (faster: prepared once).
        fit: ``"exact"`` (default: another size is an error) / ``"cover"`` / ``"stretch"``,
            as in :func:`paintkit.reward` (see :mod:`paintkit.metrics.fit`).
    """
    check_fit(fit)
    samples_per_problem = check_int(samples_per_problem, "samples_per_problem", 1)
    with numba_lock():  # safe from several threads; a no-op with Numba's TBB layer
        targets = problems if isinstance(problems, metric_targets.Targets) else batch_targets(problems)
        return reward(outputs, targets, samples_per_problem=samples_per_problem,
                      tolerance=tolerance, fit=fit)


__getattr__ = deprecated_aliases(__name__, {"reward_fn": "stream_pixel_miou"})

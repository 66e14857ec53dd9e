"""``reward``: per-problem mIoU (or IoU at one tolerance) as a tensor, for training loops."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paintkit.arguments import check_int
from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.metrics import tolerance as tolerance_check
from paintkit.metrics.batch_scoring import fused_cuda_reward, tolerance_statistics
from paintkit.metrics.coerce import is_tensor
from paintkit.metrics.fit import DEFAULT_FIT, check_fit, fit_outputs
from paintkit.metrics.targets import Targets, prepare_targets

if TYPE_CHECKING:
    import torch

    from paintkit.types import ImageBatch


def reward(outputs: ImageBatch, targets: ImageBatch | Targets, inputs: ImageBatch | None = None,
           *, tolerance: int | None = None, backend: str = "auto", samples_per_problem: int = 1,
           delta_e: str = "cie76", fit: str = DEFAULT_FIT) -> torch.Tensor:
    """Reward of each output: its mIoU over t = 0..10, or its IoU at ``tolerance``.

    Args:
        outputs: model outputs, e.g. a ``(B, 3, H, W)`` float tensor in [0, 1] or uint8;
            any form :func:`paintkit.metrics.score` accepts.
        targets: a :class:`paintkit.metrics.Targets` from
            ``prepare_targets(answers, inputs)`` (prepare once, reuse every step), or the
            answers themselves together with ``inputs``.
        inputs: the input images when ``targets`` are raw answers.
        tolerance: None for mIoU, or an integer 0..10 for IoU_t.
        backend: as in :func:`paintkit.metrics.score`.
        samples_per_problem: G outputs per problem (GRPO), problem-major: outputs
            ``k * G .. k * G + G - 1`` are scored against target ``k`` (never copied).
        delta_e: ``"cie76"`` (default, the benchmark's), ``"cie94"`` or ``"ciede2000"``.
        fit: outputs of another size than their answer: ``"exact"`` (default: a mismatch is
            an error naming the choices), ``"cover"`` (the metric's own normalisation, what
            :func:`~paintkit.metrics.score` and ``paintkit eval`` do) or ``"stretch"``; see
            :mod:`paintkit.metrics.fit`.

    Returns:
        float32 tensor ``(B,)`` on the outputs' device (for lists of tensors: theirs; CPU for
        arrays, images and paths), in input order. Nothing is copied between host and
        device. Float outputs outside [0, 1] (or NaN) raise ``ValueError``, except a float
        CUDA batch counted by the fused kernel: reading that check back would stall the
        device every step, so its rewards are NaN instead (``score`` raises).
        Not differentiable: the metric counts pixels (see
        :func:`paintkit.metrics.soft_reward` for a differentiable surrogate).

    Example:
        >>> import torch
        >>> inp = torch.zeros(2, 3, 8, 8, dtype=torch.uint8); ans = inp.clone(); ans[:, 0] = 255
        >>> reward(ans, ans, inp)
        tensor([1., 1.])
    """
    import torch  # heavy: loaded on first use

    tolerance = tolerance_check.check_tolerance(tolerance, allow_none=True)
    samples_per_problem = check_int(samples_per_problem, "samples_per_problem", 1)
    check_fit(fit)
    delta_e = check_delta_e(delta_e)  # before any work: a typo fails fast
    targets, inputs = prepare_targets(targets, inputs), None
    outputs = fit_outputs(outputs, targets, fit, samples_per_problem)
    if is_tensor(outputs) and outputs.device.type == "cuda":
        rewards = fused_cuda_reward(outputs, targets, backend, samples_per_problem, tolerance,
                                    delta_e=delta_e)
        if rewards is not None:  # a CUDA batch: counts and rewards in one kernel launch
            return rewards
    batch = tolerance_statistics(outputs, targets, inputs, backend=backend,
                                 samples_per_problem=samples_per_problem, delta_e=delta_e)
    return reward_of_figures(batch.stats.figures(torch.float64), tolerance)


def reward_of_figures(figures: dict, tolerance: int | None = None) -> torch.Tensor:
    """What :func:`reward` returns, from the float64 figures of the same counts
    (``ToleranceStatistics.figures(torch.float64)``): float32 ``(B,)``, the mIoU or the IoU
    at ``tolerance``. For a caller that wants the per-tolerance IoUs too, without counting
    twice. float64 figures, then float32: the fixed-order mean of the tolerance figures, so a
    reward has the same bits on every device (and equals ``float32(score(...).miou)``)."""
    import torch  # heavy: already loaded with the figures

    value = figures["miou"] if tolerance is None else figures["iou"][:, tolerance]
    return value.to(torch.float32)


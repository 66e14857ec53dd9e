"""``reward``: per-problem mIoU (or IoU at one tolerance) as a tensor, for training loops."""

from __future__ import annotations

import numbers

import numpy as np

from paintkit.metrics.score import tolerance_statistics


def check_tolerance(tolerance):
    """``None`` or an integer 0..10 (Python or NumPy integer) as an ``int``; ``bool`` refused."""
    if tolerance is None:
        return None
    if isinstance(tolerance, bool | np.bool_) or not isinstance(tolerance, numbers.Integral) \
            or not 0 <= int(tolerance) <= 10:
        raise ValueError(f"tolerance: expected None or an integer 0..10, got {tolerance!r} "
                         f"({type(tolerance).__name__})")
    return int(tolerance)


def reward(outputs, targets, inputs=None, *, tolerance: int | None = None,
           backend: str = "auto"):
    """Reward of each output: its mIoU over t = 0..10, or its IoU at ``tolerance``.

    Args:
        outputs: model outputs, e.g. a ``(B, 3, H, W)`` float tensor in [0, 1] or uint8;
            any form :func:`paintkit.metrics.score` accepts.
        targets: a :class:`paintkit.metrics.Reference` from
            ``prepare_reference(answers, inputs)`` (prepare once, reuse every step), or the
            answers themselves together with ``inputs``.
        inputs: the input images when ``targets`` are raw answers.
        tolerance: None for mIoU, or an integer 0..10 for IoU_t.
        backend: as in :func:`paintkit.metrics.score`.

    Returns:
        float32 tensor ``(B,)`` on the outputs' device (CPU for lists and arrays). Not
        differentiable: the metric counts pixels.

    Example:
        >>> import torch
        >>> inp = torch.zeros(2, 3, 8, 8, dtype=torch.uint8); ans = inp.clone(); ans[:, 0] = 255
        >>> reward(ans, ans, inp)
        tensor([1., 1.])
    """
    import torch

    tolerance = check_tolerance(tolerance)
    stats = tolerance_statistics(outputs, targets, inputs, backend=backend).stats
    device = outputs.device if isinstance(outputs, torch.Tensor) else torch.device("cpu")
    iou = stats.iou(torch.float64)
    value = iou.mean(dim=1) if tolerance is None else iou[:, tolerance]
    return value.to(device=device, dtype=torch.float32)

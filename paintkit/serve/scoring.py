"""One batch of decoded images -> rewards, on top of :func:`paintkit.metrics.tolerance_statistics`.

Items gathered from concurrent requests are grouped by problem (the G samples of a prompt
share one prepared target) and each group is one call of the update step with
``samples_per_problem = G``; the reward is then what :func:`paintkit.metrics.reward`
returns from the same statistics: the mean of the float32 IoU row over t = 0..10, or one
entry of it. A group whose scoring raises fails only its own items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paintkit.kernels import numba_lock
from paintkit.metrics.score import tolerance_statistics
from paintkit.rewards.fit import fit_output


@dataclass
class ScoreItem:
    """One image to score: uint8 ``(H, W, 3)`` pixels against a prepared single-problem
    target, how to fit its size (``exact``/``cover``/``stretch``), the tolerance (None: mIoU)
    and whether the 11 per-tolerance IoUs are returned too."""

    problem_id: str
    target: object
    image: np.ndarray
    fit: str = "exact"
    tolerance: int | None = None
    figures: bool = False


def score_group(images: list, target, device):
    """float32 IoU ``(G, 11)`` of ``G`` images (already fitted) of one problem."""
    import torch  # heavy: loaded on first use

    if device.type == "cpu":
        outputs = images  # NumPy arrays: the Numba kernels read them in place
        if all(x.shape == images[0].shape for x in images):
            outputs = np.stack(images)
    else:
        outputs = [torch.from_numpy(np.ascontiguousarray(x)).to(device) for x in images]
        if all(x.shape == outputs[0].shape for x in outputs):
            outputs = torch.stack(outputs)
    with numba_lock():
        stats = tolerance_statistics(outputs, target, samples_per_problem=len(images)).stats
    return stats.iou(torch.float32)


def score_items(items: list[ScoreItem], device) -> list:
    """Per item a result dict ``{"problem_id", "reward", "iou"?}`` or the exception its
    group raised."""
    groups: dict = {}
    for k, item in enumerate(items):
        groups.setdefault(id(item.target), []).append(k)
    results: list = [None] * len(items)
    for rows in groups.values():
        target = items[rows[0]].target
        try:
            size = target.answer_size(0)
            images = [fit_output(items[k].image, size, items[k].fit) for k in rows]
            iou = score_group(images, target, device).cpu()
        except Exception as exc:  # noqa: BLE001 - reported to this group's requests only
            for k in rows:
                results[k] = exc
            continue
        miou = iou.mean(dim=1)
        for j, k in enumerate(rows):
            item = items[k]
            value = miou[j] if item.tolerance is None else iou[j, item.tolerance]
            result = {"problem_id": item.problem_id, "reward": float(value)}
            if item.figures:
                result["iou"] = [float(v) for v in iou[j]]
            results[k] = result
    return results

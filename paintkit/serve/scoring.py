"""One batch of decoded images -> rewards: :func:`paintkit.metrics.reward` on prepared targets.

Items gathered from concurrent requests are grouped by tolerance and problem (the G samples
of a prompt share one prepared target); each problem's group is one call of ``reward`` with
``samples_per_problem = G``, or on the CPU all problems of one tolerance are one call (a
target per image): the reward is the in-process reward by construction (a problem's counts
do not depend on the others in its call). When the 11 per-tolerance IoUs are asked for,
the reward and the IoUs come from one count of the pixels
(:func:`paintkit.metrics.tolerance_statistics`, then
:func:`~paintkit.metrics.training_reward.reward_of_figures`), the IoUs as float32 of its float64
figures (what ``reward(..., tolerance=t)`` returns for each t). A problem whose scoring
raises fails only its own items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paintkit.kernels import numba_lock
from paintkit.metrics.batch_scoring import tolerance_statistics
from paintkit.metrics.fit import fit_output
from paintkit.metrics.targets import Targets
from paintkit.metrics.training_reward import reward, reward_of_figures


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


def kernel_threads(n: int) -> None:
    """Before each batch of a CPU service with several scoring threads: its kernels run on
    ``n`` cores (Numba's thread count is per thread). Under load ``n`` is 1: each thread's
    kernels run in the thread itself, the threads together fill the cores, and no pool of
    Numba workers spin-waits between batches on cores the event loop needs (about 0.8 ms of
    CPU per 1024x1024 reward; docs/performance.md). A batch that starts while other scoring
    threads are idle with nothing queued takes their cores too (a lone request, the last
    ones of a burst). The counting kernels release the GIL; the counts do not depend on the
    thread count."""
    import numba  # numba: loaded with the kernels already, named here for the type checker

    numba.set_num_threads(max(1, min(n, numba.config.NUMBA_NUM_THREADS)))


def _outputs(images: list, device):
    """The images as the metric takes them: on the CPU a list of the NumPy images (the
    Numba kernel counts each in place, against its problem's answer and input; a stacked
    batch would copy every image, about 0.3 ms per 1024x1024 image, page faults included),
    tensors on ``device`` otherwise, stacked when they share a size."""
    import torch  # heavy: loaded on first use

    if device.type != "cpu":
        images = [torch.from_numpy(np.ascontiguousarray(x)).to(device) for x in images]
        return torch.stack(images) if all(x.shape == images[0].shape for x in images) else images
    return list(images)


def score_group(images: list, target, device, tolerance: int | None = None,
                figures: bool = False, samples: int | None = None):
    """Rewards float32 ``(G,)`` of ``G`` images (already fitted), and their per-tolerance
    IoUs float32 ``(G, 11)`` when ``figures`` (else None). ``samples``: images per problem
    of ``target`` (None: all ``G``, of its one problem; 1: one problem per image)."""
    import torch  # heavy: loaded on first use

    outputs = _outputs(images, device)
    samples = len(images) if samples is None else samples
    with numba_lock():
        if not figures:
            return reward(outputs, target, samples_per_problem=samples, tolerance=tolerance,
                          fit="cover"), None  # fitted by score_items: what is left, the metric's
        # the reward and the IoUs from one count of the pixels
        stats = tolerance_statistics(outputs, target, samples_per_problem=samples).stats
    found = stats.figures(torch.float64)
    return reward_of_figures(found, tolerance), found["iou"].to(torch.float32)


def score_items(items: list[ScoreItem], device) -> list:
    """Per item a result dict ``{"problem_id", "reward", "iou"?}`` or the exception that
    failed it.

    On a CUDA device each problem's items are one call (its prepared target stays cached
    on the device). On the CPU the items of one tolerance are one call whatever their
    problems (a list of their answers and inputs, not copied): a call costs about 0.2 ms
    besides its kernels, which a batch of several problems then pays once; if that call
    raises, each problem is scored alone, so only the failing problem's items fail."""
    results: list = [None] * len(items)
    images: list = [None] * len(items)
    problems: dict = {}
    for k, item in enumerate(items):
        try:
            images[k] = fit_output(item.image, item.target.answer_size(0), item.fit)
        except Exception as exc:  # noqa: BLE001 - reported to this item's request only
            results[k] = exc
            continue
        problems.setdefault((item.tolerance, id(item.target)), []).append(k)
    if device.type == "cpu":
        by_tolerance: dict = {}
        for (tolerance, _), rows in problems.items():
            by_tolerance.setdefault(tolerance, []).append(rows)
        for tolerance, groups in by_tolerance.items():
            if len(groups) > 1 and _score_rows(items, images, results, sum(groups, []),
                                               tolerance, device, combined=True):
                continue
            for rows in groups:
                _score_rows(items, images, results, rows, tolerance, device)
    else:
        for (tolerance, _), rows in problems.items():
            _score_rows(items, images, results, rows, tolerance, device)
    return results


def _score_rows(items: list[ScoreItem], images: list, results: list, rows: list[int],
                tolerance: int | None, device, combined: bool = False) -> bool:
    """Score ``items[rows]`` in one call into ``results``; True if it did. ``combined``:
    the rows name several problems (a target per row); a failure then writes nothing and
    returns False (the caller scores each problem alone)."""
    target = items[rows[0]].target
    if combined:
        target = Targets([items[k].target.answers[0] for k in rows],
                         [items[k].target.inputs[0] for k in rows])
    try:
        value, iou = score_group([images[k] for k in rows], target, device, tolerance,
                                 any(items[k].figures for k in rows),
                                 samples=1 if combined else len(rows))
        value = value.cpu()
    except Exception as exc:  # noqa: BLE001 - reported to these items' requests only
        if combined:
            return False
        for k in rows:
            results[k] = exc
        return True
    for j, k in enumerate(rows):
        result = {"problem_id": items[k].problem_id, "reward": float(value[j])}
        if items[k].figures:
            result["iou"] = [float(v) for v in iou[j].cpu()]
        results[k] = result
    return True

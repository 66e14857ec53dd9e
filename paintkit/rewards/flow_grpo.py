"""flow_grpo style reward: ``pixel_miou(device)`` -> ``fn(images, prompts, metadata)``.

flow_grpo calls each reward function with the decoded images of a batch, the prompts and
the per-sample metadata of the prompt dataset, and expects ``(scores, info)``. For an
editing dataset, put the answer and the input into each sample's metadata (paths, arrays or
tensors; see :data:`~paintkit.rewards._common.ANSWER_KEYS`). Samples of one problem (GRPO's
G samples per prompt) share one prepared target, cached across steps.
"""

from __future__ import annotations

from paintkit.rewards._common import (
    ANSWER_KEYS,
    INPUT_KEYS,
    TargetCache,
    find,
    images_nhwc,
    key_of,
    score_grouped,
)
from paintkit.rewards.fit import check_fit


def pixel_miou(device="cpu", *, fit: str = "cover", tolerance: int | None = None,
               cache_size: int = 256):
    """A flow_grpo reward function scoring edits with the PaintBench mIoU.

    Args:
        device: where scoring runs (the images' device, to avoid copies).
        fit: how outputs of another size map onto the answer: ``"cover"``
            (also undoes letterboxing), ``"stretch"`` or ``"exact"`` (see :mod:`paintkit.rewards.fit`).
        tolerance: None for the mIoU, or an integer 0..10 for IoU_t.
        cache_size: prepared problems kept between calls.

    Returns:
        ``fn(images, prompts, metadata) -> (scores, info)``: ``images`` float ``(B, 3, H, W)``
        in [0, 1] (or uint8), ``metadata`` a list of B dicts each carrying ``"answer"`` and
        ``"input"``; ``scores`` float32 ``(B,)`` on ``device``; ``info`` ``{"miou_mean":
        float}``.

    Example:
        >>> fn = pixel_miou("cuda")  # doctest: +SKIP
        >>> scores, info = fn(images, prompts, [{"answer": a, "input": i} for a, i in ...])  # doctest: +SKIP
    """
    import torch

    check_fit(fit)
    cache = TargetCache(torch.device(device), cache_size)

    def fn(images, prompts, metadata):
        if metadata is None or len(metadata) != len(images):
            raise ValueError(f"metadata: expected one dict per image ({len(images)}) carrying "
                             f"the answer and input, got {None if metadata is None else len(metadata)}")
        answers = [find(m, ANSWER_KEYS, "answer", f"metadata[{k}]") for k, m in enumerate(metadata)]
        inputs = [find(m, INPUT_KEYS, "input", f"metadata[{k}]") for k, m in enumerate(metadata)]
        keys = [key_of(a, m) for a, m in zip(answers, metadata, strict=True)]
        outputs = images_nhwc(images, cache.device)
        scores = score_grouped(outputs, keys, answers, inputs, cache, fit, tolerance)
        return scores, {"miou_mean": float(scores.mean()) if len(scores) else float("nan")}

    return fn

"""Flow-Factory style pointwise reward model: ``model(image=..., condition_images=...)``.

Flow-Factory's image-editing trainers pass the generated images and the condition images
(the edit's input) to a pointwise reward model and expect one reward per image. The answer
is not a condition: give it per sample as ``answer_images=`` (or inside each condition as a
dict ``{"input": ..., "answer": ...}``).
"""

from __future__ import annotations

from paintkit.arguments import check_int
from paintkit.rewards._common import TargetCache, images_nhwc, key_of, score_grouped
from paintkit.rewards.fit import check_fit


class PixelIoURewardModel:
    """Pointwise reward: per image its PaintBench mIoU (or IoU_t) against its answer.

    Args:
        device: where scoring runs.
        fit: ``"cover"`` (also undoes letterboxing), ``"stretch"`` or ``"exact"`` (see
            :mod:`paintkit.rewards.fit`).
        tolerance: None for the mIoU, or 0..10 for IoU_t.

    ``__call__(image, condition_images, answer_images=None, prompt=None, **kwargs)``:
    ``image`` float ``(B, 3, H, W)`` in [0, 1] (or uint8, or a list of ``(3, H, W)``);
    ``condition_images`` B input images (or dicts with ``"input"`` and ``"answer"``);
    returns float32 ``(B,)`` on ``device``.
    """

    def __init__(self, device="cpu", *, fit: str = "cover", tolerance: int | None = None,
                 cache_size: int = 256):
        import torch

        self.fit = check_fit(fit)
        cache_size = check_int(cache_size, "cache_size", 1)
        self.tolerance = tolerance
        self.cache = TargetCache(torch.device(device), cache_size)

    def __call__(self, image, condition_images, answer_images=None, prompt=None, **kwargs):
        n = len(image)
        if condition_images is None or len(condition_images) != n:
            raise ValueError(f"condition_images: expected one input image per generated image "
                             f"({n}), got {None if condition_images is None else len(condition_images)}")
        inputs, answers = [], []
        for k, cond in enumerate(condition_images):
            if isinstance(cond, list | tuple) and len(cond) == 1:
                cond = cond[0]  # one condition image per sample
            if isinstance(cond, dict):
                if cond.get("answer") is None or cond.get("input") is None:
                    raise ValueError(f"condition_images[{k}]: a dict needs 'input' and 'answer', "
                                     f"got keys {sorted(cond)}")
                inputs.append(cond["input"])
                answers.append(cond["answer"])
            else:
                if answer_images is None:
                    raise ValueError("answer_images: the PaintBench reward needs the answer of "
                                     "each sample (answer_images=[...], or condition dicts with "
                                     "'input' and 'answer'); got none")
                inputs.append(cond)
                answers.append(answer_images[k])
        keys = [key_of(a) for a in answers]
        outputs = images_nhwc(image, self.cache.device, "image")
        inputs = [_hwc(x) for x in inputs]
        answers = [_hwc(x) for x in answers]
        return score_grouped(outputs, keys, answers, inputs, self.cache, self.fit, self.tolerance)


def _hwc(image):
    """Tensors from the trainer are usually ``(3, H, W)``: channels last for the metric."""
    from paintkit.metrics.coerce import _is_tensor, tensor_to_uint8_nhwc

    return tensor_to_uint8_nhwc(image, "condition image")[0] if _is_tensor(image) else image

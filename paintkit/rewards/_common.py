"""Shared by the adapters: answers/inputs from metadata, prepared targets cached per problem."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from paintkit.metrics.coerce import tensor_to_uint8_nhwc
from paintkit.metrics.reference import prepare_reference

ANSWER_KEYS = ("answer", "answer_image", "answer_path", "target", "target_image")
INPUT_KEYS = ("input", "input_image", "input_path", "source", "source_image")


def find(meta, keys, what: str, where: str):
    """The first of ``keys`` present in the mapping ``meta``; a clear error otherwise."""
    if not isinstance(meta, dict):
        raise ValueError(f"{where}: expected a dict carrying the {what} image (one of keys "
                         f"{', '.join(keys)}), got {type(meta).__name__}")
    for key in keys:
        if meta.get(key) is not None:
            return meta[key]
    raise ValueError(f"{where}: no {what} image; expected one of the keys {', '.join(keys)} "
                     f"(a path, an array or a tensor), got keys {sorted(meta)}")


def key_of(image, meta: dict | None = None):
    """A cache key for a problem: its id, the path, or the array's identity."""
    if meta is not None and meta.get("problem_id") is not None:
        return ("id", meta["problem_id"])
    if isinstance(image, str | bytes) or hasattr(image, "__fspath__"):
        return ("path", str(image))
    return ("object", id(image))


class TargetCache:
    """Prepared single-problem targets on one device, least recently used dropped first.

    A problem seen again (next step, or the G samples of GRPO) reuses its Lab and edit
    mask; nothing is converted twice while it stays in the cache.
    """

    def __init__(self, device, size: int = 256):
        from paintkit.arguments import check_int

        size = check_int(size, "cache_size", 1)
        self.device = device
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def get(self, key, answer, inp):
        ref = self._items.get(key)
        if key[0] == "object":  # identity keys are only safe while the object is alive
            ref = ref if ref is not None and ref[1] is answer else None
        if ref is None:
            ref = (prepare_reference([answer], [inp], device=self.device), answer)
            self._items[key] = ref
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        self._items.move_to_end(key)
        return ref[0]


def images_nhwc(images, device, name="images"):
    """A batch of outputs as uint8 channels-last ``(B, H, W, 3)`` on ``device`` (stays there
    if already on it); float in [0, 1] or uint8; NumPy arrays are moved once."""
    import torch

    if isinstance(images, np.ndarray):
        images = torch.from_numpy(images)
    if isinstance(images, list | tuple):
        images = torch.stack([torch.as_tensor(x) for x in images])
    images = tensor_to_uint8_nhwc(images.detach(), name, numba=False)  # torch backend follows
    return images if images.device == torch.device(device) else images.to(device)


def score_grouped(outputs, keys, answers, inputs, cache: TargetCache, fit: str,
                  tolerance=None):
    """Rewards ``(B,)`` of ``outputs`` (uint8 ``(B, H, W, 3)`` on the cache's device), each
    against its problem; samples of one problem share one prepared target."""
    import torch

    from paintkit.metrics.reward import reward
    from paintkit.rewards.fit import fit_output

    result = torch.empty(len(outputs), dtype=torch.float32, device=outputs.device)
    groups: dict = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    for key, rows in groups.items():
        target = cache.get(key, answers[rows[0]], inputs[rows[0]])
        size = target.answer_size(0)
        index = torch.tensor(rows, device=outputs.device)
        sub = fit_output(outputs.index_select(0, index), size, fit)
        value = reward(sub, target, samples_per_problem=len(rows), tolerance=tolerance,
                       backend="torch")
        result.index_copy_(0, index, value)
    return result

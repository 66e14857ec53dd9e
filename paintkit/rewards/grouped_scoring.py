"""A trainer's batch of outputs scored against its problems, each problem prepared once.

:func:`images_list` brings the outputs to uint8 channels-last tensors on the reward's device;
:func:`score_grouped` scores them, the samples of one problem against one cached target.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.metrics.coerce import (
    as_images,
    float_to_uint8_unchecked,
    is_tensor,
    tensor_nhwc,
    tensor_to_uint8_nhwc,
)
from paintkit.metrics.device import canonical_device, same_device
from paintkit.metrics.fit import fit_output
from paintkit.metrics.training_reward import reward

if TYPE_CHECKING:
    import torch

    from paintkit.rewards.target_cache import TargetCache
    from paintkit.types import DeviceLike, ImageBatch

def images_list(images: ImageBatch, device: DeviceLike, name: str = "images"
                ) -> tuple[list[torch.Tensor], torch.Tensor | None]:
    """A batch of outputs as ``(images, invalid)``: a list of uint8 channels-last
    ``(H, W, 3)`` tensors on ``device``, from a ``(B, 3, H, W)`` / ``(B, H, W, 3)`` tensor or
    a list of per-sample tensors (mixed sizes allowed), NumPy arrays or PIL images; float
    in [0, 1] or uint8.

    Float images outside [0, 1] (or NaN) raise ``ValueError``, except on CUDA, where the
    check stays on the device: ``invalid`` is then a bool ``(B,)`` tensor there (the
    adapters give those samples a NaN reward) instead of a value read back every step;
    None otherwise.

    Devices compare as torch resolves them (``cpu:0`` is ``cpu``, ``cuda`` the current
    CUDA device: :func:`paintkit.metrics.device.same_device`). Tensors on another device
    are refused, as :func:`paintkit.metrics.reward` does (a
    hidden copy per call is what the device-true path avoids); host images (arrays, PIL)
    are moved to ``device`` once, here.
    """
    import torch  # heavy: loaded on first use

    device = canonical_device(device)
    defer = device.type == "cuda"

    def check(tensor: torch.Tensor, where: str) -> torch.Tensor:
        if not same_device(tensor.device, device):
            raise ValueError(f"{where}: expected a tensor on {device} (the reward's device), "
                             f"got one on {tensor.device}; move it first or build the reward "
                             f"on {tensor.device}")
        return tensor

    def convert(tensor: torch.Tensor, where: str) -> tuple[torch.Tensor, torch.Tensor | None]:
        """uint8 ``(b, H, W, 3)`` and invalid flags ``(b,)`` (or None) of one tensor."""
        tensor = tensor_nhwc(check(tensor, where).detach(), where)
        if defer and tensor.is_floating_point():
            return float_to_uint8_unchecked(tensor)
        return tensor_to_uint8_nhwc(tensor, where, numba=False), None

    if is_tensor(images):
        batch, invalid = convert(images, name)
        return list(batch), invalid
    if isinstance(images, np.ndarray):
        return [_host_tensor(x, device) for x in as_images(images, name)], None
    out, flags = [], []
    for k, item in enumerate(images):
        where = f"{name}[{k}]"
        if is_tensor(item):
            image, invalid = convert(item, where)
            out.append(image[0])
            flags.append(invalid)
        else:
            out.append(_host_tensor(as_images([item], where)[0], device))
            flags.append(None)
    if not any(f is not None for f in flags):
        return out, None
    return out, torch.cat([f if f is not None else torch.zeros(1, dtype=torch.bool, device=device)
                           for f in flags])


def _host_tensor(array: Any, device: DeviceLike) -> torch.Tensor:
    """A host image as a tensor on ``device`` (read-only arrays, e.g. ``np.asarray`` of a
    PIL image, are copied: torch tensors are writable)."""
    import torch  # heavy: loaded on first use

    array = np.ascontiguousarray(array)
    if not array.flags.writeable:
        array = array.copy()
    return torch.from_numpy(array).to(device)


def score_grouped(outputs: Sequence[torch.Tensor], keys: Sequence[tuple[Hashable, ...]],
                  answers: Sequence[Any], inputs: Sequence[Any], cache: TargetCache, fit: str,
                  tolerance: int | None = None, invalid: torch.Tensor | None = None
                  ) -> torch.Tensor:
    """Rewards ``(B,)`` of ``outputs`` (a list of uint8 ``(H, W, 3)`` tensors on the cache's
    device, sizes may differ), each against its problem; samples of one problem share one
    prepared target. ``invalid``: bool ``(B,)`` from :func:`images_list`, NaN there.

    On CUDA nothing is read back to the host: each problem's samples are counted by the
    fused kernel, and rows that are one contiguous run (the G samples of a prompt, as the
    trainers lay them out) are written by slice, not through an index tensor."""
    import torch  # heavy: loaded on first use

    result = torch.empty(len(outputs), dtype=torch.float32, device=cache.device)
    groups: dict[tuple[Hashable, ...], list[int]] = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    for key, rows in groups.items():
        target = cache.get(key, answers[rows[0]], inputs[rows[0]])
        size = target.answer_size(0)
        subs: Any = [fit_output(outputs[k], size, fit, f"outputs[{k}]") for k in rows]
        if all(s.shape == subs[0].shape for s in subs):
            subs = torch.stack(subs)
        value = reward(subs, target, samples_per_problem=len(rows), tolerance=tolerance,
                       fit="cover").to(result.device)  # fitted above: what is left, the metric's
        if rows == list(range(rows[0], rows[-1] + 1)):
            result[rows[0]:rows[-1] + 1] = value
        else:  # scattered rows: their positions go to the device without a stall
            index = torch.tensor(rows, dtype=torch.int64).to(cache.device, non_blocking=True)
            result.index_copy_(0, index, value)
    if invalid is not None:
        result = result.masked_fill(invalid, float("nan"))
    return result

"""Blend a solid color into the masked pixels.

Definition, per channel of every pixel where ``mask`` is True, with ``alpha = percent/100``:
``out = round(alpha * color + (1 - alpha) * pixel)``, ties rounded up, computed exactly in
integers as

    out = (percent * color + (100 - percent) * pixel + 50) // 100

(``percent`` an int in [1, 99]; every term is a non-negative int, so ``//`` is floor and
the result lies in [0, 255]). Pixels outside the mask are unchanged. Example of a tie:
percent=50, color=1, pixel=0 gives (50 + 0 + 50) // 100 = 1.

Implementations: ``blend_numba`` (NumPy in, NumPy out) builds the 3 x 256 table of the formula
and maps the masked pixels through it in one Numba pass (``point_ops.apply_channel_luts``);
``blend_torch`` evaluates the formula with int32 tensor ops wherever the tensors are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._validate import check_color, check_image, check_int, check_mask, check_same_device
from .point_ops import apply_channel_luts

if TYPE_CHECKING:
    import torch

__all__ = ["blend_numba", "blend_luts", "blend_torch"]


def blend_luts(color: tuple[int, int, int], percent: int) -> np.ndarray:
    """uint8 ``(3, 256)`` table: ``luts[ch, v] = (percent*color[ch] + (100-percent)*v + 50)
    // 100`` (arguments assumed valid)."""
    values = np.arange(256, dtype=np.int32)
    rgb = np.array(color, dtype=np.int32)[:, None]
    return ((percent * rgb + (100 - percent) * values + 50) // 100).astype(np.uint8)


def blend_numba(
    image: np.ndarray, mask: np.ndarray, color: tuple[int, int, int], percent: int
) -> np.ndarray:
    """Blend ``color`` into the masked pixels at ``percent`` opacity.

    Args:
        image: uint8 ``(H, W, 3)`` RGB.
        mask: bool ``(H, W)``, non-empty.
        color: 3 ints in [0, 255].
        percent: int in [1, 99], the weight of ``color`` (percent of opacity).

    Returns:
        New uint8 ``(H, W, 3)``.

    Example:
        >>> img = np.zeros((1, 1, 3), np.uint8); m = np.ones((1, 1), bool)
        >>> blend_numba(img, m, (1, 255, 100), 50)[0, 0].tolist()
        [1, 128, 50]
    """
    shape = check_image("image", image)
    check_mask("mask", mask, shape, nonempty=True)
    rgb = check_color("color", color)
    percent = check_int("percent", percent, 1, 99)
    return apply_channel_luts(image, mask, blend_luts(rgb, percent))


def blend_torch(
    image: torch.Tensor, mask: torch.Tensor, color: tuple[int, int, int], percent: int
) -> torch.Tensor:
    """Torch twin of :func:`blend_numba`: uint8 ``(H, W, 3)`` and bool ``(H, W)`` tensors on one
    device; returns a new uint8 ``(H, W, 3)`` tensor there."""
    import torch

    shape = check_image("image", image)
    check_mask("mask", mask, shape, nonempty=True)
    check_same_device("mask", mask, image, "image")
    rgb = check_color("color", color)
    percent = check_int("percent", percent, 1, 99)
    weighted = torch.tensor([percent * v + 50 for v in rgb], dtype=torch.int32,
                            device=image.device)
    new = (weighted + (100 - percent) * image.to(torch.int32)) // 100
    return torch.where(mask[..., None], new.to(torch.uint8), image)

"""Point operations inside a mask: invert, grayscale, brightness.

All arithmetic is exact integer arithmetic on uint8 channel values ``c`` in [0, 255];
pixels outside ``mask`` are returned unchanged:

- ``invert``:      ``c' = 255 - c`` per channel.
- ``grayscale``:   ``L = (299 R + 587 G + 114 B + 500) // 1000`` written to all three
  channels, i.e. ``round(0.299 R + 0.587 G + 0.114 B)`` with ties rounded up (ITU-R
  BT.601 luma weights), computed without floats.
- ``brightness``:  ``c' = clamp(c + offset, 0, 255)`` per channel, ``offset`` an int in
  [-255, 255].

Implementations: the NumPy entry point ``point_operation_numba`` runs one Numba pass over the
pixels (invert and brightness through a 256-entry lookup table, grayscale directly);
``point_operation_torch`` computes the same formulas with integer tensor ops wherever the
tensors are. ``apply_channel_luts`` (mask + per-channel 256-entry tables) is shared with
``blend``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np

from ._validate import check_image, check_int, check_mask, check_same_device

if TYPE_CHECKING:
    import torch

__all__ = ["OPERATIONS", "apply_channel_luts", "point_operation_numba", "point_operation_torch"]

OPERATIONS = ("invert", "grayscale", "brightness")


@numba.njit(cache=True)
def _apply_luts_nb(image, mask, luts):
    out = image.copy()
    h, w = mask.shape
    for i in range(h):
        for j in range(w):
            if mask[i, j]:
                for ch in range(3):
                    out[i, j, ch] = luts[ch, image[i, j, ch]]
    return out


@numba.njit(cache=True)
def _grayscale_nb(image, mask):
    out = image.copy()
    h, w = mask.shape
    for i in range(h):
        for j in range(w):
            if mask[i, j]:
                luma = (
                    299 * np.int32(image[i, j, 0])
                    + 587 * np.int32(image[i, j, 1])
                    + 114 * np.int32(image[i, j, 2])
                    + 500
                ) // 1000
                out[i, j, 0] = luma
                out[i, j, 1] = luma
                out[i, j, 2] = luma
    return out


def apply_channel_luts(image: np.ndarray, mask: np.ndarray, luts: np.ndarray) -> np.ndarray:
    """Map channel ``ch`` of every masked pixel through ``luts[ch]``.

    Args:
        image: uint8 ``(H, W, 3)``; mask: bool ``(H, W)``; luts: uint8 ``(3, 256)``.
    Returns:
        New uint8 ``(H, W, 3)``; unmasked pixels copied unchanged.
    Callers validate ``image`` and ``mask``; this only fixes memory layout.
    """
    return _apply_luts_nb(
        np.ascontiguousarray(image), np.ascontiguousarray(mask), np.ascontiguousarray(luts)
    )


def _check_operation(op: str, offset: int | None) -> int | None:
    if op not in OPERATIONS:
        raise ValueError(f"op must be one of {OPERATIONS}; got {op!r}")
    if op == "brightness":
        if offset is None:
            raise ValueError("op='brightness' needs offset, an int in [-255, 255]; got None")
        return check_int("offset", offset, -255, 255)
    if offset is not None:
        raise ValueError(f"offset applies only to op='brightness'; got offset={offset!r} "
                         f"with op={op!r}")
    return None


def point_operation_numba(
    image: np.ndarray, mask: np.ndarray, op: str, offset: int | None = None
) -> np.ndarray:
    """Apply a point operation to the masked pixels.

    Args:
        image: uint8 ``(H, W, 3)`` RGB.
        mask: bool ``(H, W)``, non-empty: the pixels to change.
        op: ``"invert"``, ``"grayscale"`` or ``"brightness"``.
        offset: for ``"brightness"`` only, an int in [-255, 255] added to every channel.

    Returns:
        New uint8 ``(H, W, 3)``.

    Example:
        >>> img = np.array([[[10, 20, 30]]], np.uint8); m = np.ones((1, 1), bool)
        >>> point_operation_numba(img, m, "grayscale")[0, 0].tolist()
        [18, 18, 18]
    """
    shape = check_image("image", image)
    check_mask("mask", mask, shape, nonempty=True)
    offset = _check_operation(op, offset)
    if op == "grayscale":
        return _grayscale_nb(np.ascontiguousarray(image), np.ascontiguousarray(mask))
    values = np.arange(256, dtype=np.int32)
    lut = 255 - values if op == "invert" else np.clip(values + offset, 0, 255)
    return apply_channel_luts(image, mask, np.broadcast_to(lut.astype(np.uint8), (3, 256)))


def point_operation_torch(
    image: torch.Tensor, mask: torch.Tensor, op: str, offset: int | None = None
) -> torch.Tensor:
    """Torch twin of :func:`point_operation_numba`: uint8 ``(H, W, 3)`` and bool ``(H, W)``
    tensors on one device; returns a new uint8 ``(H, W, 3)`` tensor there."""
    import torch

    shape = check_image("image", image)
    check_mask("mask", mask, shape, nonempty=True)
    check_same_device("mask", mask, image, "image")
    offset = _check_operation(op, offset)
    c = image.to(torch.int32)
    if op == "invert":
        new = 255 - c
    elif op == "grayscale":
        luma = (299 * c[..., 0] + 587 * c[..., 1] + 114 * c[..., 2] + 500) // 1000
        new = luma[..., None].expand(*luma.shape, 3)
    else:
        new = torch.clamp(c + offset, 0, 255)
    return torch.where(mask[..., None], new.to(torch.uint8), image)

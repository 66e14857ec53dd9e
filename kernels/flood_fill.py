"""Flood fill: 4-connected same-color regions and connected-component labels.

Definitions (pixel indices are ``(row, col)``, rows downward, 0-based):

- ``connected_region_numba(image, seed)``: the set of pixels reachable from ``seed`` through steps
  of one pixel up, down, left or right, visiting only pixels whose RGB triple equals the
  seed's exactly. Diagonal contact does not connect. Returns bool ``(H, W)``.
- ``flood_fill_numba(image, seed, color)``: a copy of ``image`` with that region set to ``color``.
- ``label_components_numba(mask)``: 4-connected components of the True pixels of a bool mask,
  labelled 1, 2, ... in row-major order of each component's first pixel; 0 where the mask
  is False. Returns int32 ``(H, W)``.

Implementations:

- NumPy entry points (``connected_region_numba``, ``flood_fill_numba``, ``label_components_numba``) run a
  Numba scanline fill (fill a horizontal run, then queue one seed per matching run in the
  rows above and below). Colors are compared lazily during the fill, so the cost is
  proportional to the region plus its boundary, not the canvas.
- ``*_torch`` variants run where their tensors are (CPU or CUDA) without host copies of
  pixels. They propagate a minimum label along whole horizontal runs, then whole vertical
  runs (one ``scatter_reduce`` per direction), until nothing changes; the number of rounds
  grows with how many turns the region's paths take (a handful for convex shapes and bands,
  more for spirals), with one bool read back per round to test convergence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np

from ._validate import (
    check_color,
    check_image,
    check_mask,
    check_pixel_index,
)

if TYPE_CHECKING:
    import torch

__all__ = [
    "connected_region_numba",
    "connected_region_torch",
    "flood_fill_numba",
    "flood_fill_torch",
    "label_components_numba",
    "label_components_torch",
]


# --------------------------------------------------------------------------- Numba (CPU)


@numba.njit(cache=True)
def _matches(pixels, row, col, color):
    for ch in range(pixels.shape[2]):
        if pixels[row, col, ch] != color[ch]:
            return False
    return True


@numba.njit(cache=True)
def _fill_component(pixels, color, out, row, col, value, stack):
    """Scanline-fill the 4-connected set of pixels equal to ``color`` in ``pixels``
    (H, W, C) that contains (row, col), writing ``value`` into ``out`` where it is 0.

    ``stack`` holds packed ``row * W + col`` seeds and needs ``2 * H * W + 1`` slots: a
    pixel is pushed at most once from the run filled above it and once from the run below.
    (A fixed buffer, not a growing one: reassigning the array inside the loop costs ~4x.)
    """
    h, w = out.shape
    top = 0
    stack[top] = row * w + col
    top += 1
    while top > 0:
        top -= 1
        r = stack[top] // w
        c = stack[top] - r * w
        if out[r, c] != 0:
            continue
        left = c
        while left > 0 and out[r, left - 1] == 0 and _matches(pixels, r, left - 1, color):
            left -= 1
        right = c
        while right < w - 1 and out[r, right + 1] == 0 and _matches(pixels, r, right + 1, color):
            right += 1
        for x in range(left, right + 1):
            out[r, x] = value
        for nr in (r - 1, r + 1):
            if nr < 0 or nr >= h:
                continue
            x = left
            while x <= right:
                if out[nr, x] == 0 and _matches(pixels, nr, x, color):
                    stack[top] = nr * w + x
                    top += 1
                    # one seed per run: skip the rest of this matching run
                    while x <= right and out[nr, x] == 0 and _matches(pixels, nr, x, color):
                        x += 1
                else:
                    x += 1


@numba.njit(cache=True)
def _connected_region_nb(image, row, col):
    h, w = image.shape[0], image.shape[1]
    out = np.zeros((h, w), np.bool_)
    color = image[row, col].copy()
    _fill_component(image, color, out, row, col, True, np.empty(2 * h * w + 1, np.int64))
    return out


@numba.njit(cache=True)
def _paint_nb(image, region, color):
    out = image.copy()
    h, w = region.shape
    for i in range(h):
        for j in range(w):
            if region[i, j]:
                out[i, j, 0] = color[0]
                out[i, j, 1] = color[1]
                out[i, j, 2] = color[2]
    return out


@numba.njit(cache=True)
def _label_components_nb(mask_u8):
    h, w = mask_u8.shape[0], mask_u8.shape[1]
    labels = np.zeros((h, w), np.int32)
    one = np.ones(1, np.uint8)
    stack = np.empty(2 * h * w + 1, np.int64)
    n = 0
    for i in range(h):
        for j in range(w):
            if mask_u8[i, j, 0] and labels[i, j] == 0:
                n += 1
                _fill_component(mask_u8, one, labels, i, j, n, stack)
    return labels


# --------------------------------------------------------------------------- NumPy API


def connected_region_numba(image: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """4-connected region of the seed's exact color.

    Args:
        image: uint8 ``(H, W, 3)`` RGB.
        seed: ``(row, col)`` pixel index inside the image.

    Returns:
        bool ``(H, W)``, True on the region (always includes ``seed``).

    Example:
        >>> img = np.zeros((3, 3, 3), np.uint8); img[1, :] = 255
        >>> int(connected_region_numba(img, (0, 0)).sum())
        3
    """
    shape = check_image("image", image)
    row, col = check_pixel_index("seed", seed, shape)
    return _connected_region_nb(np.ascontiguousarray(image), row, col)


def flood_fill_numba(image: np.ndarray, seed: tuple[int, int], color: tuple[int, int, int]) -> np.ndarray:
    """Copy of ``image`` (uint8 ``(H, W, 3)``) with ``connected_region_numba(image, seed)`` set to
    ``color`` (3 ints in [0, 255]); the input is not modified."""
    shape = check_image("image", image)
    row, col = check_pixel_index("seed", seed, shape)
    rgb = np.array(check_color("color", color), np.uint8)
    image = np.ascontiguousarray(image)
    return _paint_nb(image, _connected_region_nb(image, row, col), rgb)


def label_components_numba(mask: np.ndarray) -> np.ndarray:
    """4-connected components of a bool ``(H, W)`` mask as int32 ``(H, W)`` labels:
    0 off the mask, 1..n in row-major order of each component's first pixel."""
    check_mask("mask", mask)
    as_pixels = np.ascontiguousarray(mask).view(np.uint8)[:, :, None]
    return _label_components_nb(as_pixels)


# --------------------------------------------------------------------------- torch


def _spread_min_along_rows(values: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """Replace each valid pixel by the minimum of ``values`` over its horizontal run of
    valid pixels; invalid pixels keep their value. ``values`` int64 (H, W)."""
    import torch

    h, w = valid.shape
    start = valid.clone()
    start[:, 1:] &= ~valid[:, :-1]
    flat_valid = valid.reshape(-1)
    run_id = torch.cumsum(start.reshape(-1), 0)
    run_id = torch.where(flat_valid, run_id, 0)  # bucket 0 collects invalid pixels
    big = torch.iinfo(torch.int64).max
    run_min = torch.full((h * w + 1,), big, dtype=torch.int64, device=values.device)
    run_min.scatter_reduce_(0, run_id, values.reshape(-1), "amin")
    return torch.where(valid, run_min[run_id].reshape(h, w), values)


def _propagate_min(values: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """Min-propagate ``values`` over 4-connected components of ``valid`` to convergence."""
    import torch

    valid_t = valid.t().contiguous()
    while True:
        rows = _spread_min_along_rows(values, valid)
        cols = _spread_min_along_rows(rows.t().contiguous(), valid_t).t().contiguous()
        if torch.equal(cols, values):
            return cols
        values = cols


def connected_region_torch(image: torch.Tensor, seed: tuple[int, int]) -> torch.Tensor:
    """Torch twin of :func:`connected_region_numba`: uint8 ``(H, W, 3)`` tensor in, bool
    ``(H, W)`` tensor out, on the image's device."""
    import torch

    shape = check_image("image", image)
    row, col = check_pixel_index("seed", seed, shape)
    same = (image == image[row, col]).all(dim=-1)
    values = same.to(torch.int64)  # 1 on the seed's color, propagate the seed's 0
    values[row, col] = 0
    return (_propagate_min(values, same) == 0) & same


def flood_fill_torch(
    image: torch.Tensor, seed: tuple[int, int], color: tuple[int, int, int]
) -> torch.Tensor:
    """Torch twin of :func:`flood_fill_numba` (uint8 ``(H, W, 3)`` tensor in and out)."""
    import torch

    rgb = check_color("color", color)
    region = connected_region_torch(image, seed)
    fill = torch.tensor(rgb, dtype=torch.uint8, device=image.device)
    return torch.where(region[:, :, None], fill, image)


def label_components_torch(mask: torch.Tensor) -> torch.Tensor:
    """Torch twin of :func:`label_components_numba`: bool ``(H, W)`` tensor in, int32 labels out
    (same numbering: row-major order of each component's first pixel)."""
    import torch

    h, w = check_mask("mask", mask)
    index = torch.arange(h * w, dtype=torch.int64, device=mask.device).reshape(h, w)
    first = _propagate_min(index, mask)  # each component -> index of its first pixel
    labels = torch.zeros((h, w), dtype=torch.int32, device=mask.device)
    _, rank = torch.unique(first[mask], sorted=True, return_inverse=True)
    labels[mask] = (rank + 1).to(torch.int32)
    return labels

"""Linear color gradient inside a mask.

Coordinates are canvas px with x to the right and y down; pixel ``(row i, col j)`` has its
center at ``(x, y) = (j + 0.5, i + 0.5)``. For the axis from ``P0 = (x0, y0)`` to
``P1 = (x1, y1)`` and colors ``c0`` -> ``c1`` (RGB ints), every masked pixel gets, in
float64 with exactly this operation order (each line one IEEE-754 double rounding)::

    dx  = x1 - x0;             dy  = y1 - y0
    den = dx * dx + dy * dy                       # (dx*dx) + (dy*dy), must be > 0
    a_j = ((j + 0.5) - x0) * dx                   # per column
    b_i = ((i + 0.5) - y0) * dy                   # per row
    t   = min(max((a_j + b_i) / den, 0.0), 1.0)   # projection onto the axis, clamped
    out = floor((c0 + t * (c1 - c0)) + 0.5)       # per channel; c1 - c0 is an exact int

i.e. ``round(c0 + t (c1 - c0))`` with ties rounded up. Pixels before P0 along the axis get
c0, pixels past P1 get c1; outside the mask the image is unchanged. ``c0 + t*(c1 - c0)``
lies between c0 and c1 (rounding is monotone and c0 + 1*(c1 - c0) == c1 exactly), so the
result is in [0, 255] with no extra clamp.

No fused multiply-add anywhere: the Numba kernel is compiled without fastmath (LLVM does
not contract then) and the torch version issues one op per line, so NumPy oracle, Numba and
torch (CPU and CUDA float64) produce identical bits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np

from ._validate import check_color, check_image, check_mask, check_point, check_same_device

if TYPE_CHECKING:
    import torch

__all__ = ["linear_gradient_numba", "linear_gradient_torch"]


@numba.njit(cache=True)
def _linear_gradient_nb(image, mask, x0, y0, dx, dy, den, c0, delta):
    out = image.copy()
    h, w = mask.shape
    col_term = np.empty(w, np.float64)
    for j in range(w):
        col_term[j] = ((j + 0.5) - x0) * dx
    for i in range(h):
        row_term = ((i + 0.5) - y0) * dy
        for j in range(w):
            if mask[i, j]:
                t = (col_term[j] + row_term) / den
                t = min(max(t, 0.0), 1.0)
                for ch in range(3):
                    out[i, j, ch] = np.uint8(np.floor((c0[ch] + t * delta[ch]) + 0.5))
    return out


def _check_axis(p0, p1) -> tuple[float, float, float, float, float]:
    x0, y0 = check_point("p0", p0)
    x1, y1 = check_point("p1", p1)
    dx = x1 - x0
    dy = y1 - y0
    den = dx * dx + dy * dy
    if not (np.isfinite(den) and den > 0.0):
        raise ValueError(
            f"p0 and p1 must be distinct points with a finite squared distance > 0 "
            f"(the gradient axis); got p0={p0!r}, p1={p1!r}"
        )
    return x0, y0, dx, dy, den


def linear_gradient_numba(
    image: np.ndarray,
    mask: np.ndarray,
    p0: tuple[float, float],
    p1: tuple[float, float],
    c0: tuple[int, int, int],
    c1: tuple[int, int, int],
) -> np.ndarray:
    """Paint a linear gradient c0 -> c1 along P0 -> P1 into the masked pixels.

    Args:
        image: uint8 ``(H, W, 3)`` RGB.
        mask: bool ``(H, W)``, non-empty.
        p0, p1: axis end points ``(x, y)`` in canvas px (x right, y down), distinct.
        c0, c1: RGB colors (3 ints in [0, 255]) at p0 and p1.

    Returns:
        New uint8 ``(H, W, 3)``.

    Example:
        >>> img = np.zeros((1, 4, 3), np.uint8); m = np.ones((1, 4), bool)
        >>> linear_gradient_numba(img, m, (0, 0), (4, 0), (0, 0, 0), (100, 0, 0))[0, :, 0].tolist()
        [13, 38, 63, 88]
    """
    shape = check_image("image", image)
    check_mask("mask", mask, shape, nonempty=True)
    x0, y0, dx, dy, den = _check_axis(p0, p1)
    start = np.array(check_color("c0", c0), np.float64)
    delta = np.array(check_color("c1", c1), np.float64) - start
    return _linear_gradient_nb(
        np.ascontiguousarray(image), np.ascontiguousarray(mask), x0, y0, dx, dy, den,
        start, delta,
    )


def linear_gradient_torch(
    image: torch.Tensor,
    mask: torch.Tensor,
    p0: tuple[float, float],
    p1: tuple[float, float],
    c0: tuple[int, int, int],
    c1: tuple[int, int, int],
) -> torch.Tensor:
    """Torch twin of :func:`linear_gradient_numba` (float64 on the tensors' device): uint8
    ``(H, W, 3)`` and bool ``(H, W)`` tensors in, new uint8 ``(H, W, 3)`` tensor out."""
    import torch

    h, w = check_image("image", image)
    check_mask("mask", mask, (h, w), nonempty=True)
    check_same_device("mask", mask, image, "image")
    x0, y0, dx, dy, den = _check_axis(p0, p1)
    rgb0 = check_color("c0", c0)
    rgb1 = check_color("c1", c1)
    f64 = {"dtype": torch.float64, "device": image.device}
    col_term = ((torch.arange(w, **f64) + 0.5) - x0) * dx
    row_term = ((torch.arange(h, **f64) + 0.5) - y0) * dy
    t = (col_term[None, :] + row_term[:, None]) / den
    t = torch.clamp(t, 0.0, 1.0)
    start = torch.tensor(rgb0, **f64)
    delta = torch.tensor([b - a for a, b in zip(rgb0, rgb1, strict=True)], **f64)
    new = torch.floor((start + t[..., None] * delta) + 0.5).to(torch.uint8)
    return torch.where(mask[..., None], new, image)

"""Nearest-neighbour affine warp (cropping a possibly rotated rectangle).

Definition: output pixel ``(row y, col x)`` of a ``(H_out, W_out)`` result has center
``(xc, yc) = (x + 0.5, y + 0.5)``; the 2x3 float64 ``inverse_map`` M takes it to input
coordinates, in float64 with exactly this operation order::

    x_in = (M[0,0] * xc + M[0,1] * yc) + M[0,2]
    y_in = (M[1,0] * xc + M[1,1] * yc) + M[1,2]
    src_col = clamp(floor(x_in), 0, W - 1)
    src_row = clamp(floor(y_in), 0, H - 1)
    out[y, x] = image[src_row, src_col]

Input pixel ``(r, c)`` covers ``[c, c+1) x [r, r+1)``, so ``floor`` picks the pixel that
contains the mapped point. Points outside the image are clamped to the nearest edge pixel
(edge replication), so every output pixel is a color of the input. No FMA is used (Numba
without fastmath, one torch op per product/sum), so NumPy oracle, Numba and torch agree
bit for bit.

``crop_rect_inverse_map`` builds M for a rectangle of a given center and size rotated
clockwise on screen (x right, y down) by ``angle_deg``, stretched to fill the output.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numba
import numpy as np

from ._validate import check_image, check_point, check_size

if TYPE_CHECKING:
    import torch

__all__ = ["crop_rect_inverse_map", "warp_affine_nearest_numba", "warp_affine_nearest_torch"]


@numba.njit(cache=True)
def _warp_nb(image, m, w_out, h_out):
    h, w = image.shape[0], image.shape[1]
    out = np.empty((h_out, w_out, 3), np.uint8)
    ax = np.empty(w_out, np.float64)
    ay = np.empty(w_out, np.float64)
    for x in range(w_out):
        ax[x] = m[0, 0] * (x + 0.5)
        ay[x] = m[1, 0] * (x + 0.5)
    for y in range(h_out):
        bx = m[0, 1] * (y + 0.5)
        by = m[1, 1] * (y + 0.5)
        for x in range(w_out):
            fx = np.floor((ax[x] + bx) + m[0, 2])
            fy = np.floor((ay[x] + by) + m[1, 2])
            col = 0 if fx < 0.0 else (w - 1 if fx > w - 1 else np.int64(fx))
            row = 0 if fy < 0.0 else (h - 1 if fy > h - 1 else np.int64(fy))
            out[y, x, 0] = image[row, col, 0]
            out[y, x, 1] = image[row, col, 1]
            out[y, x, 2] = image[row, col, 2]
    return out


def _check_inverse_map(inverse_map) -> np.ndarray:
    m = np.asarray(inverse_map)
    if m.shape != (2, 3) or not np.issubdtype(m.dtype, np.number) or np.iscomplexobj(m):
        raise ValueError(
            f"inverse_map must be a real 2x3 matrix (output px -> input px); got "
            f"{type(inverse_map).__name__} with shape {m.shape} and dtype {m.dtype}"
        )
    m = m.astype(np.float64)
    if not np.isfinite(m).all():
        raise ValueError(f"inverse_map must be finite; got {m.tolist()}")
    return m


def warp_affine_nearest_numba(
    image: np.ndarray, inverse_map: np.ndarray, out_size: tuple[int, int]
) -> np.ndarray:
    """Nearest-neighbour affine warp with edge clamping.

    Args:
        image: uint8 ``(H, W, 3)`` RGB.
        inverse_map: 2x3 real (used as float64) mapping output pixel centers to input px.
        out_size: ``(W_out, H_out)`` ints >= 1.

    Returns:
        New uint8 ``(H_out, W_out, 3)``.

    Example:
        >>> img = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
        >>> m = crop_rect_inverse_map((2.0, 2.0), 2, 2, 0.0, (2, 2))
        >>> bool((warp_affine_nearest_numba(img, m, (2, 2)) == img[1:3, 1:3]).all())
        True
    """
    check_image("image", image)
    m = _check_inverse_map(inverse_map)
    w_out, h_out = check_size("out_size", out_size)
    return _warp_nb(np.ascontiguousarray(image), m, w_out, h_out)


def warp_affine_nearest_torch(
    image: torch.Tensor, inverse_map: np.ndarray, out_size: tuple[int, int]
) -> torch.Tensor:
    """Torch twin of :func:`warp_affine_nearest_numba`: uint8 ``(H, W, 3)`` tensor in, uint8
    ``(H_out, W_out, 3)`` tensor out on its device (float64 coordinates, integer gather)."""
    import torch

    h, w = check_image("image", image)
    m = _check_inverse_map(inverse_map).tolist()
    w_out, h_out = check_size("out_size", out_size)
    f64 = {"dtype": torch.float64, "device": image.device}
    xc = torch.arange(w_out, **f64) + 0.5
    yc = torch.arange(h_out, **f64) + 0.5
    x_in = ((m[0][0] * xc)[None, :] + (m[0][1] * yc)[:, None]) + m[0][2]
    y_in = ((m[1][0] * xc)[None, :] + (m[1][1] * yc)[:, None]) + m[1][2]
    col = torch.clamp(torch.floor(x_in), 0, w - 1).to(torch.int64)
    row = torch.clamp(torch.floor(y_in), 0, h - 1).to(torch.int64)
    return image.reshape(h * w, 3)[row * w + col]


def _cos_sin_deg(angle_deg: float) -> tuple[float, float]:
    """cos/sin of an angle in degrees, exact at multiples of 90 (so axis-aligned crops
    map pixel centers to exact half-integers instead of picking up 6e-17 residue)."""
    quarter = angle_deg / 90.0
    if quarter == math.floor(quarter):
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(quarter) % 4]
    rad = math.radians(angle_deg)
    return math.cos(rad), math.sin(rad)


def crop_rect_inverse_map(
    center: tuple[float, float],
    width: float,
    height: float,
    angle_deg: float,
    out_size: tuple[int, int],
) -> np.ndarray:
    """Inverse map (2x3 float64) for cropping a rotated rectangle to fill ``out_size``.

    The rectangle has center ``(cx, cy)`` and size ``width`` x ``height`` (input px) and is
    rotated by ``angle_deg`` clockwise on screen (x right, y down) about its center. Output
    point ``(u, v)`` in ``[0, W_out] x [0, H_out]`` goes to the rectangle-local point
    ``(lx, ly) = ((u - W_out/2) * width/W_out, (v - H_out/2) * height/H_out)``, then to
    input ``(cx + lx cos a - ly sin a, cy + lx sin a + ly cos a)``. So output corner
    ``(0, 0)`` is the rectangle's top-left corner before rotation, and the rectangle is
    stretched independently along its two sides to fill the output.
    """
    cx, cy = check_point("center", center)
    w_out, h_out = check_size("out_size", out_size)
    for name, value in (("width", width), ("height", height), ("angle_deg", angle_deg)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or \
                not math.isfinite(float(value)):
            raise ValueError(f"{name} must be a finite number; got {value!r}")
    if width <= 0 or height <= 0:
        raise ValueError(f"width and height must be > 0 (px); got {width!r} x {height!r}")
    cos_a, sin_a = _cos_sin_deg(float(angle_deg))
    sx = float(width) / w_out
    sy = float(height) / h_out
    return np.array(
        [
            [cos_a * sx, -sin_a * sy, cx - cos_a * sx * (w_out / 2) + sin_a * sy * (h_out / 2)],
            [sin_a * sx, cos_a * sy, cy - sin_a * sx * (w_out / 2) - cos_a * sy * (h_out / 2)],
        ],
        dtype=np.float64,
    ) + 0.0  # turns -0.0 (from -sin(0) * sy) into 0.0

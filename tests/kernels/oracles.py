"""Plain NumPy / Python oracles for the pixel kernels, written straight from the definitions
in each kernel module's docstring. Slow by design (loops, brute force): small images only.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import numpy as np


def connected_region(image: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """Breadth-first search over 4-neighbours with exactly the seed's RGB."""
    h, w = image.shape[:2]
    target = tuple(image[seed].tolist())
    region = np.zeros((h, w), bool)
    region[seed] = True
    queue = deque([seed])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < h and 0 <= nc < w and not region[nr, nc]:
                if tuple(image[nr, nc].tolist()) == target:
                    region[nr, nc] = True
                    queue.append((nr, nc))
    return region


def flood_fill(image, seed, color) -> np.ndarray:
    out = image.copy()
    out[connected_region(image, seed)] = color
    return out


def label_components(mask: np.ndarray) -> np.ndarray:
    """Raster scan; each unlabelled True pixel starts the next label (BFS over 4-neighbours)."""
    labels = np.zeros(mask.shape, np.int32)
    as_image = np.repeat(mask[:, :, None].astype(np.uint8), 3, axis=2)
    n = 0
    for r, c in zip(*np.nonzero(mask), strict=True):
        if labels[r, c] == 0:
            n += 1
            labels[connected_region(as_image, (r, c))] = n
    return labels


def blend(image, mask, color, percent) -> np.ndarray:
    pixel = image.astype(np.int64)
    rgb = np.array(color, np.int64)
    new = (percent * rgb + (100 - percent) * pixel + 50) // 100
    return np.where(mask[..., None], new, pixel).astype(np.uint8)


def linear_gradient(image, mask, p0, p1, c0, c1) -> np.ndarray:
    h, w = mask.shape
    x0, y0 = float(p0[0]), float(p0[1])
    dx = float(p1[0]) - x0
    dy = float(p1[1]) - y0
    den = dx * dx + dy * dy
    rows, cols = np.indices((h, w), dtype=np.float64)
    px = cols + 0.5
    py = rows + 0.5
    t = ((px - x0) * dx + (py - y0) * dy) / den
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    start = np.array(c0, np.float64)
    delta = np.array(c1, np.float64) - start
    new = np.floor(start + t[..., None] * delta + 0.5)
    return np.where(mask[..., None], new, image).astype(np.uint8)


def point_operation(image, mask, op, offset=None) -> np.ndarray:
    c = image.astype(np.int64)
    if op == "invert":
        new = 255 - c
    elif op == "grayscale":
        luma = (299 * c[..., 0] + 587 * c[..., 1] + 114 * c[..., 2] + 500) // 1000
        new = np.repeat(luma[..., None], 3, axis=2)
    elif op == "brightness":
        new = np.clip(c + offset, 0, 255)
    else:
        raise AssertionError(op)
    return np.where(mask[..., None], new, c).astype(np.uint8)


def squared_distance_to_mask(mask: np.ndarray) -> np.ndarray:
    """Brute force: min over all True pixels of the squared center distance (int64)."""
    ks, ls = np.nonzero(mask)
    rows, cols = np.indices(mask.shape)
    d2 = (rows[..., None] - ks) ** 2 + (cols[..., None] - ls) ** 2
    return d2.min(axis=-1).astype(np.int64)


def distance_to_mask(mask: np.ndarray) -> np.ndarray:
    return np.sqrt(squared_distance_to_mask(mask).astype(np.float64))


def within_distance(mask: np.ndarray, radius) -> np.ndarray:
    """0 < d <= radius, compared exactly as d**2 <= radius**2 in rationals."""
    d2 = squared_distance_to_mask(mask)
    r2 = Fraction(radius) ** 2
    ring = np.zeros(mask.shape, bool)
    for index, value in np.ndenumerate(d2):
        ring[index] = 0 < value and Fraction(int(value)) <= r2
    return ring


def warp_affine_nearest(image, inverse_map, out_size) -> np.ndarray:
    h, w = image.shape[:2]
    w_out, h_out = out_size
    m = np.asarray(inverse_map, np.float64)
    ys, xs = np.indices((h_out, w_out), dtype=np.float64)
    xc = xs + 0.5
    yc = ys + 0.5
    x_in = m[0, 0] * xc + m[0, 1] * yc + m[0, 2]
    y_in = m[1, 0] * xc + m[1, 1] * yc + m[1, 2]
    col = np.clip(np.floor(x_in), 0, w - 1).astype(np.int64)
    row = np.clip(np.floor(y_in), 0, h - 1).astype(np.int64)
    return image[row, col]


def color_mask(image: np.ndarray, colors) -> np.ndarray:
    """Pixel by pixel: does the pixel's (r, g, b) equal one of ``colors``?"""
    wanted = {tuple(int(v) for v in c) for c in colors}
    flat = image.reshape(-1, 3)
    out = np.array([tuple(int(v) for v in px) in wanted for px in flat], bool)
    return out.reshape(image.shape[:-1])

"""Plain NumPy pixel-center oracles for exact rendering, written from the definitions.

Pixel ``(i, j)`` has its center at ``(j + 0.5, i + 0.5)``. A pixel is inside a set of
closed contours when the nonzero winding number of its center is not 0. Distances from
pixel centers to outline segments find the pixels whose centers lie within a margin of an
edge, where the exact geometry and the renderer (which rounds every crossing of an outline
with a pixel-center row to 1/64 px) may disagree.
"""

from __future__ import annotations

import numpy as np


def _edges(contours, closed=True):
    """All segments (a, b) of the contours as two float64 (E, 2) arrays."""
    a, b = [], []
    for c in contours:
        c = np.asarray(c, np.float64)
        nxt = np.roll(c, -1, axis=0) if closed else c[1:]
        a.append(c if closed else c[:-1])
        b.append(nxt)
    return np.concatenate(a), np.concatenate(b)


def _contour_edges(contours):
    """Like _edges, for contours given as (N, 2) arrays or (M, N, 2) batches."""
    flat = []
    for c in contours:
        c = np.asarray(c, np.float64)
        flat.extend(c if c.ndim == 3 else [c])
    return _edges(flat)


def winding_mask(contours, height, width):
    """bool (H, W): nonzero winding number at every pixel center, one row at a time.

    For the ray from the center toward +x, an edge crossing the row's y upward (b.y > a.y
    with a.y <= y < b.y) counts +1, downward -1, when it crosses right of the center.
    """
    a, b = _contour_edges(contours)
    xs = np.arange(width) + 0.5
    out = np.zeros((height, width), bool)
    for i in range(height):
        y = i + 0.5
        up = (a[:, 1] <= y) & (b[:, 1] > y)
        down = (b[:, 1] <= y) & (a[:, 1] > y)
        sel = up | down
        if not sel.any():
            continue
        pa, pb = a[sel], b[sel]
        t = (y - pa[:, 1]) / (pb[:, 1] - pa[:, 1])
        x_cross = pa[:, 0] + t * (pb[:, 0] - pa[:, 0])
        direction = np.where(up[sel], 1, -1)
        winding = ((x_cross[:, None] > xs[None, :]) * direction[:, None]).sum(axis=0)
        out[i] = winding != 0
    return out


def distance_to_segments(contours, height, width, reach, closed=True):
    """float (H, W): distance from each pixel center to the nearest segment, exact where it
    is below ``reach`` px (np.inf where no segment comes that close)."""
    a, b = _edges(contours, closed)
    dist = np.full((height, width), np.inf)
    for (ax, ay), (bx, by) in zip(a, b, strict=True):
        j0 = max(int(np.floor(min(ax, bx) - reach - 0.5)), 0)
        j1 = min(int(np.ceil(max(ax, bx) + reach + 0.5)) + 1, width)
        i0 = max(int(np.floor(min(ay, by) - reach - 0.5)), 0)
        i1 = min(int(np.ceil(max(ay, by) + reach + 0.5)) + 1, height)
        if j0 >= j1 or i0 >= i1:
            continue
        px = np.arange(j0, j1)[None, :] + 0.5
        py = np.arange(i0, i1)[:, None] + 0.5
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else np.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0, 1)
        d = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
        np.minimum(dist[i0:i1, j0:j1], d, out=dist[i0:i1, j0:j1])
    return dist


def near_outline(contours, height, width, margin, closed=True):
    """bool (H, W): pixel centers within ``margin`` px of any segment."""
    return distance_to_segments(contours, height, width, margin, closed) <= margin


def rounded_crossing_mask(contours, height, width):
    """bool (H, W): the nonzero rule with every row crossing rounded to the nearest 1/64 px.

    What the renderer promises to paint exactly: as :func:`winding_mask`, but each crossing
    ``x`` of an edge with a pixel-center row becomes ``floor(64 x + 0.5) / 64`` (after
    clamping to ``[0, width]``), and a crossing exactly at a center counts as right of it
    (Skia's span rounding).
    """
    a, b = _contour_edges(contours)
    centers = 64 * np.arange(width) + 32  # pixel centers in 1/64 px
    out = np.zeros((height, width), bool)
    for i in range(height):
        y = i + 0.5
        up = (a[:, 1] <= y) & (b[:, 1] > y)
        down = (b[:, 1] <= y) & (a[:, 1] > y)
        sel = up | down
        if not sel.any():
            continue
        pa, pb = a[sel], b[sel]
        t = (y - pa[:, 1]) / (pb[:, 1] - pa[:, 1])
        x = np.clip(pa[:, 0] + t * (pb[:, 0] - pa[:, 0]), 0, width)
        g = np.floor(x * 64 + 0.5)
        direction = np.where(up[sel], 1, -1)
        winding = ((g[:, None] >= centers[None, :]) * direction[:, None]).sum(axis=0)
        out[i] = winding != 0
    return out

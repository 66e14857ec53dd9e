"""NumPy contours -> ``skia.Path``, fast, and pixel-exact fill paths.

Two builders:

- :func:`contours_path`: the polylines as given (vertices rounded to Skia's 1/64 px grid).
  Skia's aliased scan converter then strays up to ~0.023 px from the exact geometry on a
  192 px canvas, ~0.03-0.04 px on tall edges (see the comment above :func:`scanline_path`).
- :func:`scanline_path`: what the renderer fills. The contours are replaced by the points
  where they cross pixel-center rows, so Skia's scan converter reproduces every crossing
  exactly (up to rounding it to 1/64 px): coverage equals the exact pixel-center nonzero
  rule except for centers within 1/128 px (horizontally) of the outline.

Building a path point by point through skia-python costs ~1 us per vertex (one Python
``skia.Point`` each); a flattened circle has hundreds of vertices. Instead the path is
assembled as bytes in Skia's own serialisation format (header, float32 points, verbs) with
NumPy and loaded with ``Path.readFromMemory``. That format is internal to Skia, so on import
a probe path is built both ways and compared: if the bytes differ (another Skia version),
every path is built the slow, public way instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import skia

MAX_EDGE_ROWS = 32  # longest run of crossings scanline_path tries as one Skia edge
GRID = 64  # Skia's aliased scan converter keeps vertices to 1/64 px (26.6 fixed point)
_MOVE, _LINE, _CLOSE = 0, 1, 5  # SkPath verbs as serialised
_SERIAL_VERSION = 5  # SkPath serialisation version the fast path writes


def snap(points: np.ndarray) -> np.ndarray:
    """Round float ``(..., 2)`` pixel coordinates to the nearest 1/64 px.

    Skia truncates vertices to its 1/64 px grid (toward zero), which moves edges by up to
    1/64 px per axis and biases shapes up and to the left. Rounding to the nearest grid
    point first makes its truncation exact and halves that error, without bias.
    """
    return np.round(points * GRID) / GRID


def _as_batches(contours: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Every item as a batch ``(M, K, 2)`` of equal-length contours; empty ones dropped."""
    out = []
    for c in contours:
        c = np.asarray(c)
        b = c[None] if c.ndim == 2 else c
        if b.ndim != 3 or b.shape[-1] != 2:
            raise ValueError(f"contours must be (N, 2) or (M, N, 2) arrays, got shape {c.shape}")
        if b.shape[0] and b.shape[1]:
            out.append(b)
    return out


def _serialised(batches: Sequence[np.ndarray], closed: bool) -> bytes:
    verbs = []
    for b in batches:
        m, k, _ = b.shape
        one = np.full(k + (1 if closed else 0), _LINE, np.uint8)
        one[0] = _MOVE
        if closed:
            one[-1] = _CLOSE
        verbs.append(np.tile(one, m))
    verb_bytes = np.concatenate(verbs).tobytes()
    points = snap(np.concatenate([b.reshape(-1, 2) for b in batches])).astype(np.float32)
    header = np.array([_SERIAL_VERSION, len(points), 0, len(verb_bytes)], np.int32)  # winding
    pad = b"\0" * (-len(verb_bytes) % 4)
    return header.tobytes() + points.tobytes() + verb_bytes + pad


def _slow_path(batches: Sequence[np.ndarray], closed: bool) -> skia.Path:
    path = skia.Path()
    path.setFillType(skia.PathFillType.kWinding)
    for c in (c for b in batches for c in b):
        pts = snap(np.asarray(c, np.float64)).astype(np.float32).tolist()
        path.moveTo(*pts[0])
        for x, y in pts[1:]:
            path.lineTo(x, y)
        if closed:
            path.close()
    return path


def _fast_path_works() -> bool:
    probe = _as_batches([np.array([[1.25, 2.5], [30.0, 4.0], [5.0, 60.5]]),
                         np.array([[7.0, 8.0], [9.0, 1.0]])])
    try:
        for closed in (True, False):
            expected = bytes(_slow_path(probe, closed).serialize())
            if _serialised(probe, closed) != expected:
                return False
            path = skia.Path()
            if path.readFromMemory(expected) != len(expected) or path.countPoints() != 5:
                return False
    except Exception:  # any surprise from an unknown Skia build: use the public API
        return False
    return True


FAST_PATHS = _fast_path_works()


def contours_path(contours: Sequence[np.ndarray], closed: bool = True) -> skia.Path:
    """A winding-fill ``skia.Path`` of polylines.

    Args:
        contours: float arrays of ``(x, y)`` pixels, each one contour ``(N, 2)`` or a batch
            of ``M`` equal-length contours ``(M, N, 2)``; empty ones are skipped.
        closed: close every contour (polygons) or leave them open (polylines).
    """
    batches = _as_batches(contours)
    if not batches:
        return skia.Path()
    if FAST_PATHS:
        data = _serialised(batches, closed)
        path = skia.Path()
        if path.readFromMemory(data) == len(data):
            return path
    return _slow_path(batches, closed)


# Pixel-exact fill paths ------------------------------------------------------------------
#
# Skia's aliased scan converter (SkEdge::setLine, then walk_edges in SkScan_Path) truncates
# every vertex to 26.6 fixed point (1/64 px), floors the edge's x at its first pixel-center
# row to 1/64 px, then steps x down the rows in 16.16 fixed point with the slope truncated
# toward zero; a pixel is inside when the rounded x of the edges wind around its center.
# Against the exact line that is up to sqrt(2)/128 px from the vertex grid, up to 1/64 px
# more (always to the left) from the first-row floor, and up to rows / 65536 px more from
# the slope: ~0.023 px on a 192 px canvas, ~0.031 px on 1000-row edges, ~0.04 px where edges
# run on for thousands of rows; edges leaving the clip are also cut at float intersections.
#
# Some edges it draws without any error. With x0, x1 on the 1/64 px grid, an edge from
# (x0, r - 0.5) or (x0, r) down to (x1, r + 0.5) covers row r alone, and its first-row x is
# exactly x1: the floor acts on x0 + (x1 - x0), and the 16.16 slope (x1 - x0) / 1 (or / 0.5)
# is exact. So :func:`scanline_path` replaces each contour by the polygon through its
# crossings with the pixel-center rows y = r + 0.5 (x rounded to the nearest 1/64 px and
# clamped into the clip): consecutive crossings lie on the same row (an idle edge) or on
# adjacent rows (an edge that covers the lower row with the lower crossing's x). Where the
# outline turns back down between two rows, the two crossings below the turn would both be
# missed, so a point at that row's top edge y = r goes between them. Skia then fills pixel
# (r, j) exactly when the rounded crossings of row r wind around x = j + 0.5: the exact
# rule with every crossing moved by at most 1/128 px along its row.
#
# Crossings on consecutive rows in one direction usually need not be one edge each: for a
# candidate edge spanning n rows, Skia's arithmetic is replayed exactly (integers, as in
# SkEdge::setLine and walk_edges) and the edge is taken when it rounds to the same pixel in
# every one of its rows as the crossings it replaces. That keeps the output identical while
# a straight 1000-row edge becomes some 60 Skia edges instead of 1000.


@lru_cache(maxsize=1)
def _crossings_kernel() -> Any:
    # Numba compiles on first use (cached on disk), so importing this module stays cheap.
    from paintkit.renderers._scanline_kernel import crossings  # numba: compiled on first use

    return crossings


def _packed(contours: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """All vertices as one float64 ``(V, 2)`` array and the vertex count of each contour."""
    flat, sizes = [], []
    for c in contours:
        c = np.asarray(c, np.float64)
        if c.ndim == 2 and c.shape[-1] == 2:
            if len(c):
                flat.append(c)
                sizes.append(np.array([len(c)], np.int64))
        elif c.ndim == 3 and c.shape[-1] == 2:
            if c.shape[0] and c.shape[1]:
                flat.append(c.reshape(-1, 2))
                sizes.append(np.full(c.shape[0], c.shape[1], np.int64))
        else:
            raise ValueError(f"contours must be (N, 2) or (M, N, 2) arrays, got shape {c.shape}")
    if not flat:
        return np.zeros((0, 2)), np.zeros(0, np.int64)
    return np.ascontiguousarray(np.concatenate(flat)), np.concatenate(sizes)


def _path_from_bytes(data: np.ndarray) -> skia.Path:
    """Load serialised path bytes, or rebuild them through the public API if needed."""
    path = skia.Path()
    if FAST_PATHS and path.readFromMemory(data) == len(data):
        return path
    path = skia.Path()
    path.setFillType(skia.PathFillType.kWinding)
    _, n_points, _, n_verbs = np.frombuffer(data[:16].tobytes(), np.int32).tolist()
    xy = np.frombuffer(data[16:16 + 8 * n_points].tobytes(), np.float32).reshape(-1, 2)
    verbs = data[16 + 8 * n_points:16 + 8 * n_points + n_verbs].tolist()
    i = 0
    for verb in verbs:
        if verb == _MOVE:
            path.moveTo(float(xy[i, 0]), float(xy[i, 1]))
            i += 1
        elif verb == _LINE:
            path.lineTo(float(xy[i, 0]), float(xy[i, 1]))
            i += 1
        else:
            path.close()
    return path


def scanline_path(contours: Sequence[np.ndarray], clip: tuple[int, int, int, int]) -> skia.Path:
    """A winding-fill ``skia.Path`` whose aliased fill is the exact pixel-center fill.

    Drawn with an identity matrix and anti-aliasing off, it paints pixel ``(i, j)`` inside
    ``clip`` exactly when the nonzero winding number of the closed ``contours`` around its
    center ``(j + 0.5, i + 0.5)`` is not 0, computed with each crossing of an outline and
    the center's row rounded to the nearest 1/64 px (so it may differ from the exact rule
    only where a center lies within 1/128 px of the outline along its row). See the
    comment above for why Skia draws it without error.

    Args:
        contours: float arrays of ``(x, y)`` pixels, each one closed contour ``(N, 2)`` or a
            batch ``(M, N, 2)``; empty ones are skipped. Coordinates may lie anywhere.
        clip: ``(left, top, right, bottom)`` integer device bounds the path is drawn into
            (the canvas' device clip); the path stays inside them, so Skia never clips it.

    Raises:
        ValueError: a coordinate is not finite, or a contour is not an array of points.
    """
    pts, sizes = _packed(contours)
    if not len(sizes):
        return skia.Path()
    left, top, right, bottom = (int(v) for v in clip)
    data, ok = _crossings_kernel()(pts, sizes, float(left), float(right), top, bottom,
                                   MAX_EDGE_ROWS)
    if not ok:
        raise ValueError("contour coordinates must be finite numbers of pixels")
    if len(data) <= 16:
        return skia.Path()
    return _path_from_bytes(data)

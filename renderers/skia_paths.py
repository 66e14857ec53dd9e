"""NumPy contours -> ``skia.Path``, fast.

Building a path point by point through skia-python costs ~1 us per vertex (one Python
``skia.Point`` each); a flattened circle has hundreds of vertices. Instead the path is
assembled as bytes in Skia's own serialisation format (header, float32 points, verbs) with
NumPy and loaded with ``Path.readFromMemory``. That format is internal to Skia, so on import
a probe path is built both ways and compared: if the bytes differ (another Skia version),
every path is built the slow, public way instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import skia

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

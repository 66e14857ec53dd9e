"""Numba kernel behind :func:`paintkit.renderers.skia_paths.scanline_path`.

Imported on first use only (it imports Numba). See the comment above ``scanline_path`` in
:mod:`paintkit.renderers.skia_paths` for why Skia draws these paths without error.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def edge_matches(gx, gy, s, e):  # pragma: no cover - jitted
    """Would one Skia edge from point ``s`` to point ``e`` (crossings ``n >= 1`` rows apart,
    one per row between them) round to the same pixel as each of those crossings in every
    row it covers? Replays SkEdge::setLine (26.6 vertices, SkFDot6Div, the first-row
    SkFixedMul floor) and walk_edges (16.16 stepping, SkFixedRoundToInt) in exact integers.
    ``gx`` holds x in 1/64 px, ``gy`` y in 1/2 px."""
    n = abs(gy[e] - gy[s]) // 2
    if gy[e] > gy[s]:
        top, step = s, 1
    else:
        top, step = e, -1
    bottom = s + e - top
    num = (gx[bottom] - gx[top]) * 65536
    slope = abs(num) // (64 * n)
    if num < 0:
        slope = -slope
    slope = min(max(slope, -2147483648), 2147483647)
    x = (gx[top] + ((slope * 64) >> 16)) << 10
    for k in range(1, n + 1):
        if (x + 32768) >> 16 != (gx[top + k * step] + 32) >> 6:
            return False
        x += slope
    return True


@numba.njit(cache=True, nogil=True)
def merge_runs(gx, gy, base, end, max_rows):  # pragma: no cover - jitted
    """Compact the points ``base:end`` of one contour in place and return the new end.

    Within every run of crossings on consecutive rows in one direction, the one-row edges
    are replaced by as few edges as :func:`edge_matches` allows (trying ``max_rows`` rows,
    then halving), so Skia fills exactly the same pixels."""
    w = base
    i = base
    while i < end:
        gx[w], gy[w] = gx[i], gy[i]
        w += 1
        d = gy[i + 1] - gy[i] if i + 1 < end else 0
        if gy[i] % 2 == 0 or (d != 2 and d != -2):
            i += 1
            continue
        j = i + 1
        while j + 1 < end and gy[j + 1] - gy[j] == d:
            j += 1
        s = i
        while s < j:
            n = min(max_rows, j - s)
            while n > 1 and not edge_matches(gx, gy, s, s + n):
                n //= 2
            s += n
            gx[w], gy[w] = gx[s], gy[s]
            w += 1
        i = j + 1
    return w


@numba.njit(cache=True, nogil=True)
def crossings(pts, sizes, x_lo, x_hi, row_lo, row_hi, max_rows):  # pragma: no cover
    """Serialised ``SkPath`` bytes (version 5, winding fill) of the row-crossing polygons.

    ``pts`` is float64 ``(V, 2)``: the vertices of closed contours, ``sizes[c]`` of them for
    contour ``c``. Each contour becomes its crossings ``(x, r + 0.5)`` with the rows ``r``
    in ``[row_lo, row_hi)``, in contour order (edge a-b crosses row r when
    ``a.y <= r + 0.5 < b.y`` or ``b.y <= r + 0.5 < a.y``, as the pixel-center oracle
    counts), x rounded to the nearest 1/64 px after clamping to ``[x_lo, x_hi]``, plus a
    point ``(x, r)`` between the two crossings of every turn back down between rows r - 1
    and r; :func:`merge_runs` then joins runs. Returns ``(bytes, True)``, or
    ``(empty, False)`` when a coordinate is not finite.
    """
    n_contours = sizes.shape[0]
    lo_clamp, hi_clamp = row_lo - 1.0, row_hi + 1.0
    bound = 0
    start = 0
    for c in range(n_contours):
        n = sizes[c]
        for i in range(n):
            ax, ay = pts[start + i, 0], pts[start + i, 1]
            if not (np.isfinite(ax) and np.isfinite(ay)):
                return np.zeros(0, np.uint8), False
            by = pts[start + i + 1, 1] if i + 1 < n else pts[start, 1]
            lo = min(max(min(ay, by), lo_clamp), hi_clamp)
            hi = min(max(max(ay, by), lo_clamp), hi_clamp)
            bound += int(hi - lo) + 1  # >= the rows in [lo, hi)
        start += n
    cap = 2 * bound + 1
    gx = np.empty(cap, np.int64)  # x in 1/64 px
    gy = np.empty(cap, np.int64)  # y in 1/2 px: 2 r + 1 at row r's center
    kept = np.zeros(n_contours, np.int64)
    out = 0
    start = 0
    for c in range(n_contours):
        n = sizes[c]
        base = out
        first_down = False
        last_down = False
        for i in range(n):
            j = start + i + 1 if i + 1 < n else start
            ax, ay, bx, by = pts[start + i, 0], pts[start + i, 1], pts[j, 0], pts[j, 1]
            if ay == by:
                continue
            lo = min(max(min(ay, by), lo_clamp), hi_clamp)
            hi = min(max(max(ay, by), lo_clamp), hi_clamp)
            r0 = max(int(np.ceil(lo - 0.5)), row_lo)
            r1 = min(int(np.ceil(hi - 0.5)), row_hi)
            down = by > ay
            for m in range(r1 - r0):
                r = r0 + m if down else r1 - 1 - m
                t = (r + 0.5 - ay) / (by - ay)
                x = min(max(ax + t * (bx - ax), x_lo), x_hi)
                g = int(np.floor(x * 64.0 + 0.5))
                y2 = 2 * r + 1
                if out == base:
                    first_down = down
                elif down and not last_down and gy[out - 1] == y2:
                    # The outline turned back down between rows r - 1 and r: edges from
                    # row r's top edge (y = r) down to both crossings make Skia count them.
                    gx[out], gy[out] = gx[out - 1], 2 * r
                    out += 1
                gx[out], gy[out] = g, y2
                out += 1
                last_down = down
        start += n
        if out - base < 2:  # crosses no row: covers no pixel center
            out = base
            continue
        if first_down and not last_down and gy[out - 1] == gy[base]:
            # the same turn, across the closing edge
            gx[out], gy[out] = gx[out - 1], gy[base] - 1
            out += 1
        kept[c] = merge_runs(gx, gy, base, out, max_rows) - base
        out = base + kept[c]
    n_paths = 0
    for c in range(n_contours):
        if kept[c] > 0:
            n_paths += 1
    n_verbs = out + n_paths
    size = 16 + 8 * out + n_verbs + (-n_verbs) % 4
    buf = np.zeros(size, np.uint8)
    header = buf[:16].view(np.int32)
    header[0], header[1], header[2], header[3] = 5, out, 0, n_verbs  # winding fill
    xy = buf[16:16 + 8 * out].view(np.float32)
    for i in range(out):
        xy[2 * i] = gx[i] / 64.0
        xy[2 * i + 1] = gy[i] / 2.0
    v = 16 + 8 * out
    for c in range(n_contours):
        k = kept[c]
        if k == 0:
            continue
        buf[v] = 0  # move
        for q in range(1, k):
            buf[v + q] = 1  # line
        buf[v + k] = 5  # close
        v += k + 1
    return buf, True

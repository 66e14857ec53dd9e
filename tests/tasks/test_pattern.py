"""Pattern: the answer's cells equal the periodic motif everywhere, the empty cells of the
input are exactly the ones filled, and no other period within the stated bounds fits the
visible cells with a different completion. Re-derived from pixels (grid: cell crops of the
scene drawn on a plain background) and from scene geometry (circle positions)."""

import itertools
import math
import re

import numpy as np
import pytest

from paintkit.renderers import render
from paintkit.scene import Background, Scene
from paintkit.shapes import shape_bounds
from paintkit.sources import generate

GRID = re.compile(r"The shapes in the (\d+)-row, (\d+)-column grid follow a pattern that repeats "
                  r"every 1 to 3 rows down and every 1 to 3 columns across\. "
                  r"(?:One cell is|(\d+) cells are) empty\.")
CIRCLE = re.compile(r"(\d+) positions are evenly spaced around the circle, the first at the "
                    r"top, and the shapes on them repeat one sequence of 2 to 4 shapes all the "
                    r"way around\. (?:One position is|(\d+) positions are) empty\.")
PLAIN = (1, 2, 3)  # a background color no palette uses


def _least_period(items, limit, step):
    return next(p for p in range(1, limit + 1) if step(p))


def _periods_fitting(cells, shown, candidates):
    """Completions of the hidden cells under every candidate that agrees with the shown ones
    (None entries: a hidden cell whose class shows nothing)."""
    out = []
    for keys in candidates:
        seen, ok = {}, True
        for k, key in enumerate(keys):
            if shown[k] and seen.setdefault(key, cells[k]) != cells[k]:
                ok = False
                break
        if ok:
            out.append([seen.get(key) for k, key in enumerate(keys) if not shown[k]])
    return out


@pytest.mark.parametrize("condition", ["baseline", "horizontal", "striped", "n_high", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_grid_answer_is_the_periodic_motif(condition, slot):
    p = generate("pattern", slot, condition, "grid")
    m = GRID.match(p.instruction)
    assert m, p.instruction
    rows, cols, empty = int(m[1]), int(m[2]), int(m[3] or 1)
    params = p.metadata["params"]
    x0, y0 = params["origin"]
    cell, lw = params["cell"], params["line_width"]

    def crops(scene_key):
        sc = Scene.from_dict(p.metadata[scene_key])
        px = render(Scene(sc.canvas, Background(PLAIN), sc.elements))
        return [px[y0 + i * cell + lw: y0 + (i + 1) * cell - lw,
                   x0 + j * cell + lw: x0 + (j + 1) * cell - lw].tobytes()
                for i in range(rows) for j in range(cols)]

    before, after = crops("scene"), crops("answer_scene")
    blank = np.full((cell - 2 * lw, cell - 2 * lw, 3), PLAIN, np.uint8).tobytes()
    shown = [c != blank for c in before]
    assert shown.count(False) == empty
    assert blank not in after, "every cell of the answer holds a shape"
    assert all(a == b for a, b, s in zip(after, before, shown, strict=True) if s)
    # Exact 2-D periodicity of the answer's cells, with the least periods in 1..3.
    grid = [after[i * cols:(i + 1) * cols] for i in range(rows)]
    a = _least_period(grid, rows, lambda q: all(grid[i][j] == grid[i + q][j]
                                                for i in range(rows - q) for j in range(cols)))
    b = _least_period(grid, cols, lambda q: all(grid[i][j] == grid[i][j + q]
                                                for i in range(rows) for j in range(cols - q)))
    assert (a, b) == (params["row_period"], params["col_period"])
    assert 1 <= a <= 3 and 1 <= b <= 3 and a * b > 1 and rows >= 2 * a and cols >= 2 * b
    # Unique: every period within the stated bounds that fits the shown cells completes the
    # empty cells, and the same way as the answer.
    candidates = [[(i % q, j % r) for i in range(rows) for j in range(cols)]
                  for q, r in itertools.product(range(1, 4), range(1, 4))]
    truth = [c for c, s in zip(after, shown, strict=True) if not s]
    fits = _periods_fitting(after, shown, candidates)
    assert fits and all(f == truth for f in fits)
    # The pixels are the re-rendered answer scene.
    assert np.array_equal(p.answer, render(Scene.from_dict(p.metadata["answer_scene"])))


def _token(shape):
    return (shape.type, shape.fill, round(shape.bbox.width, 6), round(shape.bbox.height, 6),
            shape.rotation)


@pytest.mark.parametrize("condition", ["baseline", "vertical", "striped", "n_med", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_circle_answer_repeats_the_sequence(condition, slot):
    p = generate("pattern", slot, condition, "circular")
    m = CIRCLE.match(p.instruction)
    assert m, p.instruction
    n, empty = int(m[1]), int(m[2] or 1)
    params = p.metadata["params"]
    (cx, cy), radius = params["center"], params["radius"]
    positions = [(cx + radius * math.sin(2 * math.pi * k / n), cy - radius * math.cos(2 * math.pi * k / n))
                 for k in range(n)]

    def by_position(scene_key):
        sc = Scene.from_dict(p.metadata[scene_key])
        out = [None] * n
        for s in sc.shapes:
            x0, y0, x1, y1 = shape_bounds(s)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            k = min(range(n), key=lambda i: math.dist(positions[i], centre))
            assert math.dist(positions[k], centre) < 1e-6, "shape off its position"
            assert out[k] is None
            out[k] = _token(s)
        return out

    before, after = by_position("scene"), by_position("answer_scene")
    shown = [t is not None for t in before]
    assert shown.count(False) == empty and None not in after
    assert all(a == b for a, b, s in zip(after, before, shown, strict=True) if s)
    q = _least_period(after, n, lambda d: n % d == 0 and all(after[k] == after[(k + d) % n]
                                                             for k in range(n)))
    assert q == params["period"] and 2 <= q <= 4 and n // q >= 3
    candidates = [[k % d for k in range(n)] for d in range(1, 5) if n % d == 0]
    truth = [t for t, s in zip(after, shown, strict=True) if not s]
    fits = _periods_fitting(after, shown, candidates)
    assert fits and all(f == truth for f in fits)
    # Every token is at least 32 px and neighbouring bounds keep apart.
    sc = Scene.from_dict(p.metadata["answer_scene"])
    boxes = [shape_bounds(s) for s in sc.shapes]
    assert min(max(b[2] - b[0], b[3] - b[1]) for b in boxes) >= 32 - 1e-6
    for b1, b2 in itertools.combinations(boxes, 2):
        assert b1[2] + 4 <= b2[0] or b2[2] + 4 <= b1[0] or b1[3] + 4 <= b2[1] or b2[3] + 4 <= b1[1]
    assert np.array_equal(p.answer, render(sc))


@pytest.mark.parametrize("mode", ["grid", "circular"])
def test_count_is_the_number_of_empty_cells(mode):
    for condition, empty in (("baseline", 1), ("n_med", 3), ("n_high", 6), ("n_xhigh", 10)):
        p = generate("pattern", 4, condition, mode)
        assert p.metadata["params"]["empty"] == empty == len(p.metadata["targets"])

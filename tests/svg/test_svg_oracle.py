"""paintkit.svg against a plain NumPy oracle of the pixel-centre fill rule.

The oracle (written from the rule docs/svg.md states, sharing no code with the renderer):
pixel ``(i, j)`` is painted when the winding number (nonzero) or the crossing count
(even-odd) of the polygons around ``(j + 0.5, i + 0.5)`` says it is inside. The renderer may
differ only where a centre lies within 1/128 px of an outline along its row (the PNG
renderer's own rounding of a crossing to 1/64 px); the oracle marks those pixels as ties.
"""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.svg import render_svg

W, H = 48, 40


def oracle(polygons: list[np.ndarray], evenodd: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(inside, tie)`` bool ``(H, W)``: the exact rule, and centres too near an edge."""
    ys = np.arange(H) + 0.5
    xs = np.arange(W) + 0.5
    winding = np.zeros((H, W), np.int64)
    tie = np.zeros((H, W), bool)
    for poly in polygons:
        p = np.asarray(poly, np.float64)
        q = np.roll(p, -1, axis=0)
        for (x0, y0), (x1, y1) in zip(p.tolist(), q.tolist(), strict=True):
            if y0 == y1:
                continue
            up = y1 > y0
            lo, hi = (y0, y1) if up else (y1, y0)
            rows = np.nonzero((ys >= lo) & (ys < hi))[0]
            for i in rows.tolist():
                x = x0 + (ys[i] - y0) * (x1 - x0) / (y1 - y0)
                winding[i, xs > x] += 1 if up else -1
                tie[i, np.abs(xs - x) <= 1 / 64] = True
    inside = (winding % 2 != 0) if evenodd else (winding != 0)
    return inside, tie


def svg_of(polygons: list[np.ndarray], evenodd: bool) -> str:
    d = "".join("M" + " ".join(f"{x!r} {y!r}" for x, y in np.asarray(p).tolist()) + "Z"
                for p in polygons)
    rule = ' fill-rule="evenodd"' if evenodd else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">'
            f'<path fill="#102030" d="{d}"{rule}/></svg>')


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("evenodd", [False, True])
def test_random_polygons_follow_the_pixel_centre_rule(seed: int, evenodd: bool) -> None:
    rng = np.random.default_rng(seed)
    polygons = [rng.uniform(-4, [W + 4, H + 4], size=(int(rng.integers(3, 9)), 2))
                for _ in range(int(rng.integers(1, 4)))]
    pixels = render_svg(svg_of(polygons, evenodd))
    painted = (pixels == (0x10, 0x20, 0x30)).all(-1)
    assert ((pixels == 255).all(-1) | painted).all()  # white or the fill, nothing blended
    inside, tie = oracle(polygons, evenodd)
    wrong = (painted != inside) & ~tie
    assert not wrong.any(), f"{int(wrong.sum())} pixels off the rule, away from any edge"


def test_shapes_and_transforms_are_their_outlines() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="48" height="40">'
           '<rect x="0" y="0" width="48" height="40" fill="#ffffff"/>'
           '<g transform="translate(10 5)"><rect x="0" y="0" width="7" height="3" fill="red"/></g>'
           '<circle cx="30.25" cy="20.5" r="6" fill="#00ff00"/>'
           '<polygon points="2,30 12,30 12,38 2,38" style="fill:#0000ff"/></svg>')
    px = render_svg(svg)
    red = (px == (255, 0, 0)).all(-1)
    assert red.sum() == 21 and red[5:8, 10:17].all()
    blue = (px == (0, 0, 255)).all(-1)
    assert blue.sum() == 80 and blue[30:38, 2:12].all()
    green = (px == (0, 255, 0)).all(-1)
    yy, xx = np.mgrid[0:40, 0:48] + 0.5
    d2 = (xx - 30.25) ** 2 + (yy - 20.5) ** 2
    assert (green[d2 < 35.5]).all() and not green[d2 > 36.5].any()


def test_a_stroke_is_its_outline_after_the_fill() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
           '<rect x="4" y="4" width="12" height="12" fill="#ff0000" stroke="#0000ff" '
           'stroke-width="2"/></svg>')
    px = render_svg(svg)
    blue = (px == (0, 0, 255)).all(-1)
    red = (px == (255, 0, 0)).all(-1)
    ring = np.zeros((20, 20), bool)
    ring[3:17, 3:17] = True
    ring[5:15, 5:15] = False
    assert (blue == ring).all()
    assert red.sum() == 100 and red[5:15, 5:15].all()


def test_fill_none_and_zero_opacity_paint_nothing() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">'
           '<rect width="8" height="8" fill="none"/><rect width="8" height="8" fill="red" '
           'opacity="0"/><rect width="4" height="4" fill="red" fill-opacity="1"/></svg>')
    px = render_svg(svg)
    assert (px[:4, :4] == (255, 0, 0)).all() and (px[4:, :] == 255).all()

"""Plain NumPy re-derivations for the color-change task tests, independent of the task code:
the region an outline encloses (breadth-first search from the stated interior pixel over
pixels not of the outline's color), background / shape pixels by color, and the metadata
readers the tests share."""

from __future__ import annotations

import numpy as np

from paintkit.colors import hex_to_rgb


def has_color(image: np.ndarray, rgb) -> np.ndarray:
    r, g, b = rgb
    return (image[..., 0] == r) & (image[..., 1] == g) & (image[..., 2] == b)


def enclosed(image: np.ndarray, outline_rgb, interior_rc) -> np.ndarray:
    """bool (H, W): pixels reachable from ``interior_rc`` by 4-connected steps through pixels
    whose color is not ``outline_rgb``. Fails the test when the search reaches the canvas
    edge (the outline would not enclose anything)."""
    h, w = image.shape[:2]
    passable = ~has_color(image, outline_rgb)
    reached = np.zeros((h, w), bool)
    r, c = interior_rc
    assert passable[r, c], "the interior pixel lies on the outline"
    reached[r, c] = True
    rows, cols = np.array([r]), np.array([c])
    while rows.size:
        nr = np.concatenate([rows - 1, rows + 1, rows, rows])
        nc = np.concatenate([cols, cols, cols - 1, cols + 1])
        ok = (nr >= 0) & (nr < h) & (nc >= 0) & (nc < w)
        nr, nc = nr[ok], nc[ok]
        ok = passable[nr, nc] & ~reached[nr, nc]
        flat = np.unique(nr[ok] * w + nc[ok])
        rows, cols = flat // w, flat % w
        reached[rows, cols] = True
    assert not (reached[0].any() or reached[-1].any() or reached[:, 0].any() or reached[:, -1].any()), \
        "the outline does not enclose the interior pixel"
    return reached


def background_pixels(image: np.ndarray, bg_hexes) -> np.ndarray:
    out = np.zeros(image.shape[:2], bool)
    for code in bg_hexes:
        out |= has_color(image, hex_to_rgb(code))
    return out


def scoped_region(problem) -> np.ndarray:
    """The pixels a region problem's metadata says it edits (outline, scope)."""
    meta, params = problem.metadata, problem.metadata["params"]
    inside = enclosed(problem.input, hex_to_rgb(params["outline_color"]), params["interior_pixel"])
    scope = params["scope"]
    if scope == "all":
        return inside
    background = background_pixels(problem.input, meta["bg_colors"])
    return inside & (background if scope == "background" else ~background)


def assert_only_region_changed(problem, region: np.ndarray) -> None:
    """Pixels outside ``region`` (outline included) are identical in input and answer."""
    outside = ~region
    assert np.array_equal(problem.input[outside], problem.answer[outside])


def inside_convex_polygon(points, shape) -> np.ndarray:
    """bool (H, W): pixel centers strictly inside the convex polygon ``points``."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w]
    x, y = xs + 0.5, ys + 0.5
    pts = np.asarray(points, float)
    signs = []
    for (x0, y0), (x1, y1) in zip(pts, np.roll(pts, -1, axis=0), strict=True):
        signs.append((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0))
    signs = np.stack(signs)
    return (signs > 0).all(axis=0) | (signs < 0).all(axis=0)

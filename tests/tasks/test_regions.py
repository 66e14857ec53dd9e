"""The shared outlined-region helpers against an independent oracle: inside, scopes, fitting."""

import random

import color_region_oracle as oracle
import numpy as np
import pytest

from paintkit.conditions import get_condition
from paintkit.edits.regions import (
    OUTLINE_WIDTH,
    convex_outline,
    fit_to_canvas,
    free_colors,
    outlined_region,
    scope_mask,
    scope_phrase,
)
from paintkit.renderers import render, render_mask
from paintkit.sampling.condition import condition_scene
from paintkit.scene import Canvas


def _on_canvas(region, window_mask: np.ndarray) -> np.ndarray:
    """A bool mask over the region's window, placed on the whole canvas."""
    full = np.zeros((region.scene.canvas.height, region.scene.canvas.width), bool)
    full[region.window] = window_mask
    return full


@pytest.mark.parametrize(("condition", "seed"), [("baseline", 1), ("striped", 2), ("n_high", 3),
                                                 ("horizontal", 4)])
def test_inside_and_scopes_match_the_oracle(condition, seed):
    """Inside and the two scopes against tests/tasks/color_region_oracle.py, which re-derives
    them from the rendered pixels alone (breadth-first search from the interior pixel, pixel
    centers inside the polygon, colours compared one by one)."""
    rng = random.Random(seed)
    sampled = condition_scene(rng, get_condition(condition))
    scene = sampled.scene
    color = free_colors(sampled.colors, scene)[0].rgb
    assert color not in scene.colors
    points = convex_outline(rng, scene.canvas, scene.shapes[0].bbox.center)
    region, image = outlined_region(scene, points, color)
    assert np.array_equal(image, render(region.scene))
    inside = _on_canvas(region, region.inside)
    assert inside[region.seed]
    # Reading 1: what a 4-connected fill from the interior reaches through non-outline pixels.
    assert np.array_equal(inside, oracle.enclosed(image, color, region.seed))
    # Reading 2: pixel centers inside the polygon, minus the outline's pixels (up to centers
    # within rounding of an edge).
    geometric = oracle.inside_convex_polygon(points, image.shape[:2]) & ~oracle.has_color(image, color)
    assert np.count_nonzero(inside != geometric) <= 4
    # The outline is drawn last: its pixels are exactly the outline-coloured ones, as the
    # renderer draws the stroke alone.
    assert np.array_equal(_on_canvas(region, region.stroke), oracle.has_color(image, color))
    assert np.array_equal(render_mask(region.scene, "outline")[region.window], region.stroke)
    # Scopes: background colours (both stripe colours on a striped canvas) vs everything else.
    is_background = np.zeros(image.shape[:2], bool)
    for rgb in scene.background.colors:
        is_background |= oracle.has_color(image, rgb)
    background = _on_canvas(region, scope_mask(region, image, "background"))
    shapes = _on_canvas(region, scope_mask(region, image, "shapes"))
    assert np.array_equal(background, inside & is_background) and background.any()
    assert np.array_equal(shapes, inside & ~is_background)
    assert np.array_equal(_on_canvas(region, scope_mask(region, image, "all")), inside)


def test_fit_to_canvas_shifts_by_whole_pixels_or_refuses():
    canvas = Canvas(200, 100)
    fitted = fit_to_canvas([(-10.5, 20.0), (50.5, 20.0), (20.0, 60.0)], canvas)
    margin = 0.02 * 100 + OUTLINE_WIDTH
    xs = [p[0] for p in fitted]
    assert min(xs) >= margin and max(xs) <= 200 - margin and fitted[0][1] == 20.0
    assert (fitted[0][0] + 10.5).is_integer()
    assert fit_to_canvas([(0, 0), (199, 0), (0, 10)], canvas) is None


def test_unknown_scope_lists_the_allowed_ones():
    with pytest.raises(ValueError, match="allowed: all, background, shapes"):
        scope_phrase("edges", False)

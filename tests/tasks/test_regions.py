"""The shared outlined-region helpers: one definition of "inside", scopes, fitting."""

import random

import numpy as np
import pytest

from paintkit.conditions import get_condition
from paintkit.edits.regions import (
    OUTLINE_WIDTH,
    convex_outline,
    enclosed_by_fill,
    fit_to_canvas,
    free_colors,
    outlined_region,
    scope_mask,
    scope_phrase,
)
from paintkit.renderers import render, render_mask
from paintkit.scene import Canvas
from paintkit.scene_sampling import condition_scene


@pytest.mark.parametrize(("condition", "seed"), [("baseline", 1), ("striped", 2), ("n_high", 3),
                                                 ("horizontal", 4)])
def test_inside_is_what_a_fill_from_the_interior_reaches(condition, seed):
    rng = random.Random(seed)
    sampled = condition_scene(rng, get_condition(condition))
    scene = sampled.scene
    color = free_colors(sampled.colors, scene)[0].rgb
    assert color not in scene.colors
    points = convex_outline(rng, scene.canvas, scene.shapes[0].bbox.center)
    region, image = outlined_region(scene, points, color)
    assert np.array_equal(image, render(region.scene))
    # The stroke as the renderer draws it alone is exactly the outline-colored pixels.
    assert np.array_equal(render_mask(region.scene, "outline")[region.window], region.stroke)
    assert np.array_equal(enclosed_by_fill(region), region.inside)
    assert not (region.inside & region.stroke).any()
    window = region.crop(image)
    outline_px = (window == color).all(axis=-1)
    assert np.array_equal(outline_px, region.stroke)  # the outline is on top, all of it shows
    background = scope_mask(region, image, "background")
    shapes = scope_mask(region, image, "shapes")
    assert not (background & shapes).any() and np.array_equal(background | shapes, region.inside)
    bg_colors = {tuple(c) for c in np.unique(window[background], axis=0).tolist()}
    assert bg_colors <= set(scene.background.colors)
    assert region.inside[region.seed[0] - region.window[0].start, region.seed[1] - region.window[1].start]


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

"""The code render tells each pixel's element and part with render()'s exact coverage: the
codes' colours are render() pixel for pixel, and the element numbers are where a render
with one colour per element paints each element (the footprint definition)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from scene_factory import random_scene

from paintkit.renderers import render, render_background, render_codes
from paintkit.scene import Background, Canvas, Line, Scene, Stroke


def _painted_by_codes(scene: Scene, words: np.ndarray) -> np.ndarray:
    codes = words.astype(np.int64) & 0xFFFFFF
    palette = np.zeros((2 * len(scene.elements) + 1, 3), np.uint8)
    for k, e in enumerate(scene.elements):
        if isinstance(e, Line):
            palette[2 * k + 1] = e.color
            continue
        if e.fill is not None:
            palette[2 * k + 1] = e.fill
        if e.stroke is not None:
            palette[2 * k + 2] = e.stroke.color
    background = render_background(scene)[..., :3]
    return np.where((codes == 0)[..., None], background, palette[codes])


def _one_colour_each(scene: Scene) -> Scene:
    """Element k painted (fill and stroke) in a colour that spells k + 1: its footprint."""
    def colour(k):
        return ((k + 1) & 255, (k + 1) >> 8, 0)

    elements = []
    for k, e in enumerate(scene.elements):
        if isinstance(e, Line):
            elements.append(replace(e, color=colour(k)))
        else:
            elements.append(replace(
                e, fill=None if e.fill is None else colour(k),
                stroke=None if e.stroke is None else Stroke(colour(k), e.stroke.width)))
    return Scene(scene.canvas, Background((0, 0, 0)), tuple(elements))


@pytest.mark.parametrize("seed", range(12))
def test_codes_paint_the_render_and_number_the_elements(seed):
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, 97 + seed, 131 - seed, n=int(rng.integers(1, 14)))
    words = render_codes(scene).copy()
    assert words.dtype == np.uint32 and words.shape == (scene.canvas.height,
                                                        scene.canvas.width)
    np.testing.assert_array_equal(_painted_by_codes(scene, words), render(scene))
    plain = render(_one_colour_each(scene)).astype(np.int64)
    np.testing.assert_array_equal((words.astype(np.int64) & 0xFFFFFF) + 1 >> 1,
                                  plain[..., 0] | plain[..., 1] << 8)


def test_codes_for_an_empty_scene_and_the_limit():
    scene = Scene(Canvas(5, 4), Background((9, 9, 9)))
    assert not (render_codes(scene) & 0xFFFFFF).any()
    background = render_background(scene)
    assert background.shape == (4, 5, 4) and (background[..., :3] == 9).all()
    with pytest.raises(ValueError, match="scene"):
        render_codes("not a scene")


@pytest.mark.parametrize("seed", range(10))
def test_a_window_is_the_render_cut_out(seed):
    from paintkit.renderers import render_window

    rng = np.random.default_rng(100 + seed)
    scene = random_scene(rng, 90, 70, n=int(rng.integers(1, 12)))
    full = render(scene)
    for _ in range(4):
        top, bottom = sorted(rng.choice(71, 2, replace=False))
        left, right = sorted(rng.choice(91, 2, replace=False))
        np.testing.assert_array_equal(render_window(scene, top, left, bottom, right),
                                      full[top:bottom, left:right])
    np.testing.assert_array_equal(render(scene), full)  # the clip does not stay behind
    with pytest.raises(ValueError, match="window"):
        render_window(scene, 5, 5, 5, 9)

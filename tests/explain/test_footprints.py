"""Footprints and the scene check from one code render per scene, and the shortcuts that
must not change an explanation: a render shared by scenes of one coverage, and the wrong
pixels' Lab converted once for a noisy output."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import paintkit.kernels.color.delta_e_numba as delta_e_numba
from paintkit.explainer import explain
from paintkit.explainer.footprints import checked_footprints, footprints, same_coverage
from paintkit.kernels.color.delta_e_numba import within_colour_lab, within_delta_e_rgb
from paintkit.kernels.color.lab import srgb_to_lab_numba
from paintkit.renderers import render
from paintkit.scene import Background, BBox, Canvas, Line, Scene, Shape, Stripes, Stroke

RED, BLUE, GREEN, WHITE = (255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 255)


def _scene(background=None, **colours) -> Scene:
    return Scene(Canvas(120, 90), background or Background(WHITE), (
        Shape("a", "rectangle", BBox(10, 10, 50, 30), colours.get("a", RED),
              stroke=Stroke(BLUE, 3.0)),
        Shape("b", "circle", BBox(40, 20, 40, 40), colours.get("b", BLUE)),
        Line("c", (5.0, 80.0), (110.0, 60.0), colours.get("c", GREEN), 4.0),
    ))


def _reference_index(scene: Scene) -> np.ndarray:
    """The footprint by its definition: the topmost element covering each pixel, from
    masks of each element drawn alone."""
    from paintkit.renderers import render_mask

    index = np.zeros((scene.canvas.height, scene.canvas.width), np.int64)
    for k, element in enumerate(scene.elements):
        index[render_mask(scene, element.id)] = k + 1
    return index


@pytest.mark.parametrize("background", [Background(WHITE), Background(WHITE, Stripes(
    GREEN, 45, 9.0, "sine", 3.0, 5.0))])
def test_footprints_and_check_of_one_render(background):
    scene = _scene(background)
    image = render(scene)
    (fp, renders), = checked_footprints([(scene, image)])
    assert renders
    np.testing.assert_array_equal(fp.index, _reference_index(scene))
    for k in range(3):
        ys, xs = np.nonzero(fp.index == k + 1)
        assert fp.area[k + 1] == ys.size
        assert list(fp.boxes[k + 1]) == [ys.min(), xs.min(), ys.max(), xs.max()]
    np.testing.assert_array_equal(footprints(scene).index, fp.index)
    for y, x in ((0, 0), (25, 30), (89, 119)):  # background, a fill, a corner
        bad = image.copy()
        bad[y, x, 1] ^= 4
        assert checked_footprints([(scene, bad)])[0][1] is False
    assert checked_footprints([(scene, image[:-1])]) == [(None, False)]
    assert checked_footprints([(None, image)]) == [(None, False)]


def test_scenes_of_one_coverage_share_a_render():
    scene, recoloured = _scene(), _scene(a=GREEN, c=RED)
    assert same_coverage(scene, recoloured)
    moved = replace(scene, elements=(replace(scene.elements[0], bbox=BBox(11, 10, 50, 30)),
                                     *scene.elements[1:]))
    assert not same_coverage(scene, moved)
    no_stroke = replace(scene, elements=(replace(scene.elements[0], stroke=None),
                                         *scene.elements[1:]))
    assert not same_coverage(scene, no_stroke)
    (fp1, ok1), (fp2, ok2) = checked_footprints([(scene, render(scene)),
                                                 (recoloured, render(recoloured))])
    assert ok1 and ok2 and fp2.index is fp1.index and fp2.scene is recoloured
    # the shared render still checks the second image against the second scene's colours
    (_, ok1), (_, ok2) = checked_footprints([(scene, render(scene)),
                                             (recoloured, render(scene))])
    assert ok1 and not ok2


@pytest.mark.parametrize("formula", ["cie76", "cie94", "ciede2000"])
def test_lab_converted_once_makes_the_same_decisions(formula):
    rng = np.random.default_rng(7)
    sample = rng.integers(0, 256, (5000, 3), dtype=np.uint8)
    sample[:50] = (12, 200, 40)  # equal colours
    sample[50:100] = (14, 198, 43)  # near ones
    lab = srgb_to_lab_numba(sample)
    for colour in ((12, 200, 40), (0, 0, 0), (255, 255, 255), (128, 64, 200)):
        colour = np.array(colour, np.uint8)
        for limit in (0, 2, 5, 10):
            np.testing.assert_array_equal(within_colour_lab(colour, sample, lab, limit, formula),
                                          within_delta_e_rgb(colour, sample, limit, formula))
    with pytest.raises(ValueError, match="sample_lab"):
        within_colour_lab(colour, sample, lab[:10], 5, formula)


def test_noisy_output_explained_the_same_with_and_without_the_lab_shortcut(monkeypatch):
    """An output that differs everywhere takes the Lab-once path; forcing either path gives
    byte-identical explanations."""
    scene = _scene()
    answer_scene = replace(scene, elements=(
        replace(scene.elements[0], bbox=BBox(50, 40, 50, 30)), *scene.elements[1:]))
    meta = {"scene": scene.to_dict(), "answer_scene": answer_scene.to_dict()}
    inputs, answer = render(scene), render(answer_scene)
    rng = np.random.default_rng(1)
    noisy = np.clip(inputs.astype(int) + rng.integers(-9, 10, inputs.shape), 0, 255) \
        .astype(np.uint8)
    results = []
    for threshold in (0, 1 << 40):
        monkeypatch.setattr(delta_e_numba, "SERIAL_PIXELS", threshold)
        results.append(json.dumps(explain(noisy, answer, inputs, meta, tolerance=8)))
    assert results[0] == results[1]
    assert '"misplaced"' in results[0]

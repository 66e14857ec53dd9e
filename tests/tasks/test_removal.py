"""Removal: the removed shapes' footprints show the background, kept shapes are untouched,
and the removed set follows from the stated criterion alone."""

import math

import numpy as np
import pytest
from structural_checks import color_mask, problems

from paintkit.colors import describe_color
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.shapes import BBOX_POINT_NAMES, bbox_points, control_points
from paintkit.tasks import task_module


def _check_pixels(p, scene: Scene):
    removed, kept = p.metadata["params"]["removed"], p.metadata["params"]["kept"]
    assert removed and kept
    assert sorted(removed + kept) == sorted(s.id for s in scene.shapes)
    background = render(Scene(scene.canvas, scene.background, ()))
    kept_cover = np.zeros(p.input.shape[:2], bool)
    for sid in kept:
        kept_cover |= render_mask(scene, sid)
    footprint = np.zeros_like(kept_cover)
    for sid in removed:
        shape = scene.element(sid)
        mask = render_mask(scene, sid)
        free = mask & ~kept_cover
        # No pixel of the removed shape's color remains where no kept shape covers it.
        assert not color_mask(p.answer, [shape.fill])[free].any()
        footprint |= mask
    uncovered = footprint & ~kept_cover
    assert np.array_equal(p.answer[uncovered], background[uncovered])
    # Kept shapes and everything outside the removed footprints are unchanged.
    assert np.array_equal(p.answer[~footprint], p.input[~footprint])
    assert np.array_equal(p.answer[kept_cover], p.input[kept_cover])


@pytest.mark.parametrize("mode", ["attribute", "location"])
def test_removed_footprints_show_background(mode):
    for p, scene in problems("removal", mode, slots=(0, 1, 2)):
        _check_pixels(p, scene)


def _matches(shape, prm) -> bool:
    ok = True
    if prm["criterion"] in ("type", "both"):
        ok &= shape.type == prm["shape_type"]
    if prm["criterion"] in ("color", "both"):
        ok &= shape.fill == tuple(prm["color"])
    return ok


def test_attribute_removes_exactly_the_stated_shapes():
    seen = set()
    for p, scene in problems("removal", "attribute", slots=range(6)):
        prm = p.metadata["params"]
        crit, inverted = prm["criterion"], prm["inverted"]
        seen.add((crit, inverted))
        if crit in ("type", "both"):
            assert prm["shape_type"] in p.instruction
        if crit in ("color", "both"):
            assert describe_color(tuple(prm["color"])) in p.instruction
        assert ("not" in p.instruction) == inverted
        expected = {s.id for s in scene.shapes if _matches(s, prm) != inverted}
        assert expected == set(prm["removed"])
    assert len(seen) >= 4


def _point(shape, name):
    if name in BBOX_POINT_NAMES:
        return bbox_points(shape)[name]
    return control_points(shape).get(name)


def test_location_names_exactly_one_shape():
    inverted_seen = set()
    for p, scene in problems("removal", "location", slots=range(5)):
        prm = p.metadata["params"]
        x, y = prm["coordinate"]
        assert f"({x}, {y})" in p.instruction and prm["point"] in p.instruction
        near = [s.id for s in scene.shapes if (q := _point(s, prm["point"])) is not None
                and math.hypot(q[0] - x, q[1] - y) <= 0.75]
        assert near == [prm["located_shape"]]
        far = [s.id for s in scene.shapes if (q := _point(s, prm["point"])) is not None
               and math.hypot(q[0] - x, q[1] - y) < 8]
        assert far == near, "another shape's same-named point is within 8 px"
        expected = [s.id for s in scene.shapes if s.id != near[0]] if prm["inverted"] else near
        assert sorted(expected) == sorted(prm["removed"])
        inverted_seen.add(prm["inverted"])
    assert inverted_seen == {False, True}


def test_bad_mode_lists_the_modes():
    with pytest.raises(ValueError, match="allowed: attribute, location"):
        task_module("removal").generate(0, "baseline", "everything")

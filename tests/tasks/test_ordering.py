"""Ordering: in the answer, the group's sizes (pixel areas) are monotone along the line in
the stated direction, the named control points occupy exactly the input's positions, and
every shape only moved along the line."""

import re

import numpy as np
import pytest

from paintkit.colors import color_name
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.shapes import bbox_points, control_points
from paintkit.sources import generate

SENTENCE = re.compile(
    r"Each of the (\d+) (.+?) has (.+?) on one (horizontal|vertical) line\. Rearrange the \2 "
    r"along that line in (ascending|descending) order of size \(area\) "
    r"(from left to right|from top to bottom), (smallest|largest) (?:on|at) the (left|top): ")


def _point(shape, phrase: str):
    m = re.fullmatch(r"the (.+) of its bounding box", phrase)
    if m:
        name = "bounding-box center" if m[1] == "center" else m[1]
        return bbox_points(shape)[name]
    assert phrase.startswith("its ")
    return control_points(shape)[phrase[4:]]


def _group(scene: Scene, words: str):
    return [s for s in scene.shapes
            if words in {f"{color_name(s.fill)} {s.type}s", f"{color_name(s.fill)} {s.type}es"}]


@pytest.mark.parametrize("condition", ["baseline", "horizontal", "vertical", "striped", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_answer_is_sorted_along_the_line(condition, slot):
    p = generate("ordering", slot, condition, None)
    m = SENTENCE.match(p.instruction)
    assert m, p.instruction
    n, words, phrase, line, direction = int(m[1]), m[2], m[3], m[4], m[5]
    assert (line == "horizontal") == (m[6] == "from left to right")
    assert (direction == "ascending") == (m[7] == "smallest")
    scene = Scene.from_dict(p.metadata["scene"])
    answer = Scene.from_dict(p.metadata["answer_scene"])
    before, after = _group(scene, words), _group(answer, words)
    assert len(before) == len(after) == n
    along = 0 if line == "horizontal" else 1

    def line_points(group):
        pts = np.array([_point(s, phrase) for s in group])
        assert np.ptp(pts[:, 1 - along]) < 1e-6, "control points are not on one line"
        return pts

    pin, pout = line_points(before), line_points(after)
    assert np.allclose(np.sort(pin[:, along]), np.sort(pout[:, along]), atol=1e-6)
    assert np.allclose(pin[0, 1 - along], pout[0, 1 - along])

    def areas_in_order(sc, group, pts):
        areas = [int(render_mask(sc, s.id).sum()) for s in group]
        return [a for _, a in sorted(zip(pts[:, along], areas, strict=True))]

    sign = 1 if direction == "ascending" else -1
    out = areas_in_order(answer, after, pout)
    assert all(sign * (b - a) > 0 for a, b in zip(out, out[1:], strict=False)), out
    # The same shapes, moved by fractions of a pixel: areas agree up to a row and a column.
    for s in before:
        a, b = render_mask(scene, s.id).sum(), render_mask(answer, s.id).sum()
        assert abs(int(a) - int(b)) <= s.bbox.width + s.bbox.height + 2
    # Sizes clearly distinct: 15% in linear size is 32% in area (pixel counts a bit looser).
    ranked = sorted(out)
    assert min(b / a for a, b in zip(ranked, ranked[1:], strict=False)) > 1.25
    inp = areas_in_order(scene, before, pin)
    assert inp != out, "the input was already in the requested order"
    # Shapes only moved along the line: same type, size, rotation; pure translation.
    old = {s.id: s for s in before}
    for s in after:
        o = old[s.id]
        assert (s.type, s.fill, s.rotation) == (o.type, o.fill, o.rotation)
        assert np.isclose(s.bbox.width, o.bbox.width) and np.isclose(s.bbox.height, o.bbox.height)
    # Nothing overlaps in the answer, and the pixels are the answer scene's.
    masks = [render_mask(answer, e.id) for e in answer.shapes]
    assert int(np.sum(masks, axis=0).max()) == 1
    assert np.array_equal(p.answer, render(answer)) and np.array_equal(p.input, render(scene))
    others = [e for e in scene.elements if e.id not in old]
    assert [e for e in answer.elements if e.id not in old] == others


def test_both_lines_and_directions_occur():
    seen = set()
    for slot in range(10):
        params = generate("ordering", slot, "baseline", None).metadata["params"]
        seen.add((params["line"], params["direction"]))
    assert {line for line, _ in seen} == {"horizontal", "vertical"}
    assert {d for _, d in seen} == {"ascending", "descending"}

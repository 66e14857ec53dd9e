"""Counting: the tally marks left in the answer's pixels (4-connected components of the
mark color in the strip) equal the number of shapes of the stated type / color counted in
the input scene, and the removed marks are the ones at the stated end."""

import re

import numpy as np
import pytest

from paintkit.colors import color_name
from paintkit.kernels.flood_fill import label_components_numba
from paintkit.renderers import render_mask
from paintkit.scene import SHAPE_TYPES, Scene
from paintkit.sources import generate

SENTENCE = re.compile(
    r"The tally strip along the (top|bottom|left|right) edge of the canvas has one mark for "
    r"each shape in the image\. Remove marks from its (left|right|top|bottom) end until it has "
    r"as many marks as there are (.+?) in the image\.")
PLURALS = {t + ("es" if t.endswith("s") else "s"): t for t in SHAPE_TYPES}


def _marks(pixels: np.ndarray, band, color) -> list[tuple[float, float]]:
    """Centroids (x, y) of the mark-colored components inside ``band``, in strip order."""
    x0, y0, x1, y1 = (int(v) for v in band)
    crop = pixels[y0:y1, x0:x1]
    labels = label_components_numba(np.all(crop == np.array(color, np.uint8), axis=-1))
    out = []
    for k in range(1, int(labels.max()) + 1):
        rows, cols = np.nonzero(labels == k)
        out.append((x0 + cols.mean(), y0 + rows.mean()))
    return sorted(out, key=lambda c: (c[0], c[1]))


@pytest.mark.parametrize("mode", ["shape", "color"])
@pytest.mark.parametrize("condition", ["baseline", "vertical", "striped", "n_high", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1])
def test_marks_left_equal_the_matching_shapes(mode, condition, slot):
    p = generate("counting", slot, condition, mode)
    m = SENTENCE.match(p.instruction)
    assert m, p.instruction
    edge, end, what = m[1], m[2], m[3]
    assert not re.search(r"\d", p.instruction), "the instruction must not state the count"
    scene = Scene.from_dict(p.metadata["scene"])
    shapes = scene.shapes
    if mode == "shape":
        assert what in PLURALS
        expected = sum(s.type == PLURALS[what] for s in shapes)
    else:
        assert what.endswith(" shapes")
        expected = sum(color_name(s.fill) == what[: -len(" shapes")] for s in shapes)
    assert 1 <= expected < len(shapes)
    params = p.metadata["params"]
    band, color = params["band"], params["mark_color"]
    assert color not in [list(s.fill) for s in shapes]
    before, after = _marks(p.input, band, color), _marks(p.answer, band, color)
    assert len(before) == len(shapes)
    assert len(after) == expected
    # Evenly spaced marks along the edge; the kept ones are the far end from the stated one.
    along = 0 if edge in ("top", "bottom") else 1
    pos = np.array([c[along] for c in before])
    assert np.ptp(np.diff(pos)) < 1e-6
    kept = before[:expected] if end in ("right", "bottom") else before[len(before) - expected:]
    assert np.allclose(after, kept)
    # Shapes never reach into the band; the edit stays inside it.
    x0, y0, x1, y1 = (int(v) for v in band)
    for s in shapes:
        assert not render_mask(scene, s.id)[y0:y1, x0:x1].any()
    edit = p.edit_mask.copy()
    edit[y0:y1, x0:x1] = False
    assert not edit.any()


@pytest.mark.parametrize(("case", "feasible"), [
    (("shape", "baseline"), range(1, 5)),
    (("color", "baseline"), range(1, 3)),
    (("color", "n_med"), range(1, 5)),
])
def test_targets_cover_the_feasible_range_evenly(case, feasible):
    """The count is drawn first (uniform), so no count dominates: 6 of 8 asked for 1 before."""
    from paintkit.tasks.counting import target_range

    mode, condition = case
    counts = [generate("counting", slot, condition, mode).metadata["params"]["count"]
              for slot in range(32)]
    n = {"baseline": 5, "n_med": 10}[condition]
    assert target_range(mode, n, 8) == feasible
    assert set(counts) == set(feasible), counts
    assert max(counts.count(k) for k in feasible) <= 0.6 * len(counts), counts


def test_target_range_upper_ends():
    from paintkit.tasks.counting import target_range

    by_type = [target_range("shape", n, 8)[-1] for n in (5, 10, 25, 60)]
    by_color = [target_range("color", n, 8)[-1] for n in (5, 10, 25, 60)]
    assert (by_type, by_color) == ([4, 8, 8, 8], [2, 4, 9, 12])

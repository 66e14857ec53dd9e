"""Point operations, re-derived per distinct input color with exact arithmetic: invert
(255 - v), grayscale (round(0.299 R + 0.587 G + 0.114 B), halves up, on all channels) and
brightness (v + offset clamped to [0, 255]) on the selected pixels inside the outline."""

from fractions import Fraction
from math import floor

import numpy as np
import pytest
from color_region_oracle import assert_only_region_changed, has_color, scoped_region

from paintkit.sources import generate

CASES = [(mode, cond, slot) for mode in ("brightness", "grayscale", "invert")
         for cond in ("baseline", "striped", "nonstandard") for slot in range(2)]


def expected_color(pixel, op, offset):
    if op == "invert":
        return tuple(255 - v for v in pixel)
    if op == "grayscale":
        r, g, b = pixel
        luma = floor(Fraction(299 * r + 587 * g + 114 * b, 1000) + Fraction(1, 2))
        return (luma,) * 3
    return tuple(min(255, max(0, v + offset)) for v in pixel)


@pytest.mark.parametrize(("mode", "condition", "slot"), CASES)
def test_answer_is_the_stated_formula(mode, condition, slot):
    p = generate("point_operations", slot, condition, mode)
    params = p.metadata["params"]
    assert params["operation"] == mode
    offset = params["offset"]
    region = scoped_region(p)
    expected = p.input.copy()
    packed = p.input[region].astype(np.int64)
    colors = np.unique(packed[:, 0] << 16 | packed[:, 1] << 8 | packed[:, 2]).tolist()
    for k in colors:
        pixel = ((k >> 16) & 255, (k >> 8) & 255, k & 255)
        expected[region & has_color(p.input, pixel)] = expected_color(pixel, mode, offset)
    assert np.array_equal(p.answer, expected)
    assert_only_region_changed(p, region)
    assert params["outline_color"] in p.instruction
    if mode == "brightness":
        assert 30 <= abs(offset) <= 80
        assert f"by {abs(offset)}" in p.instruction
        assert ("Brighten" if offset > 0 else "Darken") in p.instruction
        assert "clamped to [0, 255]" in p.instruction
    else:
        assert offset is None
        formula = "255 − v" if mode == "invert" else "0.299 R + 0.587 G + 0.114 B"
        assert formula in p.instruction


def test_scopes_and_signs_all_occur():
    seen = set()
    for slot in range(12):
        p = generate("point_operations", slot, "baseline", "brightness")
        params = p.metadata["params"]
        seen |= {params["scope"], "+" if params["offset"] > 0 else "-"}
    assert seen == {"all", "background", "shapes", "+", "-"}

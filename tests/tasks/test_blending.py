"""Blending, re-derived with exact fractions: every selected pixel inside the outline becomes
round(p/100 * color + (1 - p/100) * pixel) per channel, halves up; nothing else changes."""

from fractions import Fraction
from math import floor

import numpy as np
import pytest
from color_region_oracle import assert_only_region_changed, has_color, scoped_region

from paintkit.colors import rgb_to_hex
from paintkit.sources import generate

CASES = [(cond, slot) for cond in ("baseline", "striped", "nonstandard", "n_high") for slot in range(3)]


def blended(pixel, color, percent):
    alpha = Fraction(percent, 100)
    return tuple(floor(alpha * c + (1 - alpha) * v + Fraction(1, 2))
                 for v, c in zip(pixel, color, strict=True))


@pytest.mark.parametrize(("condition", "slot"), CASES)
def test_answer_is_the_stated_blend(condition, slot):
    p = generate("blending", slot, condition, "default")
    params = p.metadata["params"]
    color, percent = tuple(params["color"]), params["percent"]
    assert 10 <= percent <= 90
    region = scoped_region(p)
    expected = p.input.copy()
    for pixel in _colors(p.input[region]):
        expected[region & has_color(p.input, pixel)] = blended(pixel, color, percent)
    assert np.array_equal(p.answer, expected)
    assert_only_region_changed(p, region)
    assert f"{percent}% opacity" in p.instruction and rgb_to_hex(color) in p.instruction
    assert "halves rounded up" in p.instruction and params["outline_color"] in p.instruction


def _colors(pixels):
    packed = np.unique(pixels[:, 0].astype(np.int64) << 16 | pixels[:, 1].astype(np.int64) << 8
                       | pixels[:, 2])
    return [((k >> 16) & 255, (k >> 8) & 255, k & 255) for k in packed.tolist()]


def _has_tie(pixel, color, percent):
    return any((percent * c + (100 - percent) * v) % 100 == 50 for v, c in zip(pixel, color, strict=True))


def test_halfway_values_round_up():
    # Find a generated problem where a channel lands exactly on .5 and check it went up.
    for slot in range(60):
        p = generate("blending", slot, "baseline", "default")
        color, percent = p.metadata["params"]["color"], p.metadata["params"]["percent"]
        if not any(_has_tie(c, color, percent) for c in _colors(p.input.reshape(-1, 3))):
            continue
        region = scoped_region(p)
        ties = [c for c in _colors(p.input[region]) if _has_tie(c, color, percent)]
        if not ties:
            continue
        for pixel in ties:
            got = p.answer[region & has_color(p.input, pixel)]
            assert (got == blended(pixel, color, percent)).all()
            for v, c, out in zip(pixel, color, got[0].tolist(), strict=True):
                exact = Fraction(percent * c + (100 - percent) * v, 100)
                if exact.denominator == 2:
                    assert out == exact + Fraction(1, 2)
        return
    pytest.fail("no half-way value in 60 problems")

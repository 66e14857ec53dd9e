"""Translation: the answer is the input target moved by the displacement the instruction
states, re-derived from the instruction's words alone."""

import re
from collections import Counter

import numpy as np
import pytest
from geometric_checks import (
    check_answer_scene,
    check_control_points,
    check_target_mask,
    resolve_point,
    scenes,
)

from paintkit.sources import generate
from paintkit.sources.paintbench import PaintBenchSource

AMOUNT = re.compile(r"Move (the .+?) (\d+)% of the canvas (width|height) (to the right|to the left|down|up)"
                    r"(?: and (\d+)% of the canvas height (down|up))?\. ")
ALIGN = re.compile(r"Move (the .+?) so that (.+?) lands on (.+?)\. ")
SIGN = {"to the right": 1, "to the left": -1, "down": 1, "up": -1}


def stated_displacement(p) -> tuple[float, float]:
    """(dx, dy) in pixels, from the instruction's words and the input scene only."""
    scene, _, target, _ = scenes(p)
    w, h = scene.canvas.width, scene.canvas.height
    m = AMOUNT.match(p.instruction)
    if m:
        dx = dy = 0.0
        first = SIGN[m[4]] * int(m[2])
        if m[3] == "width":
            dx = first * w / 100
            if m[5]:
                dy = SIGN[m[6]] * int(m[5]) * h / 100
        else:
            assert m[5] is None
            dy = first * h / 100
        return dx, dy
    m = ALIGN.match(p.instruction)
    assert m, p.instruction
    own = resolve_point(m[2], scene, target)
    ref = resolve_point(m[3], scene, target)
    return ref[0] - own[0], ref[1] - own[1]


@pytest.mark.parametrize("mode", ["amount", "align"])
@pytest.mark.parametrize("condition", ["baseline", "horizontal", "striped", "n_high"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_answer_is_the_stated_move(mode, condition, slot):
    p = generate("translation", slot, condition, mode)
    check_answer_scene(p, "Move")
    dx, dy = stated_displacement(p)
    params = p.metadata["params"]
    assert params["dx"] == pytest.approx(dx, abs=1e-9) and params["dy"] == pytest.approx(dy, abs=1e-9)
    assert abs(dx) >= 1 or abs(dy) >= 1

    def move(points):
        return points + np.array([dx, dy])

    check_target_mask(p, move)
    check_control_points(p, move)


def test_whole_pixel_moves_shift_the_mask_exactly():
    # On a 1000 px wide canvas every whole percent is a whole number of pixels.
    from paintkit.conditions import Condition
    from paintkit.renderers import render_mask

    cond = Condition("baseline", 1000, 1000, "standard", False, "baseline")
    for slot in range(4):
        p = PaintBenchSource().problem("translation", slot, condition=cond, mode="amount",
                                       condition_key="baseline@1000x1000")
        scene, answer_scene, target, _ = scenes(p)
        dx, dy = (int(v) for v in stated_displacement(p))
        before = render_mask(scene, target.id)
        after = render_mask(answer_scene, target.id)
        moved = np.zeros_like(before)
        h, w = before.shape
        src = before[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)]
        moved[max(0, dy):max(0, dy) + src.shape[0], max(0, dx):max(0, dx) + src.shape[1]] = src
        assert np.array_equal(after, moved)


def test_modes_cover_both_axes_and_point_kinds():
    axes, refs = Counter(), Counter()
    for slot in range(24):
        p = generate("translation", slot, "baseline", "amount")
        m = AMOUNT.match(p.instruction)
        axes["both" if m[5] else m[3]] += 1
        q = generate("translation", slot, "baseline", "align")
        refs["canvas" if q.metadata["params"]["reference_shape"] is None else "shape"] += 1
        assert all(str(abs(v)) + "%" in p.instruction
                   for v in (p.metadata["params"]["dx_percent"], p.metadata["params"]["dy_percent"]) if v)
    assert set(axes) == {"width", "height", "both"} and set(refs) == {"canvas", "shape"}

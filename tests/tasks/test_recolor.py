"""Recolor, re-derived from the input scene: the selector picks the stated targets, every
target pixel takes the new color, every other pixel is unchanged, and the instruction names
the targets and the color (code, or a uniquely described source shape)."""

import re

import numpy as np
import pytest

from paintkit.colors import describe_color, hex_to_rgb, rgb_to_hex
from paintkit.renderers import render_mask
from paintkit.scene import Scene
from paintkit.sources import generate

CASES = [(mode, cond, slot) for mode in ("color_code", "dropper")
         for cond in ("baseline", "nonstandard", "striped", "n_high") for slot in range(3)]


def selected(scene, selector):
    kind, value, negate = selector["kind"], selector["value"], selector["negate"]
    match = {"shape": lambda s: s.id == value, "color": lambda s: rgb_to_hex(s.fill) == value,
             "type": lambda s: s.type == value}[kind]
    return [s.id for s in scene.shapes if match(s) != negate]


def matches_phrase(shape, phrase):
    """Does "the red star" / "the red shape" / "the star" describe ``shape``?"""
    words = phrase.removeprefix("the ")
    color = describe_color(shape.fill)
    return words in (shape.type, f"{color} shape", f"{color} {shape.type}")


@pytest.mark.parametrize(("mode", "condition", "slot"), CASES)
def test_targets_take_the_new_color_and_nothing_else_changes(mode, condition, slot):
    p = generate("recolor", slot, condition, mode)
    scene = Scene.from_dict(p.metadata["scene"])
    params = p.metadata["params"]
    targets = selected(scene, params["selector"])
    assert targets and targets == p.metadata["targets"]
    new = hex_to_rgb(params["color"])
    assert new not in scene.background.colors
    touched = np.zeros(p.input.shape[:2], bool)
    for shape in scene.shapes:
        if shape.id in targets:
            assert shape.fill != new, "a target already had the new color"
            mask = render_mask(scene, shape.id)
            assert (p.input[mask] == shape.fill).all()
            assert (p.answer[mask] == new).all()
            touched |= mask
    assert np.array_equal(p.input[~touched], p.answer[~touched])
    if mode == "color_code":
        assert params["color"] in p.instruction
    else:
        assert "#" not in p.instruction
        source = scene.element(params["source"])
        assert source.id not in targets and source.fill == new
        phrase = re.search(r"to the color of (the [^.]+)\.", p.instruction).group(1)
        assert [s.id for s in scene.shapes if matches_phrase(s, phrase)] == [source.id]


def test_single_shape_descriptions_are_unique():
    for slot in range(24):
        p = generate("recolor", slot, "n_high", "color_code")
        selector = p.metadata["params"]["selector"]
        if selector["kind"] != "shape":
            continue
        scene = Scene.from_dict(p.metadata["scene"])
        phrase = re.match(r"Recolor (?:every shape except )?(the [^ ]+(?: [^ ]+)?) to",
                          p.instruction).group(1)
        assert [s.id for s in scene.shapes if matches_phrase(s, phrase)] == [selector["value"]]


def test_every_selector_kind_occurs_with_and_without_negation():
    seen = set()
    for slot in range(40):
        selector = generate("recolor", slot, "n_med", "dropper").metadata["params"]["selector"]
        seen.add((selector["kind"], selector["negate"]))
    assert seen == {(k, n) for k in ("shape", "color", "type") for n in (False, True)}

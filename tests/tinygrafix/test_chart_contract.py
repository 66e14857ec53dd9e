"""The chart task contract: doing nothing is never rewarded, axis lines stay on top of the
data, and instructions read as plain English (issue 26, items 1, 2 and 4)."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest
from chart_cases import chart_problem, task_slots
from chart_oracle import delta_e

from paintkit.sources import generate
from paintkit.tinygrafix.render import render_chart

TOLERANCES = range(11)


def identity_miou_oracle(inp: np.ndarray, ans: np.ndarray) -> float:
    """mIoU of the input scored as the output, from the metric's definition: with the output
    equal to the input every preservation pixel is right, so IoU_t is the share of edit
    pixels (input != answer) whose input colour is within CIE76 ``t`` of the answer's."""
    from skimage.color import deltaE_cie76, rgb2lab

    edit = np.any(inp != ans, axis=-1)
    if not edit.any():
        return 0.0
    de = deltaE_cie76(rgb2lab(inp[edit][None]), rgb2lab(ans[edit][None]))[0]
    return float(np.mean([np.mean(de <= t) for t in TOLERANCES]))


@pytest.mark.parametrize("name,slot", task_slots())
def test_doing_nothing_is_never_rewarded(name, slot):
    p = chart_problem(name, slot)
    assert identity_miou_oracle(p.input, p.answer) <= 0.05


def test_the_contract_rejects_a_seed_that_rewards_doing_nothing(monkeypatch):
    import paintkit.tinygrafix.generate as gen

    plain = generate("heatmap_shift_heatmap", 20, source="tinygrafixbench")
    calls = []

    def fake(inp, ans):  # the first attempt that renders would reward doing nothing
        calls.append(1)
        return int(np.any(inp != ans, axis=-1).sum()), 0.9 if len(calls) == 1 else 0.0

    monkeypatch.setattr(gen, "identity_check", fake)
    moved = generate("heatmap_shift_heatmap", 20, source="tinygrafixbench")
    assert moved.metadata["attempt"] > plain.metadata["attempt"]


def _hex(code: str) -> np.ndarray:
    return np.array([int(code[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)


def _text_pixels(image: np.ndarray, state: dict) -> np.ndarray:
    return np.all(image == _hex(state["theme"]["text"]), axis=-1)


@pytest.mark.parametrize("name", ["heatmap_mask_cells", "bar_chart_remove_bar", "line_chart_shade_interval",
                                  "scatter_plot_remove_outlier"])
def test_axis_lines_are_drawn_over_the_data(name):
    # The same chart with every data element and with none: the axis lines (text colour)
    # are the same pixels, so emptying a cell or removing a bar uncovers no axis edge.
    state = chart_problem(name, 0).metadata["input_state"]
    empty = copy.deepcopy(state)
    if state["chart"] == "heatmap":
        full = copy.deepcopy(state)
        full["values"] = [[state["vmin"] if v is None else v for v in row] for row in state["values"]]
        empty["values"] = [[None for _ in row] for row in state["values"]]
        state = full
    elif state["chart"] == "bar_chart":
        empty["bars"] = [{**b, "value": None, "color": None} for b in state["bars"]]
    elif state["chart"] == "line_chart":
        state = copy.deepcopy(state)
        x0, x1 = state["xlim"]
        y0, y1 = state["ylim"]
        state["fills"] = [{"polygon": [[x0, y0], [x0, y1], [x1, y1], [x1, y0]], "color": state["color"]}]
        empty["runs"], empty["fills"] = [], []
    else:
        state = copy.deepcopy(state)
        state["classes"][0]["points"].append(list(map(float, (state["xlim"][0], state["ylim"][0]))))
        empty["classes"] = [{**c, "points": [], "line": None} for c in state["classes"]]
    with_data, without = render_chart(state), render_chart(empty)
    assert not np.array_equal(with_data, without)
    assert np.array_equal(_text_pixels(with_data, state), _text_pixels(without, state))


@pytest.mark.parametrize("name,slot", task_slots("line_chart", "shade_interval"))
def test_shade_contrasts_with_the_line(name, slot):
    p = chart_problem(name, slot)
    ans = p.metadata["answer_state"]
    assert delta_e(ans["fills"][0]["color"], ans["color"]) >= 30


@pytest.mark.parametrize("name,slot", task_slots())
def test_instructions_read_as_plain_english(name, slot):
    text = chart_problem(name, slot).instruction
    # one spelling across the suites (PaintBench writes "color")
    assert not re.search(r"colou?r", text.replace("color", "")), text
    assert "each of:" not in text and "the colour the colour scale" not in text
    assert not re.search(r"\b1 gaps?\b", text) and "has one gap. Bridge each" not in text


def test_one_spelling_of_counter_clockwise_across_suites():
    # PaintBench writes "counter-clockwise" (rotation, cropping); compositional chains too
    import random

    from paintkit.compositional.operations import _geometric
    from paintkit.scene import Scene
    from paintkit.tasks import task_module

    problem = task_module("rotation").generate(0, "baseline", None)
    scene = Scene.from_dict(problem.metadata["scene"])
    ways = set()
    for seed in range(40):
        _, clause, params = _geometric(random.Random(seed), scene, scene.shapes[0], "rotate")
        ways.add("counter-clockwise" in clause if params["degrees_clockwise"] < 0 else "clockwise" in clause)
        assert "counterclockwise" not in clause
    assert ways == {True}

"""Semantic checks from the states: bar chart and scatter plot tasks (issue 12, item 4)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from chart_cases import chart_problem, task_slots
from chart_oracle import line_value, ols, pixel_count, sig3


def _states(name, slot):
    p = chart_problem(name, slot)
    return p, p.metadata["input_state"], p.metadata["answer_state"]


@pytest.mark.parametrize("name,slot", task_slots("bar_chart"))
def test_bar_rules_hold(name, slot):
    _, inp, ans = _states(name, slot)
    base = ans if name.endswith("add_bar") else inp
    assert all(b["value"] is not None for b in base["bars"])
    values = sorted(b["value"] for b in base["bars"])
    assert 4 <= len(values) <= 7
    assert np.diff(values).min() >= 0.05 * base["ymax"] - 1e-12
    assert all(sig3(v) for v in values)
    assert all(0 < v <= base["ymax"] for v in values)
    if name.endswith("sort_bars"):
        by_slot = [b["value"] for b in sorted(inp["bars"], key=lambda b: b["slot"])]
        assert by_slot not in (sorted(by_slot), sorted(by_slot, reverse=True))


@pytest.mark.parametrize("name,slot", task_slots("bar_chart", "sort_bars"))
def test_sort_bars_answer_is_sorted_and_bars_keep_label_and_colour(name, slot):
    p, inp, ans = _states(name, slot)
    order = p.metadata["params"]["order"]
    heights = [b["value"] for b in sorted(ans["bars"], key=lambda b: b["slot"])]
    assert heights == sorted(heights, reverse=(order == "descending"))
    assert order in p.instruction
    pairs = {(b["label"], b["value"], b["color"]) for b in inp["bars"]}
    assert {(b["label"], b["value"], b["color"]) for b in ans["bars"]} == pairs
    assert sorted(b["slot"] for b in ans["bars"]) == list(range(len(heights)))


@pytest.mark.parametrize("name,slot", task_slots("bar_chart", "add_bar"))
def test_add_bar_fills_the_empty_slot_with_the_stated_bar(name, slot):
    p, inp, ans = _states(name, slot)
    (added,) = [b for b in ans["bars"] if b not in inp["bars"]]
    # the empty slot keeps its label under the axis (as in the paper's problems)
    (empty,) = [b for b in inp["bars"] if b["value"] is None]
    assert empty == {**added, "value": None, "color": None}
    assert [b["label"] for b in inp["bars"]] == [b["label"] for b in ans["bars"]]
    assert f'"{added["label"]}"' in p.instruction and added["color"] in p.instruction
    assert float(re.search(r"height ([0-9.]+)", p.instruction).group(1)) == added["value"]
    assert pixel_count(p.answer, added["color"]) > 500 and pixel_count(p.input, added["color"]) == 0


@pytest.mark.parametrize("name,slot", task_slots("bar_chart", "remove_bar"))
def test_remove_bar_leaves_others_in_place(name, slot):
    p, inp, ans = _states(name, slot)
    (gone,) = [b for b in inp["bars"] if b not in ans["bars"]]
    assert f'"{gone["label"]}"' in p.instruction
    assert pixel_count(p.answer, gone["color"]) == 0


@pytest.mark.parametrize("name,slot", task_slots("bar_chart", "recolor_bar"))
def test_recolor_bar_paints_exactly_the_new_colour(name, slot):
    p, inp, ans = _states(name, slot)
    color = p.metadata["params"]["color"]
    assert color in p.instruction
    assert pixel_count(p.answer, color) > 500 and pixel_count(p.input, color) == 0
    changed = [b for b in ans["bars"] if b not in inp["bars"]]
    assert len(changed) == 1 and changed[0]["color"] == color


@pytest.mark.parametrize("name,slot", task_slots("scatter_plot"))
def test_scatter_outlier_is_clearly_the_largest_residual(name, slot):
    _, inp, _ = _states(name, slot)
    a = inp["classes"][0]
    slope, intercept = ols(a["points"])  # the drawn line is class A's least-squares line
    xs = np.array(a["line"])[:, 0]
    assert np.allclose(np.array(a["line"])[:, 1], slope * xs + intercept, rtol=1e-9,
                       atol=1e-9 * abs(inp["ylim"][1]))
    pts = np.array(a["points"])
    res = np.sort(np.abs(pts[:, 1] - line_value(a["line"], pts[:, 0])))
    assert res[-1] >= 1.5 * res[-2]
    spans = [inp["xlim"][1] - inp["xlim"][0], inp["ylim"][1] - inp["ylim"][0]]
    allpts = np.array([p for c in inp["classes"] for p in c["points"]]) / spans
    gaps = np.linalg.norm(allpts[:, None] - allpts[None], axis=-1) + np.eye(len(allpts))
    assert gaps.min() >= 0.03 - 1e-12  # minimum point spacing


@pytest.mark.parametrize("name,slot", task_slots("scatter_plot", "draw_best_fit_line"))
def test_best_fit_line_is_least_squares_through_class_b(name, slot):
    _, inp, ans = _states(name, slot)
    b = ans["classes"][1]
    assert inp["classes"][1]["line"] is None
    slope, intercept = ols(b["points"])
    line = np.array(b["line"])
    assert np.allclose(line[:, 0], inp["xlim"])
    assert np.allclose(line[:, 1], slope * line[:, 0] + intercept, rtol=1e-9,
                       atol=1e-9 * abs(inp["ylim"][1]))


@pytest.mark.parametrize("name,slot", task_slots("scatter_plot", "remove_outlier"))
def test_removed_point_is_the_largest_residual(name, slot):
    _, inp, ans = _states(name, slot)
    a_in, a_out = inp["classes"][0], ans["classes"][0]
    pts = np.array(a_in["points"])
    worst = int(np.argmax(np.abs(pts[:, 1] - line_value(a_in["line"], pts[:, 0]))))
    assert a_out["points"] == [p for i, p in enumerate(a_in["points"]) if i != worst]
    assert a_out["line"] == a_in["line"] and ans["classes"][1] == inp["classes"][1]


@pytest.mark.parametrize("name,slot", task_slots("scatter_plot", "swap_axes"))
def test_swap_axes_mirrors_points_and_labels_on_an_unchanged_square_frame(name, slot):
    p, inp, ans = _states(name, slot)
    # equal axis ranges, kept: the frame is the same, only the data and the axis labels move
    assert inp["xlim"] == inp["ylim"] == ans["xlim"] == ans["ylim"]
    assert (ans["xlabel"], ans["ylabel"]) == (inp["ylabel"], inp["xlabel"])
    for ci, co in zip(inp["classes"], ans["classes"], strict=True):
        assert co["points"] == [[y, x] for x, y in ci["points"]]
    # which class is drawn on top is stated, so overlaps have one answer
    assert f'The "{inp["classes"][1]["name"]}" points stay drawn on top' in p.instruction


@pytest.mark.parametrize("name,slot", task_slots("scatter_plot", "recolor_class"))
def test_recolor_class_recolours_points_line_and_legend(name, slot):
    p, inp, ans = _states(name, slot)
    color = p.metadata["params"]["color"]
    changed = [k for k in range(2) if ans["classes"][k] != inp["classes"][k]]
    # the class recoloured is the one the fitted line belongs to: points and line together
    assert changed == [0] and ans["classes"][0]["color"] == color and ans["classes"][0]["line"]
    assert "best-fit line" in p.instruction
    assert pixel_count(p.answer, color) > 50 and pixel_count(p.input, color) == 0

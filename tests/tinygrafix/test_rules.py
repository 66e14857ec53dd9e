"""The paper's rules (issue 12, item 2): colours, numbers, labels, magnitudes, attempts."""

from __future__ import annotations

import random
import re

import pytest
from chart_cases import chart_problem, task_slots
from chart_oracle import delta_e, sig3

from paintkit.errors import RejectedSeed
from paintkit.sources import generate
from paintkit.tinygrafix.style import (
    MAGNITUDE_EXPONENTS,
    fmt,
    gibberish_label,
    round_sig,
    sample_colors,
    sample_theme,
)


def _object_colors(state: dict) -> list[str]:
    chart = state["chart"]
    if chart == "bar_chart":
        return [b["color"] for b in state["bars"] if b["color"] is not None]  # None: empty slot
    if chart == "scatter_plot":
        return [c["color"] for c in state["classes"]]
    if chart == "line_chart":
        return [state["color"], *(f["color"] for f in state["fills"])]
    if chart == "heatmap":
        return list(state["cmap"])
    return [k["color"] for k in state["key"]]


@pytest.mark.parametrize("name,slot", task_slots())
def test_colours_are_distinct_from_each_other_and_the_theme(name, slot):
    p = chart_problem(name, slot)
    for key in ("input_state", "answer_state"):
        state = p.metadata[key]
        theme = [state["theme"]["background"], state["theme"]["text"]]
        colors = _object_colors(state)
        for i, c in enumerate(colors):
            assert all(delta_e(c, t) >= 20 for t in theme), (c, theme)
            assert all(delta_e(c, d) >= 20 for d in colors[i + 1:]), (c, colors)
    assert p.metadata["bg_colors"] == [p.metadata["input_state"]["theme"]["background"]]


@pytest.mark.parametrize("name,slot", task_slots())
def test_instruction_numbers_have_three_significant_figures(name, slot):
    p = chart_problem(name, slot)
    text = re.sub(r"#[0-9A-F]{6}", "", p.instruction)
    text = re.sub(r"(row|column) \d+|\d+ (cells?|gaps?)", "", text)
    for number in re.findall(r"-?\d+(?:\.\d+)?", text):
        assert sig3(float(number)), (number, p.instruction)
        assert "e" not in number.lower()


def test_round_sig_and_fmt():
    assert round_sig(0.0123456) == 0.0123 and round_sig(98765.0) == 98800.0 and round_sig(0.0) == 0.0
    assert fmt(12345.0) == "12300" and fmt(0.000456789) == "0.000457" and fmt(2.5) == "2.5"


def test_theme_split_and_gibberish():
    rng = random.Random(0)
    dark = sum(sample_theme(rng).dark for _ in range(2000)) / 2000
    assert 0.26 < dark < 0.34  # 30% dark backgrounds
    words = gibberish_label(random.Random(1), (3, 3)).split()
    assert len(words) == 3 and all(w[0].isupper() and w.isalpha() for w in words)


def test_sampled_palette_is_mutually_distinct():
    colors = sample_colors(random.Random(3), 9, ["#FFFFFF", "#101010"])
    assert all(delta_e(a, b) >= 20 for i, a in enumerate(colors) for b in colors[i + 1:])


def test_magnitudes_span_seven_orders():
    import math

    from paintkit.tinygrafix import bar, heatmap

    assert MAGNITUDE_EXPONENTS == (-3, -2, -1, 0, 1, 2, 3)
    for module, key in ((bar, "ymax"), (heatmap, "vmax")):
        orders = set()
        for seed in range(300):  # base states only: no rendering
            try:
                orders.add(math.floor(math.log10(module.base_state(random.Random(seed))[key])))
            except RejectedSeed:
                continue
        assert max(orders) - min(orders) >= 6, orders


def test_a_rejected_attempt_tries_the_next_seed(monkeypatch):
    from paintkit.tinygrafix import bar

    calls = []
    original = bar.base_state

    def flaky(rng):
        calls.append(1)
        if len(calls) == 1:
            raise RejectedSeed("first attempt fails")
        return original(rng)

    monkeypatch.setattr(bar, "base_state", flaky)
    problem = generate("bar_chart_recolor_bar", 0, source="tinygrafixbench")
    assert problem.metadata["attempt"] == 1 and len(calls) == 2


def test_unknown_task_and_bad_slot_are_clear_errors():
    with pytest.raises(ValueError, match="unknown chart task 'bar_chart_explode'; allowed: bar_chart_"):
        generate("bar_chart_explode", 0, source="tinygrafixbench")
    with pytest.raises(ValueError, match="slot must be a non-negative int"):
        generate("bar_chart_add_bar", -1, source="tinygrafixbench")


def test_every_task_rolls_up_to_its_chart():
    from paintkit.tinygrafix import CHARTS, TINYGRAFIX_TASKS, chart_of_task

    assert len(TINYGRAFIX_TASKS) == 20
    for chart in CHARTS:
        assert sum(chart_of_task(t) == chart for t in TINYGRAFIX_TASKS) == 4
    with pytest.raises(ValueError, match="unknown chart task"):
        chart_of_task("translation")

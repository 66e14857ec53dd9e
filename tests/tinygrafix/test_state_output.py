"""Chart-state outputs: drawn by the problem's own renderer, held to the problem's shape,
and compared with the answer state field by field."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import paintkit
from paintkit.tinygrafix.state_output import (
    StateError,
    check_output_state,
    render_output_state,
    state_difference,
)


@pytest.fixture(scope="module")
def problem():  # noqa: ANN201
    return paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")


def test_the_answer_state_draws_the_answer(problem) -> None:  # noqa: ANN001
    meta = problem.metadata
    pixels, state = render_output_state(json.dumps(meta["answer_state"]),
                                        meta["input_state"], meta["answer_state"])
    assert np.array_equal(pixels, problem.answer)
    assert state_difference(state, meta["answer_state"])["exact"] is True
    pixels, _ = render_output_state(meta["input_state"], meta["input_state"], meta["answer_state"])
    assert np.array_equal(pixels, problem.input)


def test_differences_are_counted_by_kind(problem) -> None:  # noqa: ANN001
    answer = problem.metadata["answer_state"]
    edited = copy.deepcopy(answer)
    edited["bars"][0]["value"] += 1
    edited["bars"][1]["color"] = "#000000"
    edited["title"] = "another"
    diff = state_difference(edited, answer)
    assert (diff["values"], diff["colors"], diff["labels"], diff["order"]) == (1, 1, 1, 0)
    assert diff["fields_differ"] == 3 and not diff["exact"]
    shuffled = copy.deepcopy(answer)
    shuffled["bars"] = shuffled["bars"][::-1]
    diff = state_difference(shuffled, answer)
    assert diff["order"] == 1 and diff["values"] == diff["labels"] == diff["colors"] == 0


@pytest.mark.parametrize("edit, word", [
    (lambda s: s.update(chart="heatmap"), "chart"),
    (lambda s: s.update(bars=s["bars"] * 100), "items"),
    (lambda s: s.update(title="x" * 10_000), "characters"),
    (lambda s: s["bars"][0].update(value=1e300), "finite"),
    (lambda s: s["bars"][0].update(value="5"), "a string where"),
    (lambda s: s["bars"][0].update(value=True), "a boolean where"),
    (lambda s: s.update(evil={"a": 1}), "not in the problem's states"),
])
def test_states_outside_the_problems_shape_are_refused(problem, edit, word) -> None:  # noqa: ANN001
    meta = problem.metadata
    state = copy.deepcopy(meta["input_state"])
    edit(state)
    with pytest.raises(StateError, match=word):
        check_output_state(state, meta["input_state"], meta["answer_state"])


def test_damaged_json_is_one_line(problem) -> None:  # noqa: ANN001
    meta = problem.metadata
    for text in ("{", "[" * 100_000, '{"chart": NaN}', "[]"):
        with pytest.raises(StateError) as info:
            render_output_state(text, meta["input_state"], meta["answer_state"])
        assert "\n" not in str(info.value)

"""Each style transfer answer is the definition's (the oracle re-derives the answer state
from the input and reference states) and is the renderer's drawing of that state; the three
images are the drawings of the three states in the metadata."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.style_transfer.style_cases import CHARTS, style_problem
from tests.style_transfer.style_oracle import expected_answer, palette_paths, reference_colors

FAST = (0, 1)
SLOW = tuple(range(2, 10))
CASES = [pytest.param(c, s, id=f"{c}-{s}") for c in CHARTS for s in FAST] + \
        [pytest.param(c, s, id=f"{c}-{s}", marks=pytest.mark.slow) for c in CHARTS for s in SLOW]


@pytest.mark.parametrize(("chart", "slot"), CASES)
def test_the_answer_state_is_the_input_in_the_reference_palette(chart, slot):
    meta = style_problem(chart, slot).metadata
    assert meta["answer_state"] == expected_answer(meta["input_state"], meta["reference_state"])


@pytest.mark.parametrize(("chart", "slot"), CASES)
def test_the_images_are_the_renderers_drawings_of_the_states(chart, slot):
    from paintkit.tinygrafix.render import render_chart

    problem = style_problem(chart, slot)
    meta = problem.metadata
    assert np.array_equal(problem.answer, render_chart(meta["answer_state"]))
    assert np.array_equal(problem.input, render_chart(meta["input_state"]))
    (reference,) = problem.references
    assert reference.role == "style"
    assert np.array_equal(reference.image, render_chart(meta["reference_state"]))


@pytest.mark.parametrize(("chart", "slot"), CASES)
def test_only_the_palette_changes_and_every_colour_visibly(chart, slot):
    from paintkit.hex_lab import delta_e

    meta = style_problem(chart, slot).metadata
    inp, ref, ans = meta["input_state"], meta["reference_state"], meta["answer_state"]
    keep = set(inp) - set(palette_paths(chart))
    assert {k: ans[k] for k in keep} == {k: inp[k] for k in keep}  # data, labels, theme
    assert ref["chart"] == chart and ref != inp
    # the reference's theme is another one (it is not transferred): a copy would not pay
    assert delta_e(ref["theme"]["background"], inp["theme"]["background"]) >= 20
    old, new = reference_colors(inp), reference_colors(ans)
    assert all(delta_e(a, b) >= 15 for a, b in zip(old, new, strict=True))


@pytest.mark.parametrize("chart", CHARTS)
def test_the_instruction_names_the_images_never_the_colours(chart):
    problem = style_problem(chart, 0)
    text = problem.instruction
    assert text.startswith("The first image is the chart to edit; the second image is the style "
                           "reference.")
    assert not re.search(r"#[0-9A-Fa-f]{6}", text)


@pytest.mark.parametrize("chart", CHARTS)
def test_the_answer_state_as_a_code_output_scores_one(chart):
    import json

    import paintkit
    from paintkit.code_outputs import render_code

    problem = style_problem(chart, 0)
    meta = problem.metadata
    pixels, diff = render_code(json.dumps(meta["answer_state"]), "json", meta)
    assert diff["exact"] and np.array_equal(pixels, problem.answer)
    (result,) = paintkit.score([pixels], [problem.answer], [problem.input])
    assert result.miou == 1.0
    _, same = render_code(json.dumps(meta["input_state"]), "json", meta)
    assert not same["exact"] and same["colors"] > 0


def _pixels_of(image: np.ndarray, code: str, within: int = 0) -> int:
    rgb = np.array([int(code[k:k + 2], 16) for k in (1, 3, 5)], dtype=int)
    return int((np.abs(image.astype(int) - rgb).max(axis=2) <= within).sum())


@pytest.mark.parametrize(("chart", "slot"), CASES)
def test_every_colour_the_answer_takes_is_shown_by_the_reference(chart, slot):
    """The style is recoverable from the reference's pixels: each colour the answer gives an
    object is painted on a visible area of the reference, and the input does not show it.
    Exactly (data is drawn without anti-aliasing), but for a heatmap's scale ends, which its
    colorbar shows within 2 per channel (matplotlib resamples the bar's 256 levels)."""
    problem = style_problem(chart, slot)
    meta = problem.metadata
    within = 2 if chart == "heatmap" else 0
    reference = problem.references[0].image
    for code in reference_colors(meta["answer_state"]):
        assert _pixels_of(reference, code, within) >= 20, code
        assert _pixels_of(problem.answer, code, within) >= 20, code
        if chart != "heatmap":
            assert _pixels_of(problem.input, code) == 0, code

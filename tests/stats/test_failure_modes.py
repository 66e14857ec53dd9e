"""Each failure-mode tag (SPEC 1.12) from a synthetic output scored by paintkit.metrics.score."""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.metrics import score
from paintkit.stats.failure_modes import FAILURE_MODES, failure_modes, score_failure_mode

WHITE, RED, BLUE = (255, 255, 255), (255, 0, 0), (0, 0, 255)


def _problem():
    """A red square moved right and recoloured blue on white: a large, clear edit region."""
    inp = np.full((48, 64, 3), WHITE, np.uint8)
    inp[10:30, 5:25] = RED
    answer = np.full_like(inp, WHITE)
    answer[10:30, 30:50] = BLUE
    return inp, answer


def _output(kind: str, inp, answer):
    edit = (inp != answer).any(axis=-1)
    if kind == "none":
        return answer.copy()
    if kind == "execution_omission":
        return inp.copy()
    if kind == "color_imprecision":  # right shape, colour off by about 6 ΔE
        out = answer.copy()
        out[edit & (answer == BLUE).all(-1)] = (0, 0, 225)
        out[edit & (answer == WHITE).all(-1)] = (240, 240, 240)
        return out
    if kind == "structural_imprecision":  # the edit done on the left half of the region only
        out = answer.copy()
        cols = np.arange(inp.shape[1])[None, :].repeat(inp.shape[0], 0)
        undone = edit & (cols >= 27)
        out[undone] = inp[undone]
        return out
    if kind == "structural_catastrophe":  # unrelated content everywhere
        return np.full_like(answer, (30, 160, 60))
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", FAILURE_MODES)
def test_each_tag_from_a_scored_synthetic_output(kind):
    inp, answer = _problem()
    result = score([_output(kind, inp, answer)], [answer], [inp])[0]
    assert score_failure_mode(result) == kind, (result.edit_accuracy, result.preservation_accuracy)


def test_missing_output_is_a_catastrophe():
    inp, answer = _problem()
    result = score([None], [answer], [inp])[0]
    assert not result.has_output
    assert score_failure_mode(result) == "structural_catastrophe"


def test_curves_shape_is_checked():
    with pytest.raises(ValueError, match=r"\(n, 11\)"):
        failure_modes(np.zeros((2, 10)), np.zeros((2, 10)))

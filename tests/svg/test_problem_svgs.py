"""The SVGs ``paintkit generate --svg`` writes render back to the problem's own pixels.

The answer SVG, returned unchanged as a model's output, must score mIoU 1.0, and the input
SVG what the input scores. ``python -m bench.svg_outputs --jobs 2`` checks all 2,016
problems (docs/svg.md); here one problem of every task, in turn over the conditions.
"""

from __future__ import annotations

import numpy as np
import pytest

import paintkit
from paintkit.conditions import CONDITIONS
from paintkit.renderers.svg_scene import problem_svgs
from paintkit.svg import render_svg
from paintkit.tasks import TASKS


@pytest.mark.parametrize("k, task", list(enumerate(TASKS)))
def test_answer_and_input_svg_render_to_the_pngs(k: int, task: str) -> None:
    condition = list(CONDITIONS)[k % len(CONDITIONS)]
    problem = paintkit.generate(task, seed=1, condition=condition)
    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    h, w = problem.answer.shape[:2]
    answer = render_svg(answer_svg, width=w, height=h)
    source = render_svg(input_svg, width=w, height=h)
    assert np.array_equal(answer, problem.answer)
    assert np.array_equal(source, problem.input)
    scores = paintkit.score([answer, source], [problem.answer] * 2, [problem.input] * 2)
    assert scores[0].miou == 1.0 and scores[1].miou <= 0.05

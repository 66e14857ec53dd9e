"""The chart renderer: size, frame reuse gives the same bytes, clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from chart_cases import chart_problem

from paintkit.tinygrafix import TINYGRAFIX_TASKS
from paintkit.tinygrafix.render import render_chart, render_pair


@pytest.mark.parametrize("name", TINYGRAFIX_TASKS)
def test_pair_with_reused_frame_equals_separate_renders(name):
    meta = chart_problem(name, 0).metadata
    inp, ans = meta["input_state"], meta["answer_state"]
    paired = render_pair(inp, ans)
    separate = render_chart(inp), render_chart(ans)
    assert paired[0].shape == (768, 1024, 3) and paired[0].dtype == np.uint8
    assert np.array_equal(paired[0], separate[0]) and np.array_equal(paired[1], separate[1])
    # and in the other order (answer frame reused for the input)
    back = render_pair(ans, inp)
    assert np.array_equal(back[0], separate[1]) and np.array_equal(back[1], separate[0])


def test_bad_state_is_a_clear_error():
    with pytest.raises(ValueError, match="expected one of bar_chart"):
        render_chart({"chart": "pie"})
    bar = chart_problem("bar_chart_add_bar", 0).metadata["input_state"]
    heat = chart_problem("heatmap_add_cell", 0).metadata["input_state"]
    with pytest.raises(ValueError, match="one chart type"):
        render_pair(bar, heat)


def test_threads_take_turns_on_the_shared_figure():
    from concurrent.futures import ThreadPoolExecutor

    names = ("bar_chart_add_bar", "heatmap_add_cell", "network_add_node", "line_chart_draw_segments")
    states = [chart_problem(n, 0).metadata["input_state"] for n in names]
    expected = [render_chart(s) for s in states]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(render_chart, states * 2))
    assert all(np.array_equal(g, e) for g, e in zip(got, expected * 2, strict=True))

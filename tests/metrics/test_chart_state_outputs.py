"""Chart states where images go: ``paintkit.score`` / ``reward`` take a TinyGrafixBench chart
state (a dict, or a ``.json`` file's path), drawn by the chart renderer that drew the
benchmark's images, through the drawer :mod:`paintkit.code_outputs` registers in
:mod:`paintkit.metrics.code_drawers` (the metric never imports the renderer). The answer
state scores exactly 1.0 and the input state exactly as the input image; a state outside the
bounds is that output's one-line reason, scored as missing."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import paintkit
from paintkit.code_outputs import draw_chart_state, is_chart_state
from paintkit.metrics import code_drawers


@pytest.fixture(scope="module")
def chart():  # noqa: ANN201
    return paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")


def test_the_drawer_draws_the_benchmarks_own_pixels(chart) -> None:  # noqa: ANN001
    meta = chart.metadata
    assert np.array_equal(draw_chart_state(meta["answer_state"]), chart.answer)
    assert np.array_equal(draw_chart_state(meta["input_state"]), chart.input)


def test_score_takes_chart_states(chart, tmp_path) -> None:  # noqa: ANN001
    meta = chart.metadata
    path = tmp_path / "0000_output.json"
    path.write_text(json.dumps(meta["answer_state"]))
    hostile = {"chart": "bar_chart", "bars": [{"value": 1}] * 5000}
    outputs = [meta["answer_state"], str(path), meta["input_state"], chart.input, hostile,
               str(tmp_path / "not_json.json")]
    (tmp_path / "not_json.json").write_text("{")
    scores = paintkit.score(outputs, [chart.answer] * 6, [chart.input] * 6)
    assert [s.miou for s in scores[:2]] == [1.0, 1.0]
    assert scores[2].miou == scores[3].miou < 0.05  # the input state scores as the input image
    assert scores[2].has_output and not scores[4].has_output and not scores[5].has_output
    assert scores[4].error == "outputs[4]: chart state output: state.bars: 5,000 items (at most 1,000)"
    assert "outputs[5]: chart state output: not a JSON chart state" in scores[5].error


def test_reward_takes_chart_states(chart) -> None:  # noqa: ANN001
    meta = chart.metadata
    targets = paintkit.prepare_targets([chart.answer], [chart.input])
    got = paintkit.reward([meta["answer_state"], meta["input_state"]], targets,
                          samples_per_problem=2)
    as_images = paintkit.reward([chart.answer, chart.input], targets, samples_per_problem=2)
    assert got.tolist() == as_images.tolist() and got.tolist()[0] == 1.0


def test_what_counts_as_a_chart_state() -> None:
    assert is_chart_state({"chart": "bar_chart"}) and is_chart_state("out/0000_output.JSON")
    assert not is_chart_state({"bars": []}) and not is_chart_state("0000_output.png")
    assert not is_chart_state(b'{"chart": "bar_chart"}')


def test_the_drawer_is_registered_without_loading_the_renderer() -> None:
    """Any way into the metric finds the drawer (``import paintkit`` registers it), and
    registering it loads neither matplotlib nor the chart package."""
    probe = ("import sys\nfrom paintkit.metrics import code_drawers\n"
             "print(code_drawers.registered_kinds(), "
             "sorted(m for m in ('matplotlib', 'paintkit.tinygrafix', 'numpy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "('chart state',) []"


def test_a_registered_drawer_is_used_and_its_refusal_kept(monkeypatch) -> None:  # noqa: ANN001
    def draw(item: dict) -> np.ndarray:
        if item["n"] < 0:
            raise ValueError("n is negative")
        return np.full((4, 4, 3), item["n"], np.uint8)

    monkeypatch.setitem(code_drawers._DRAWERS, "counter", code_drawers.CodeDrawer(
        "counter", lambda item: isinstance(item, dict) and "n" in item, draw))
    answer = np.full((4, 4, 3), 9, np.uint8)
    scores = paintkit.score([{"n": 9}, {"n": -1}], [answer] * 2, [np.zeros_like(answer)] * 2)
    assert scores[0].miou == 1.0
    assert scores[1].error == "outputs[1]: counter output: n is negative"
    with pytest.raises(ValueError, match="two callables"):
        code_drawers.register_code_drawer("x", None, draw)

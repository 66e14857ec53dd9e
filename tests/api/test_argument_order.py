"""One argument order everywhere: outputs, answers, inputs, then the problem's metadata.
The old ``explain(metadata, inputs, answer, output)`` order (removed in 0.4) is a clear error."""

from __future__ import annotations

import inspect
import json
import warnings

import numpy as np
import pytest

import paintkit
from paintkit.explainer import prepare_scenes, segment_maps
from paintkit.metrics import PixelEditIoUAccumulator, tolerance_statistics


@pytest.fixture(scope="module")
def problem():
    return paintkit.generate("translation", seed=0)


@pytest.mark.parametrize("function", [
    paintkit.score, paintkit.reward, paintkit.soft_reward, tolerance_statistics,
    PixelEditIoUAccumulator.update,
])
def test_scoring_entry_points_take_outputs_answers_inputs(function):
    names = [n for n in inspect.signature(function).parameters if n != "self"][:3]
    assert names[0] == "outputs" and names[2] == "inputs"
    assert names[1] in ("answers", "targets")  # targets: answers, or prepared Targets


def test_explain_takes_output_answer_inputs_metadata(problem):
    output = np.roll(problem.answer, 3, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new order warns about nothing
        new = paintkit.explain(output, problem.answer, problem.input, problem.metadata)
        by_name = paintkit.explain(output=output, answer=problem.answer, inputs=problem.input,
                                   metadata=problem.metadata)
    assert new == by_name
    with pytest.raises(ValueError, match="output: expected a uint8"):  # the old order
        paintkit.explain(problem.metadata, problem.input, problem.answer, output)


def test_metadata_may_be_the_problems_json_file(problem, tmp_path):
    path = tmp_path / "000.json"
    path.write_text(json.dumps(problem.metadata))
    got = paintkit.explain(problem.input, problem.answer, problem.input, path)
    assert got == paintkit.explain(problem.input, problem.answer, problem.input, problem.metadata)


def test_prepare_scenes_and_segment_maps_follow_the_order(problem):
    a, i, meta = problem.answer, problem.input, problem.metadata
    scenes = prepare_scenes(a, i, meta)
    assert scenes.notes == [] and (scenes.edit == problem.edit_mask).all()
    output = np.roll(a, 3, axis=1)
    assert paintkit.explain(output, a, i, None, scenes=scenes) == paintkit.explain(output, a, i, meta)
    bins = tolerance_statistics([i], [a], [i], return_bins=True).bins[0]
    maps = segment_maps(bins, a, i, meta, (0, 5))
    assert maps[5]["segments"] == paintkit.explain(i, a, i, meta)["segments"]


def test_explain_argument_errors_are_clear(problem):
    a, i = problem.answer, problem.input
    with pytest.raises(ValueError, match="metadata: required unless scenes"):
        paintkit.explain(a, a, i, None)
    with pytest.raises(TypeError, match="metadata: expected a dict"):
        paintkit.explain(a, a, i, 3)
    with pytest.raises(TypeError, match="multiple values for argument 'output'"):
        paintkit.explain(a, a, i, problem.metadata, output=a)


def test_one_tolerance_check_for_reward_and_explain(problem):
    a, i = problem.answer, problem.input
    for bad in (11, -1, True, 2.5):
        with pytest.raises(ValueError, match="tolerance: expected"):
            paintkit.explain(a, a, i, problem.metadata, tolerance=bad)
        with pytest.raises(ValueError, match="tolerance: expected"):
            paintkit.reward([a], [a], [i], tolerance=bad)
    assert paintkit.explain(a, a, i, problem.metadata, tolerance=np.int64(3))["tolerance"] == 3


def test_an_image_path_first_is_an_output_path_not_an_image(problem, tmp_path):
    with pytest.raises(ValueError, match="output: expected a uint8"):
        paintkit.explain(str(tmp_path / "0000_output.png"), problem.answer, problem.input,
                         problem.metadata)

"""Renamed public names: each old name is the new object itself, with a DeprecationWarning that
names the new one (paintkit/old_names.py); the new names import without a warning."""

from __future__ import annotations

import importlib
import warnings

import pytest

RENAMED = [
    ("paintkit.rewards", "pixel_miou", "flow_grpo_pixel_miou"),
    ("paintkit.rewards", "compute_score", "verl_pixel_miou"),
    ("paintkit.rewards", "PixelIoURewardModel", "FlowFactoryPixelMIoU"),
    ("paintkit.rewards", "pixel_miou_reward", "trl_pixel_miou"),
    ("paintkit.rewards", "reward_fn", "stream_pixel_miou"),
    ("paintkit.rewards.flow_grpo", "pixel_miou", "flow_grpo_pixel_miou"),
    ("paintkit.rewards.flow_factory", "PixelIoURewardModel", "FlowFactoryPixelMIoU"),
    ("paintkit.rewards.trl", "pixel_miou_reward", "trl_pixel_miou"),
    ("paintkit.rewards.plain", "reward_fn", "stream_pixel_miou"),
    ("paintkit.rewards.remote", "pixel_miou", "flow_grpo_pixel_miou"),
    ("paintkit.rewards.remote", "PixelIoURewardModel", "FlowFactoryPixelMIoU"),
    ("paintkit", "ScoreAccumulator", "PixelEditIoUAccumulator"),
    ("paintkit.metrics", "ScoreAccumulator", "PixelEditIoUAccumulator"),
    ("paintkit.metrics.accumulator", "ScoreAccumulator", "PixelEditIoUAccumulator"),
    ("paintkit.metrics", "BatchStatistics", "BatchToleranceStatistics"),
    ("paintkit.metrics.batch_scoring", "BatchStatistics", "BatchToleranceStatistics"),
]


@pytest.mark.parametrize(("module", "old", "new"), RENAMED)
def test_an_old_name_is_the_new_object_with_a_warning_naming_it(module, old, new):
    package = importlib.import_module(module)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(package, old)
    assert value is getattr(package, new)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert f"{module}.{new}" in str(caught[0].message) and "0.5.0" in str(caught[0].message)
    assert old not in getattr(package, "__all__", ())


@pytest.mark.parametrize(("module", "old", "new"), RENAMED)
def test_a_new_name_imports_without_a_warning(module, old, new):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert getattr(importlib.import_module(module), new) is not None


def test_verl_keeps_its_default_lookup_name_without_a_warning():
    from paintkit.rewards import remote, verl

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert verl.compute_score is verl.verl_pixel_miou
        assert remote.compute_score is remote.verl_pixel_miou


def test_an_unknown_name_is_an_attribute_error():
    import paintkit.rewards

    with pytest.raises(AttributeError, match="no attribute 'pixel_mious'"):
        paintkit.rewards.pixel_mious  # noqa: B018


def test_the_old_modules_are_gone():
    for module in ("paintkit.metrics.score", "paintkit.metrics.reward", "paintkit.metrics.figures",
                   "paintkit.bench_steps", "paintkit.rewards._common"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(module)

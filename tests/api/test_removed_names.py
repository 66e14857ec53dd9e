"""0.4 removed the names deprecated in 0.3 (CHANGELOG.md, "Migrating from 0.3"): each old name
is an ordinary ImportError / AttributeError / TypeError, and its replacement works."""

from __future__ import annotations

import importlib

import numpy as np
import pytest


@pytest.mark.parametrize("module", [
    "paintkit.composition", "paintkit.balanced", "paintkit.pipeline", "paintkit.deprecation",
    "paintkit.metrics.reference", "paintkit.eval.discovery", "paintkit.eval.results",
    "paintkit.report.order", "paintkit.explain",
])
def test_removed_modules_do_not_import(module):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(module)


@pytest.mark.parametrize(("module", "old", "new"), [
    ("paintkit.metrics", "Reference", "Targets"),
    ("paintkit.metrics", "prepare_reference", "prepare_targets"),
    ("paintkit.metrics", "explain", None),
    ("paintkit.metrics.training_reward", "check_tolerance", None),
    ("paintkit.rewards.plain", "prepare_targets", "batch_targets"),
    ("paintkit.io.images", "encode_png", None),
    ("paintkit.explainer", "explain_problem", "explain"),
    ("paintkit.eval", "RESULTS_NAME", None),
    ("paintkit.eval.runner", "check_one_formula", "check_one_delta_e"),
    ("paintkit.eval.runner", "_needs_scoring", "needs_scoring"),
    ("paintkit.stats.table", "choose_formula", "choose_delta_e"),
    ("paintkit.stats.table", "row_formula", None),
    ("paintkit.stats.table", "RESULTS_NAME", None),
    ("paintkit.eval.turns", "TURNS_NAME", None),
    ("paintkit.run.records", "LOCK_NAME", None),
    ("paintkit.kernels.color.delta_e", "check_formula", "check_delta_e"),
    ("paintkit.kernels.normalize", "_pillow_nearest_sources", "pillow_nearest_sources"),
])
def test_removed_attributes_are_gone_and_their_replacements_stay(module, old, new):
    loaded = importlib.import_module(module)
    with pytest.raises(AttributeError):
        getattr(loaded, old)
    if new is not None:
        assert callable(getattr(loaded, new))


@pytest.mark.parametrize(("function", "dtype"), [("delta_e_numba", np.float64),
                                                  ("delta_e_rgb_numba", np.uint8)])
def test_the_formula_keyword_is_delta_e(function, dtype):
    from paintkit.kernels.color import delta_e_numba

    f = getattr(delta_e_numba, function)
    a, b = np.zeros((2, 3), dtype), np.ones((2, 3), dtype)
    assert f(a, b, delta_e="ciede2000").shape == (2,)
    with pytest.raises(TypeError, match="formula"):
        f(a, b, formula="ciede2000")


def test_the_old_explain_argument_order_is_a_clear_error():
    import paintkit

    image = np.zeros((6, 6, 3), np.uint8)
    with pytest.raises(ValueError, match="output: expected a uint8"):
        paintkit.explain({}, image, image, image)  # (metadata, inputs, answer, output)
    assert paintkit.explain(image, image, image, {})["explained"] == "segments_only"


@pytest.mark.parametrize(("old", "new"), [
    ("paintkit.charts", "paintkit.tinygrafix"),
    ("paintkit.charts.registry", "paintkit.tinygrafix.registry"),
    ("paintkit.renderers.charts", "paintkit.tinygrafix.render"),
    ("paintkit.renderers.charts.canvas", "paintkit.tinygrafix.render.canvas"),
    ("paintkit.sources.charts", "paintkit.tinygrafix.source"),
    ("paintkit.cli.generate_charts", "paintkit.cli.generate_tinygrafix"),
    ("paintkit.suites.tinygrafix", "paintkit.tinygrafix.suite"),
    ("paintkit.sources.tinygrafix", "paintkit.tinygrafix.source"),
])
def test_tinygrafixbench_lives_in_one_folder_without_shims(old, new):
    """0.4 moved TinyGrafixBench into ``paintkit.tinygrafix`` (CHANGELOG.md, "Migrating from 0.3")."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
    assert importlib.import_module(new).__name__ == new


def test_the_chart_source_is_named_after_its_benchmark():
    from paintkit.sources import get_source
    from paintkit.tinygrafix import source

    assert type(get_source("tinygrafixbench")) is source.TinyGrafixSource
    assert not hasattr(source, "ChartSource")

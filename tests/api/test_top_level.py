"""``import paintkit``: the main entry points at the top, loaded on first use only."""

from __future__ import annotations

import subprocess
import sys

import pytest

import paintkit

#: Top-level name -> (owning module, the name there; the same name when omitted).
RENAMED: dict[str, str] = {}

ENTRY_POINTS = {
    "generate": "paintkit.sources", "write_suite": "paintkit.engines",
    "ProblemSuite": "paintkit.suites", "Problem": "paintkit.tasks", "TASKS": "paintkit.tasks",
    "score": "paintkit.metrics", "reward": "paintkit.metrics", "soft_reward": "paintkit.metrics",
    "tolerance_statistics": "paintkit.metrics", "prepare_targets": "paintkit.metrics",
    "Targets": "paintkit.metrics", "ProblemScore": "paintkit.metrics",
    "PixelEditIoUAccumulator": "paintkit.metrics", "Suite": "paintkit.suites",
    "TinyGrafixSuite": "paintkit.tinygrafix.suite", "CombinedSuite": "paintkit.suites.combined",
    "GuidanceSuite": "paintkit.suites.guidance", "ReferenceSuite": "paintkit.suites.references",
    "StyleTransferSuite": "paintkit.tinygrafix.style_suite",
    "CompositionalSuite": "paintkit.suites.compositional",
    "write_baseline": "paintkit.baselines", "run_model": "paintkit.run",
    "evaluate": "paintkit.eval", "aggregate": "paintkit.stats.aggregate_folder",
    "write_report": "paintkit.report.write", "bench": "paintkit.full_run.steps",
    "BenchConfig": "paintkit.full_run.steps",
}


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_import_paintkit_loads_no_heavy_dependency():
    code = ("import sys, paintkit; names = dir(paintkit); "
            "assert 'score' in names and 'explain' in names and 'Suite' in names; "
            "print(sorted(m for m in ('torch', 'numba', 'skia', 'matplotlib') if m in sys.modules))")
    assert _run(code) == "[]"


def test_first_use_loads_what_the_entry_point_needs():
    code = ("import sys, paintkit; paintkit.generate; "
            "print('torch' in sys.modules, 'paintkit.tasks' in sys.modules)")
    assert _run(code) == "False True"


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_top_level_names_are_the_owners_objects(name):
    import importlib

    owner = importlib.import_module(ENTRY_POINTS[name])
    assert getattr(paintkit, name) is getattr(owner, RENAMED.get(name, name))
    assert name in paintkit.__all__


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'scoer'"):
        paintkit.scoer  # noqa: B018


def test_generate_score_reward_explain_from_the_top():
    problem = paintkit.generate("translation", seed=0)
    assert isinstance(problem, paintkit.Problem)
    scores = paintkit.score([problem.answer], [problem.answer], [problem.input])
    assert isinstance(scores, list) and isinstance(scores[0], paintkit.ProblemScore)
    assert scores[0].miou == 1.0
    rewards = paintkit.reward([problem.input], [problem.answer], [problem.input])
    assert rewards.dtype.__str__() == "torch.float32" and tuple(rewards.shape) == (1,)
    report = paintkit.explain(problem.input, problem.answer, problem.input, problem.metadata)
    assert isinstance(report, dict) and report["tags"] == {"correct": 2, "misplaced": 1}


def test_explain_is_a_plain_function_whatever_was_imported_first():
    import inspect

    code = ("import inspect, paintkit, paintkit.explainer.problem; "
            "print(inspect.isfunction(paintkit.explain), paintkit.explain.__module__)")
    assert _run(code) == "True paintkit.explainer.problem"
    assert inspect.isfunction(paintkit.explain)
    assert list(inspect.signature(paintkit.explain).parameters)[:4] == [
        "output", "answer", "inputs", "metadata"]


def test_dir_lists_the_public_names_only():
    names = dir(paintkit)
    assert names == sorted(paintkit.__all__)
    for accidental in ("importlib", "annotations", "import_module"):
        assert accidental not in names and not hasattr(paintkit, accidental)
    assert not [n for n in names if n.startswith("_") and n != "__version__"]


def test_a_problem_is_shown_on_one_short_line():
    problem = paintkit.generate("translation", seed=7)
    text = repr(problem)
    assert "\n" not in text and len(text) < 160
    # named by its problem_id (the key paintkit serve and the trainer formats use)
    assert text.startswith("Problem('paintbench-translation-") and "1024x1024" in text
    assert "array" not in text and "scene" not in text


def test_suite_classes_from_the_top():
    suite = paintkit.Suite(tasks=["translation"], per_cell=1, namespace="apitest")
    problem = next(suite.problems())
    assert problem.metadata["problem_id"] == "apitest-translation-baseline-amount-000000"

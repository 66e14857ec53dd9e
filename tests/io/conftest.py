"""Shared helpers of the hostile-input tests: a small synthetic benchmark and its outputs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # hostile_helpers
from hostile_helpers import small_tree  # noqa: E402


@pytest.fixture
def tree(tmp_path):
    return small_tree(tmp_path / "data")


@pytest.fixture
def results(tree, tmp_path):
    """A results folder scored from ``tree``: (bench, outputs, results folder)."""
    from paintkit.evaluate import evaluate

    bench, outputs = tree
    out = tmp_path / "results"
    evaluate(bench, outputs, out, jobs=1, progress=False)
    return bench, outputs, out


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "stats"))  # rows_factory
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "writers"))  # generate_helpers


@pytest.fixture
def stats_input(tmp_path):
    """A results folder holding a small ``problem_stats.jsonl`` (two models, no images)."""
    from rows_factory import paintbench_rows

    folder = tmp_path / "res"
    folder.mkdir()
    rows = paintbench_rows(per_cell=2)
    (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder

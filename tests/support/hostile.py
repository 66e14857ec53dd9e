"""A small synthetic benchmark and its scored results, for the tests that feed commands
hostile files (tests/io, tests/cli, tests/stats): helpers and the ``tree``, ``results`` and
``stats_input`` fixtures.

A test folder uses the fixtures by importing them into its ``conftest.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paintkit.eval import evaluate
from paintkit.eval.synthetic import write_synthetic_tree
from tests.support.rows_factory import paintbench_rows


def small_tree(root: Path, problems: int = 4, models=("exact", "noisy")):
    """A synthetic benchmark (2 tasks, 12x12 images) and exact outputs of ``models``:
    ``(benchmarks root, outputs root)``."""
    return write_synthetic_tree(root, problems=problems, tasks=2, width=12, height=12,
                                models=models, missing_every=0, corrupt_every=0,
                                resized_every=0)


@pytest.fixture
def tree(tmp_path):
    """``small_tree`` under ``tmp_path / "data"``: (benchmarks root, outputs root)."""
    return small_tree(tmp_path / "data")


@pytest.fixture
def results(tree, tmp_path):
    """A results folder scored from ``tree``: (bench, outputs, results folder)."""
    bench, outputs = tree
    out = tmp_path / "results"
    evaluate(bench, outputs, out, jobs=1, progress=False)
    return bench, outputs, out


@pytest.fixture
def stats_input(tmp_path):
    """A results folder holding a small ``problem_stats.jsonl`` (two models, no images)."""
    folder = tmp_path / "res"
    folder.mkdir()
    rows = paintbench_rows(per_cell=2)
    (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder

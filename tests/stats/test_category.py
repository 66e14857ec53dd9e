"""Eval rows carry the problem's ``category``; stats rolls up by it without the task and
chart registries, and works it out for old rows that lack it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from paintkit.eval import evaluate
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.order import row_category, task_category
from paintkit.stats.table import build_tables, load_tables


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("category")
    bench, outputs = write_synthetic_tree(root, problems=6, tasks=2, width=24, height=24,
                                          models=("exact",), missing_every=0, corrupt_every=0)
    # one task folder of the tree names itself after a PaintBench task with its own category
    meta = bench / "PaintBench" / "task_1" / "000.json"
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps({**data, "category": "my_category"}))
    out = root / "r"
    evaluate(bench, outputs, out, jobs=1, progress=False)
    return out / "problem_stats.jsonl"


def _rows(path):
    return [json.loads(line) for line in path.open()]


def test_eval_writes_the_category_of_the_problem_json(results):
    cats = {(r["task"], r["idx"]): r["category"] for r in _rows(results)}
    assert cats[("task_1", 0)] == "my_category"
    assert {c for k, c in cats.items() if k != ("task_1", 0)} == {"synthetic"}


def test_stats_rolls_up_by_the_rows_category(results):
    (table,) = load_tables(results)
    assert set(table.category.tolist()) == {"synthetic", "my_category"}
    cats = {r["category"] for r in aggregate_tables([table], ci=False)
            if r["level"] == "category"}
    assert cats == {"synthetic", "my_category"}


def test_stats_with_categories_in_the_rows_does_not_import_the_registries(results):
    """The registries import numba and matplotlib: stats needs them only for old rows."""
    code = ("import sys\nfrom paintkit.stats.table import load_tables\n"
            f"load_tables({str(results)!r})\n"
            "print(sorted(m for m in ('paintkit.tasks', 'paintkit.tinygrafix') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_old_rows_without_category_fall_back_on_the_registries(results):
    rows = []
    for row in _rows(results):
        row.pop("category")
        rows.append(row)
    (table,) = build_tables(rows)
    assert set(table.category.tolist()) == {"other"}  # task_0, task_1: no registry knows them
    assert task_category("PaintBench", "recolor") == "color_change"
    assert task_category("PaintBench", "translation") == "geometric_transformation"
    assert task_category("TinyGrafixBench", "heatmap_add_cell") == "heatmap"
    assert task_category("TinyGrafixBench", "pie_chart_add_slice") == "pie"  # unknown chart
    assert task_category("Other", "whatever") == "other"
    # a row's own category always wins, on every benchmark
    assert task_category("TinyGrafixBench", "heatmap_add_cell", "mine") == "mine"
    assert row_category({"benchmark": "PaintBench", "task": "recolor", "category": None}) == \
        "color_change"

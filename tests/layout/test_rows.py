"""The row key (built once) and ResultRow: the typed row of problem_stats.jsonl."""

from __future__ import annotations

import json

import pytest

from paintkit.eval import evaluate
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.layout import ResultRow, RowKey, read_rows, row_key
from paintkit.layout.benchmark import discover_problems
from paintkit.metrics.version import METRIC_VERSION


def test_row_key_is_a_plain_tuple_of_typed_fields():
    row = {"model": "m", "benchmark": "PaintBench", "task": "recolor", "idx": 7, "x": 1}
    key = row_key(row)
    assert key == ("m", "PaintBench", "recolor", 7) and isinstance(key, tuple)
    assert key == RowKey("m", "PaintBench", "recolor", 7) and key.idx == 7
    assert hash(key) == hash(("m", "PaintBench", "recolor", 7))  # a dict key like a tuple
    with pytest.raises(KeyError):
        row_key({"model": "m", "benchmark": "b", "task": "t"})


def test_a_problem_and_its_row_share_the_key(tmp_path):
    bench, outputs = write_synthetic_tree(tmp_path, problems=4, tasks=2, width=24, height=24,
                                          models=("exact",), missing_every=0, corrupt_every=0)
    evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    keys = {row_key(r) for r in read_rows(tmp_path / "r" / "problem_stats.jsonl")}
    assert keys == {p.key("exact") for p in discover_problems(bench)}


@pytest.fixture(scope="module")
def eval_rows(tmp_path_factory):
    root = tmp_path_factory.mktemp("rows")
    bench, outputs = write_synthetic_tree(root, problems=8, tasks=2, width=24, height=24,
                                          models=("exact", "noisy"), missing_every=5,
                                          corrupt_every=0, resized_every=0)
    evaluate(bench, outputs, root / "r", jobs=1, progress=False, extra_metrics=("psnr",))
    return [json.loads(line) for line in (root / "r" / "problem_stats.jsonl").open()]


def test_result_row_round_trips_eval_rows_exactly(eval_rows):
    assert any(not r["has_output"] for r in eval_rows)  # a missing output, with its error
    for row in eval_rows:
        typed = ResultRow.from_dict(row)
        assert typed.to_dict() == row
        assert list(typed.to_dict()) == list(row)  # same key order: the same bytes
        assert typed.key == row_key(row)
        assert typed.delta_e == "cie76" and typed.metric_version == METRIC_VERSION
        assert typed.category == "synthetic"
        assert set(typed.extras) >= {"output_file", "extra_metrics"}


def test_result_row_figures(eval_rows):
    row = next(r for r in eval_rows if r["model"] == "exact" and r["has_output"])
    typed = ResultRow.from_dict(row)
    assert typed.figure("iou") == row["output"]["cie76_mean"]["iou"] == 1.0
    assert typed.figure("edit_accuracy", 3) == row["output"]["cie76_threshold"]["3"][
        "edit_accuracy"]
    assert typed.figure("no_such_figure") is None


def test_result_row_reads_rows_of_other_tools_with_the_schema_defaults():
    row = {"model": "m", "benchmark": "B", "task": "t", "idx": 2, "has_output": True,
           "output": {"cie76_mean": {"iou": 0.5}}, "their_field": [1]}
    typed = ResultRow.from_dict(row)
    assert (typed.mode, typed.delta_e, typed.metric_version, typed.category) == \
        ("default", "cie76", 1, None)
    assert typed.extras == {"their_field": [1]} and typed.figure("iou") == 0.5
    assert typed.to_dict()["their_field"] == [1]

"""The scene reference and chart style transfer problems through ``paintkit eval``, the stats
hierarchy and the report: rows carry ``reference_guided`` / ``style_transfer``, their figures
are those of ``paintkit.score``, each category rolls up on its own under its benchmark
(``References``, ``StyleTransfer``) and the report shows it, while PaintBench's rows and
hierarchy are exactly what they are without those problems."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from paintkit import score
from paintkit.engines import write_suite
from paintkit.eval import evaluate, read_rows
from paintkit.layout.outputs import output_name
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.order import REFERENCE_CATEGORIES, category_key
from paintkit.stats.table import load_tables
from paintkit.suites import Suite
from paintkit.suites.combined import CombinedSuite
from paintkit.suites.references import ReferenceSuite
from paintkit.tinygrafix.style_suite import StyleTransferSuite

PAINTBENCH = Suite(tasks=("translation", "recolor"), conditions=("baseline",), per_cell=2,
                   size=(256, 256), preservation=False)
REFERENCES = ReferenceSuite(tasks=("reference_copy", "reference_move_recolor"),
                            conditions=("baseline",), per_cell=2)
STYLE = StyleTransferSuite(tasks=("bar_chart",), per_cell=2)
NEW = {"References": "reference_guided", "StyleTransfer": "style_transfer"}


def output_of(problem) -> np.ndarray:
    """The answer with its top half left as the input (a figure between 0 and 1 mostly);
    problem 1 of each task copies its first reference instead."""
    if problem.references and problem.metadata["idx"] == 1:
        return problem.references[0].image
    out = problem.answer.copy()
    out[: out.shape[0] // 2] = problem.input[: out.shape[0] // 2]
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("refcats")
    suite = CombinedSuite((PAINTBENCH, REFERENCES, STYLE))
    write_suite(suite, root / "bench", engine="inprocess", progress=False)
    outputs = {}
    for spec in suite.specs():
        problem = suite.make_problem(spec)
        folder = root / "outputs" / "m" / spec.folder
        folder.mkdir(parents=True, exist_ok=True)
        out = output_of(problem)
        Image.fromarray(out).save(folder / output_name(spec.idx))
        outputs[(spec.folder, spec.idx)] = (problem, out)
    evaluate(root / "bench", root / "outputs", root / "all", jobs=1, progress=False)
    evaluate(root / "bench", root / "outputs", root / "paintbench", jobs=1, progress=False,
             benchmarks=["PaintBench"])
    return root, outputs


def test_eval_rows_of_reference_problems_are_the_scores(results):
    root, outputs = results
    rows = [r for r in read_rows(root / "all" / "problem_stats.jsonl") if r["benchmark"] in NEW]
    assert len(rows) == len(REFERENCES) + len(STYLE)
    assert all(r["category"] == NEW[r["benchmark"]] for r in rows)
    for row in rows:
        problem, out = outputs[(f"{row['benchmark']}/{row['task']}", row["idx"])]
        (expected,) = score([out], [problem.answer], [problem.input])
        assert row["output"] == json.loads(json.dumps(expected.to_schema()))


def test_the_category_rolls_up_under_its_own_benchmark(results):
    root, _ = results
    agg = aggregate_tables(load_tables(root / "all" / "problem_stats.jsonl"), ci=False)
    cats = {(r["benchmark"], r["category"]) for r in agg if r["level"] == "category"}
    assert {c for b, c in cats if b in NEW} == set(NEW.values())
    assert {(b, c) for b, c in cats if b in NEW} == set(NEW.items())
    assert {c for b, c in cats if b == "PaintBench"} == {"geometric_transformation",
                                                         "color_change"}
    for name in NEW:
        bench = next(r for r in agg if r["benchmark"] == name and r["level"] == "benchmark")
        cat = next(r for r in agg if r["benchmark"] == name and r["level"] == "category")
        assert bench["cie76_mean"]["mean_iou"] == cat["cie76_mean"]["mean_iou"]  # one category


def test_paintbench_hierarchy_is_unchanged_by_the_reference_rows(results):
    root, _ = results
    alone = [r for r in aggregate_tables(load_tables(root / "paintbench" / "problem_stats.jsonl"),
                                         n_boot=200)]
    mixed = [r for r in aggregate_tables(load_tables(root / "all" / "problem_stats.jsonl"),
                                         n_boot=200) if r["benchmark"] == "PaintBench"]
    assert mixed == alone


def test_the_report_shows_the_category(results):
    from paintkit.report.data import leaderboard, load_report_data, table_payload
    from paintkit.stats.leaderboard import leaderboard_rows

    root, _ = results
    data = load_report_data(root / "all", n_boot=50)
    trees = table_payload(data)["benchmarks"]
    for name, category in NEW.items():
        assert [c["name"] for c in trees[name]["categories"]] == [category]
    assert [t["name"] for t in trees["References"]["categories"][0]["tasks"]] == list(
        REFERENCES.tasks)
    assert set(leaderboard(data)[0]["scores"]) == {"PaintBench", *NEW}
    board = {r["benchmark"]: r for r in leaderboard_rows(data.aggregate, data.tables)}
    for name, category in NEW.items():
        assert list(board[name]["categories"]) == [category]
    assert list(board["PaintBench"]["categories"]) == ["geometric_transformation",
                                                       "color_change"]


def test_reference_categories_sort_after_the_benchmarks_own():
    from paintkit.references.common import REFERENCE_CATEGORY
    from paintkit.tinygrafix.style_source import STYLE_TRANSFER_CATEGORY

    assert REFERENCE_CATEGORIES == (REFERENCE_CATEGORY, STYLE_TRANSFER_CATEGORY)
    keys = [category_key("", name) for name in ("symbolic_reasoning", "bar_chart",
                                                "reference_guided", "style_transfer",
                                                "another")]
    assert keys == sorted(keys)


def test_the_written_page_names_each_new_benchmark_and_category(results, tmp_path):
    from paintkit.report.write import write_report

    root, _ = results
    page = write_report(root / "all", tmp_path / "report.html", n_boot=50,
                        gallery_per_model=0).read_text(encoding="utf-8")
    for name, category in NEW.items():
        assert f"{name}: categories, tasks, modes" in page and f'"{category}"' in page

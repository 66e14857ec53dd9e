"""paintkit eval: layout, rows equal to the oracle, missing/corrupt outputs, resume, CLI."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main
from paintkit.eval import LayoutError, discover_problems, evaluate, read_rows
from paintkit.eval.synthetic import write_synthetic_tree
from tests.support import metric_oracle as oracle


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    return write_synthetic_tree(root, problems=30, tasks=3, width=40, height=32)


def _check_rows(rows, bench, outputs):
    for row in rows:
        folder = bench / row["benchmark"] / row["task"]
        stem = f"{row['idx']:03d}"
        out = outputs / row["model"] / row["benchmark"] / row["task"] / f"{row['idx']:04d}_output.png"
        expected = oracle.problem_stats(out if row["has_output"] else None,
                                        folder / f"{stem}_answer.png",
                                        folder / f"{stem}_input.png")
        assert row["output"] == expected
        assert row["input_size"] == [40, 32]
        assert ("error" in row) == (not row["has_output"])


def test_eval_rows_match_the_oracle_and_resume(tree, tmp_path):
    bench, outputs = tree
    summary = evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    rows = read_rows(tmp_path / "problem_stats.jsonl")
    assert summary.scored == len(rows) == 90 and summary.missing > 0
    assert {r["model"] for r in rows} == {"exact", "noisy", "partial"}
    _check_rows(rows, bench, outputs)
    assert any("cannot decode" in r.get("error", "") for r in rows)
    assert any("no output file" in r.get("error", "") for r in rows)
    assert any(r["has_output"] and not r["correct_output_size"] for r in rows)
    # Resume: a crash left a partial line; rerunning scores only what is missing.
    path = tmp_path / "problem_stats.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-5]) + lines[-5][:30])
    again = evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    assert again.scored == 5 and again.skipped == 85
    assert len(read_rows(path)) == 90
    assert evaluate(bench, outputs, tmp_path, jobs=1, progress=False).scored == 0
    redo = evaluate(bench, outputs, tmp_path, jobs=1, progress=False, overwrite=True,
                    models=["exact"], tasks=["task_1"])
    assert redo.scored == 10 and len(read_rows(path)) == 90


def test_cli_parallel_filters_and_diff_images(tree, tmp_path, capsys):
    bench, outputs = tree
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(tmp_path), "--jobs", "2", "--model", "noisy", "--task", "task_2",
                 "--save-images", "--quiet"])
    assert code == 0
    rows = read_rows(tmp_path / "problem_stats.jsonl")
    assert len(rows) == 10 and {(r["model"], r["task"]) for r in rows} == {("noisy", "task_2")}
    _check_rows(rows, bench, outputs)
    scored = next(r for r in rows if r["has_output"])
    diff = tmp_path / "diffs" / "noisy" / "PaintBench" / "task_2"
    assert sorted(p.name for p in diff.glob(f"{scored['idx']:04d}_diff_*.png")) == [
        f"{scored['idx']:04d}_diff_t{t:02d}.png" for t in (0, 2, 5, 10)]
    assert "10 rows written" in capsys.readouterr().err


def test_layout_errors_name_the_offending_path(tree, tmp_path):
    bench, outputs = tree
    with pytest.raises(LayoutError, match="does not exist"):
        discover_problems(tmp_path / "nothing")
    broken = tmp_path / "B" / "PaintBench" / "task_x"
    broken.mkdir(parents=True)
    (broken / "000_input.png").write_bytes(b"x")
    (broken / "000.json").write_text(json.dumps({"mode": "default"}))
    with pytest.raises(LayoutError, match=r"task_x/000_answer\.png: missing"):
        discover_problems(tmp_path / "B")
    (broken / "000_answer.png").write_bytes(b"x")
    (broken / "001_output.png").write_bytes(b"x")
    with pytest.raises(LayoutError, match=r"001_output\.png: not a benchmark file"):
        discover_problems(tmp_path / "B")
    code = main(["eval", "--benchmarks", str(tmp_path / "B"), "--outputs", str(outputs),
                 "--results", str(tmp_path / "r")])
    assert code == 2
    # A single benchmark folder works as the root too.
    assert len(discover_problems(bench / "PaintBench")) == 30

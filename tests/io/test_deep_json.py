"""A line of deeply nested JSON (``'[' * 100000 + ']' * 100000``) is a damaged line or one
clear error in every reader, never a RecursionError traceback (issue 23, item 1)."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main
from paintkit.eval import LayoutError, evaluate, read_rows
from paintkit.io.jsonl import JSONInputError, parse_json
from paintkit.layout.results import PROBLEM_STATS_NAME as RESULTS_NAME
from paintkit.writers.manifest import MANIFEST_NAME

DEEP = "[" * 100000 + "]" * 100000


def test_parse_json_turns_deep_nesting_into_a_value_error():
    with pytest.raises(JSONInputError, match="nested too deeply"):
        parse_json(DEEP)
    with pytest.raises(ValueError):
        parse_json(DEEP.encode())
    with pytest.raises(ValueError, match="NaN is not a JSON number"):
        parse_json('{"a": NaN}', finite=True)
    assert parse_json('{"a": [1, 2.5]}') == {"a": [1, 2.5]}


def test_eval_repairs_a_deep_line_in_its_results(results, capsys):
    bench, outputs, out = results
    path = out / RESULTS_NAME
    before = read_rows(path)
    with open(path, "a") as fh:
        fh.write(DEEP + "\n")
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(out), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err
    assert f"dropped 1 damaged line(s) (line {len(before) + 1}: not JSON)" in err
    assert read_rows(path) == before and DEEP not in path.read_text()


def test_eval_names_a_deep_problem_json(tree, tmp_path, capsys):
    bench, outputs = tree
    (bench / "PaintBench" / "task_1" / "001.json").write_text(DEEP)
    with pytest.raises(LayoutError, match=r"001\.json: cannot read problem metadata"):
        evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(tmp_path / "r"), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nested too deeply" in err


def test_generate_names_a_deep_manifest(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST_NAME).write_text(DEEP)
    code = main(["generate", "paintbench", "--out", str(out), "--tasks", "translation",
                 "--conditions", "baseline", "--per-cell", "1", "--no-preservation",
                 "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "unreadable manifest (nested too deeply to read)" in err


def test_agreement_skips_a_deep_line(tmp_path, capsys):
    scores = [{"model": "m", "benchmark": "PaintBench", "task": "recolor", "idx": k,
               "output": {"cie76_mean": {"iou": k / 10}}} for k in range(6)]
    ratings = [{"task": "recolor", "idx": k, "rating": k} for k in range(6)]
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in scores) + DEEP + "\n")
    (tmp_path / "j.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ratings) + DEEP + "\n")
    out = tmp_path / "agreement.json"
    code = main(["agreement", "--scores", str(tmp_path / "s.jsonl"), "--judgments",
                 str(tmp_path / "j.jsonl"), "--resamples", "10", "--output", str(out)])
    assert code == 0, capsys.readouterr().err
    skipped = json.loads(out.read_text())["skipped_rows"]
    assert any(":7: not JSON (nested too deeply" in s for s in skipped)


@pytest.mark.parametrize("command", ["stats", "report"])
def test_stats_and_report_name_the_deep_line(results, tmp_path, command, capsys):
    _, _, out = results
    with open(out / RESULTS_NAME, "a") as fh:
        fh.write(DEEP + "\n")
    target = tmp_path / ("agg.jsonl" if command == "stats" else "rep.html")
    flag = "--aggregate" if command == "stats" else "--output"
    code = main([command, "--results", str(out), flag, str(target), "--n-boot", "10"])
    err = capsys.readouterr().err
    line = len(read_rows(out / RESULTS_NAME)) + 1
    assert code == 2 and err.strip().splitlines() == [
        f"paintkit {command}: error: {out / RESULTS_NAME}:{line}: not JSON (nested too deeply "
        "to read)"]
    assert not target.exists()


def test_report_treats_a_deep_aggregate_file_as_damaged(results, tmp_path, capsys):
    """The aggregate is derived data: a damaged one is named and recomputed from the
    per-problem rows, and the report is still written."""
    _, _, out = results
    (out / "aggregate_stats.jsonl").write_text(DEEP + "\n")
    code = main(["report", "--results", str(out), "--output", str(tmp_path / "r.html"),
                 "--n-boot", "10"])
    err = capsys.readouterr().err
    assert code == 0 and (tmp_path / "r.html").stat().st_size > 0
    (line,) = [x for x in err.splitlines() if "aggregate_stats.jsonl" in x]
    assert "nested too deeply" in line and "recomputing the aggregate" in line


def test_subset_names_a_deep_problem_json(tmp_path, capsys):
    folder = tmp_path / "Bench" / "task"
    folder.mkdir(parents=True)
    (folder / "000.json").write_text(DEEP)
    code = main(["subset", "--benchmarks", str(tmp_path), "--n", "1", "--output",
                 str(tmp_path / "s.json")])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().splitlines() == [
        f"paintkit subset: error: {folder / '000.json'}: cannot read problem metadata: nested "
        "too deeply to read"]


def test_eval_refuses_a_results_file_that_is_a_fifo(tree, tmp_path, capsys):
    import os

    bench, outputs = tree
    out = tmp_path / "r"
    out.mkdir()
    os.mkfifo(out / RESULTS_NAME)  # reading it would block forever
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(out), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == [f"paintkit eval: error: {out / RESULTS_NAME}: not a regular "
                                 "file; remove it or choose another --results folder"]

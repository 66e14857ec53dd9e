"""The stages as library verbs: ``paintkit.evaluate``, ``paintkit.aggregate``,
``paintkit.write_report`` and ``paintkit.bench`` give what the commands give (the commands
only parse their flags for them), and the report reads the aggregate instead of computing
it again."""

from __future__ import annotations

import json
import shutil

import pytest

import paintkit
from paintkit.cli.main import main


def _rows(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _without_file_stamps(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "output_file"} for r in rows]


def test_evaluate_and_aggregate_write_what_the_commands_write(pipeline, tmp_path, capsys):
    summary = paintkit.evaluate(pipeline["bench"], pipeline["outputs"], tmp_path / "r", jobs=1,
                                progress=False)
    assert summary.scored == len(_rows(pipeline["results"] / "problem_stats.jsonl"))
    assert _without_file_stamps(_rows(summary.results_path)) == _without_file_stamps(
        _rows(pipeline["results"] / "problem_stats.jsonl"))
    result = paintkit.aggregate(tmp_path / "r", n_boot=500)
    assert result.path == tmp_path / "r" / "aggregate_stats.jsonl"
    assert (tmp_path / "r" / "aggregate_stats.jsonl").read_bytes() == \
        (pipeline["results"] / "aggregate_stats.jsonl").read_bytes()
    assert result.rows == _rows(result.path) and result.delta_e == "cie76"
    assert _rows(tmp_path / "r" / "comparisons.jsonl") == result.comparisons != []
    board = result.leaderboard()
    assert board.splitlines()[0] == "PaintBench" and "oracle" in board
    # the command prints the verb's leaderboard
    capsys.readouterr()
    assert main(["stats", "--results", str(tmp_path / "r"), "--n-boot", "500"]) == 0
    assert capsys.readouterr().out == board


def test_aggregate_refuses_bad_input_with_one_line(pipeline, tmp_path):
    results = pipeline["results"] / "problem_stats.jsonl"
    with pytest.raises(ValueError, match="is the input results file"):
        paintkit.aggregate(pipeline["results"], output=results)
    with pytest.raises(ValueError, match="n_boot"):
        paintkit.aggregate(pipeline["results"], output=tmp_path / "a.jsonl", n_boot=0)
    assert not (tmp_path / "a.jsonl").exists()


def test_the_report_reads_the_aggregate_it_is_given(pipeline, tmp_path, monkeypatch, capsys):
    results = tmp_path / "results"
    shutil.copytree(pipeline["results"], results)
    computed = []
    import paintkit.report.data as data_module

    real = data_module.aggregate_tables
    monkeypatch.setattr(data_module, "aggregate_tables",
                        lambda *a, **k: computed.append(1) or real(*a, **k))
    path = paintkit.write_report(results, tmp_path / "report.html", n_boot=500)
    assert path == tmp_path / "report.html" and path.stat().st_size > 10_000
    assert computed == [] and "recomputing" not in capsys.readouterr().err
    (results / "aggregate_stats.jsonl").unlink()  # no aggregate: the report computes one
    paintkit.write_report(results, tmp_path / "again.html", n_boot=50)
    assert computed == [1]
    with pytest.raises(ValueError, match="is an input of the report"):
        paintkit.write_report(results, results / "problem_stats.jsonl")


def test_bench_runs_every_stage_as_a_verb(tmp_path):
    log: list[str] = []
    report = paintkit.bench(tmp_path / "run", tasks=["removal"], conditions=["baseline"],
                            per_cell=1, size="128x128", baselines=["oracle", "blank"], jobs=1,
                            n_boot=50, gallery_per_model=0, log=log.append)
    assert report == tmp_path / "run" / "report.html" and report.exists()
    ran = [line[len("bench: "):-len(" ...")] for line in log
           if line.startswith("bench: ") and line.endswith(" ...")]
    assert ran == ["generate", "baseline oracle", "baseline blank", "eval", "stats", "report"]
    rows = _rows(tmp_path / "run" / "results" / "problem_stats.jsonl")
    assert {r["model"] for r in rows} == {"oracle", "blank"}
    provenance = json.loads((tmp_path / "run" / "results" /
                             "aggregate_stats.provenance.json").read_text())
    assert provenance["n_boot"] == 50
    log.clear()
    paintkit.bench(tmp_path / "run", tasks=["removal"], conditions=["baseline"], per_cell=1,
                   size="128x128", baselines=["oracle", "blank"], jobs=1, n_boot=50,
                   gallery_per_model=0, log=log.append)
    assert log and all(line.endswith(": unchanged, skipped") for line in log)


def test_bench_names_the_failed_step(tmp_path):
    from paintkit.full_run.steps import StepFailed

    with pytest.raises(StepFailed, match=r"bench: step generate failed: .*conditions"):
        paintkit.bench(tmp_path / "run", suites=["tinygrafixbench"], conditions=["striped"],
                       baselines=["oracle"], log=lambda line: None)
    with pytest.raises(ValueError, match="suites: expected some of"):
        paintkit.bench(tmp_path / "run", suites=["nope"])

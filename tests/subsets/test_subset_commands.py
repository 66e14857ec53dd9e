"""``--subset FILE`` (the ``subset.json`` of ``paintkit subset``) in eval, run, stats and
report: only its problems, and every results file, leaderboard and report says the scores
are a subset's (how many of how many)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.subsets import read_subset

ECHO = str(Path(__file__).parents[1] / "report")  # echo_model:echo, a module:function model


@pytest.fixture(scope="module")
def picked(tmp_path_factory):
    root = tmp_path_factory.mktemp("subset")
    bench, outs = root / "bench", root / "outs"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "translation,recolor",
                 "--conditions", "baseline,n_med", "--per-cell", "2", "--no-preservation",
                 "--namespace", "subsetcmd", "--engine", "inprocess", "--quiet"]) == 0
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs),
                 "--quiet"]) == 0
    subset = root / "subset.json"
    assert main(["subset", "--benchmarks", str(bench), "--n", "3", "--output", str(subset)]) == 0
    return bench, outs, subset


def _rows(results: Path) -> list[dict]:
    return [json.loads(line) for line in (results / "problem_stats.jsonl").read_text().splitlines()]


def test_eval_scores_only_the_subset_and_says_so(picked, tmp_path, capsys):
    bench, outs, subset = picked
    keys = {(b, t, i) for b, t, i in read_subset(subset).keys}
    res = tmp_path / "res"
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--subset", str(subset), "--quiet", "--jobs", "1"]) == 0
    rows = _rows(res)
    assert {(r["benchmark"], r["task"], r["idx"]) for r in rows} == keys and len(rows) == 3
    doc = json.loads((res / "results.json").read_text())
    assert doc["subset"] == {"file": str(subset), "problems": 3, "of": 8}
    out = capsys.readouterr().out
    assert f"subset {subset}: 3 of 8 problems" in out
    # stats without --subset: the results folder's own record names it
    assert main(["stats", "--results", str(res), "--n-boot", "20"]) == 0
    captured = capsys.readouterr()
    assert "3 of 8 problems" in captured.out and "3 of 8 problems" in captured.err


def test_stats_and_report_take_a_subset_of_full_results(picked, tmp_path, capsys):
    bench, outs, subset = picked
    res = tmp_path / "res"
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "--jobs", "1"]) == 0
    assert len(_rows(res)) == 8 and "subset" not in json.loads((res / "results.json").read_text())
    capsys.readouterr()
    assert main(["stats", "--results", str(res), "--n-boot", "20", "--format", "json",
                 "--subset", str(subset)]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board[0]["problems"] == 3 and board[0]["subset"] == f"subset {subset}: 3 of 8 problems"
    provenance = json.loads((res / "aggregate_stats.provenance.json").read_text())
    assert provenance["subset"]["problems"] == 3
    page = tmp_path / "r.html"
    assert main(["report", "--results", str(res), "--output", str(page), "--n-boot", "20",
                 "--subset", str(subset)]) == 0
    html = page.read_text()
    assert "3 of 8 problems" in html and "not of the whole benchmark" in html
    full = tmp_path / "full.html"
    assert main(["stats", "--results", str(res), "--n-boot", "20"]) == 0
    assert main(["report", "--results", str(res), "--output", str(full), "--n-boot", "20"]) == 0
    assert "not of the whole benchmark" not in full.read_text()


def test_run_writes_only_the_subset(picked, tmp_path, monkeypatch):
    bench, _, subset = picked
    monkeypatch.syspath_prepend(ECHO)
    outs = tmp_path / "outs"
    assert main(["run", "--model", "echo_model:echo", "--name", "echo", "--benchmarks", str(bench),
                 "--outputs",
                 str(outs), "--subset", str(subset), "--quiet"]) == 0
    written = sorted(p.relative_to(outs / "echo") for p in outs.rglob("*_output.png"))
    wanted = sorted(Path(b, t, f"{i:04d}_output.png") for b, t, i in read_subset(subset).keys)
    assert written == wanted


@pytest.mark.parametrize("text, says", [
    ("{", "not JSON"),
    ('{"problems": 3}', "no 'problems' list"),
    ('{"problems": [{"key": "PaintBench/recolor"}]}', "is not <Benchmark>/<task>/NNN"),
])
def test_a_bad_subset_file_is_one_line(picked, tmp_path, text, says, capsys):
    bench, outs, _ = picked
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(tmp_path / "r"), "--subset", str(bad), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and err.count("\n") == 0 and str(bad) in err

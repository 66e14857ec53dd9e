"""``paintkit stats --output FILE`` writes the leaderboard table, and the aggregate always
lands in the results folder where ``report`` reads it (issue 37 item 2)."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main


def _stats(*args):
    return main(["stats", *args, "--n-boot", "20"])


def test_latex_output_is_the_table_and_the_aggregate_is_fresh(stats_input, tmp_path, capsys):
    aggregate = stats_input / "aggregate_stats.jsonl"
    aggregate.write_text("stale\n")
    table = tmp_path / "lb.tex"
    assert _stats("--results", str(stats_input), "--format", "latex", "--output", str(table)) == 0
    captured = capsys.readouterr()
    text = table.read_text()
    assert text.startswith("% PaintBench\n\\begin{tabular}") and text.rstrip().endswith(
        "\\end{tabular}")
    assert captured.out == ""  # the table went to the file, not to stdout
    assert f"leaderboard (latex) -> {table}" in captured.err
    rows = [json.loads(line) for line in aggregate.read_text().splitlines()]
    assert rows and {"model", "benchmark", "level"} <= set(rows[0])


@pytest.mark.parametrize("name, start", [("lb.md", "**PaintBench**"), ("lb.csv", "benchmark,rank"),
                                         ("lb.json", "["), ("lb.txt", "PaintBench\n")])
def test_the_suffix_chooses_the_format(stats_input, tmp_path, name, start):
    assert _stats("--results", str(stats_input), "--output", str(tmp_path / name)) == 0
    assert (tmp_path / name).read_text().startswith(start)


def test_json_leaderboard_for_scripts(stats_input, capsys):
    assert _stats("--results", str(stats_input), "--format", "json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["model"] for r in rows} and all(0 <= r["score"] <= 1 for r in rows)
    assert {"benchmark", "model", "score", "low", "high", "categories", "problems",
            "outputs", "expected"} <= set(rows[0])


def test_old_jsonl_output_still_names_the_aggregate_with_a_note(stats_input, tmp_path, capsys):
    target = tmp_path / "agg.jsonl"
    assert _stats("--results", str(stats_input), "--output", str(target)) == 0
    err = capsys.readouterr().err
    assert "note: --output" in err and "--aggregate FILE" in err
    assert json.loads(target.read_text().splitlines()[0])["level"]


def test_the_table_never_replaces_the_input(stats_input, capsys):
    source = stats_input / "problem_stats.jsonl"
    before = source.read_bytes()
    assert _stats("--results", str(stats_input), "--format", "md", "--output", str(source)) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert source.read_bytes() == before

"""Small things a newcomer trips on (issue 37, item 10): counts that agree with their noun,
thousands separated, and a --per-cell that drops modes says so."""

from __future__ import annotations

from pathlib import Path

from paintkit.cli.main import main
from paintkit.engines.summary import GenerateSummary
from paintkit.io.plural import count_of


def test_counts_agree_with_their_noun():
    assert count_of(1, "file") == "1 file" and count_of(2016, "row") == "2,016 rows"
    assert count_of(0, "(model, benchmark) pair") == "0 (model, benchmark) pairs"
    one = GenerateSummary(Path("o"), "directory", "process", 1, 1, 1, 0, 1, 10, 1.0)
    assert one.describe().startswith("1 problem, 1 file, ")
    many = GenerateSummary(Path("o"), "directory", "process", 2, 2016, 2016, 0, 6048, 10, 1.0)
    assert many.describe().startswith("2,016 problems, 6,048 files, ")


def test_per_cell_below_the_modes_says_which_never_appear(tmp_path, capsys):
    assert main(["generate", "paintbench", "--out", str(tmp_path / "b"), "--tasks",
                 "point_operations", "--conditions", "baseline", "--per-cell", "2",
                 "--no-preservation", "--namespace", "t37", "--engine", "inprocess",
                 "--quiet"]) == 0
    err = capsys.readouterr().err
    note = [line for line in err.splitlines() if "note: --per-cell 2" in line]
    assert len(note) == 1 and "point_operations:invert never appear" in note[0]
    assert "use --per-cell 3 or more" in note[0]


def test_stats_says_one_pair(stats_input, capsys):
    import json

    path = stats_input / "problem_stats.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    first = rows[0]["model"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows if r["model"] == first))
    assert main(["stats", "--results", str(stats_input), "--n-boot", "10"]) == 0
    assert "for 1 (model, benchmark) pair in" in capsys.readouterr().err

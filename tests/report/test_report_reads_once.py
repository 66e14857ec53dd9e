"""The report reads ``problem_stats.jsonl`` once and prints nothing itself: a stale or
damaged aggregate file is a :class:`ReportNote` warning (``paintkit report`` prints it)."""

from __future__ import annotations

import builtins
import io
import json
import warnings
from pathlib import Path

import pytest

from paintkit.report.data import ReportNote, load_report_data
from tests.support.hostile import paintbench_rows


@pytest.fixture()
def rows_folder(tmp_path):
    """A results folder of two models' rows (no images)."""
    folder = tmp_path / "res"
    folder.mkdir()
    rows = paintbench_rows(per_cell=2)
    (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def test_problem_stats_is_read_once(rows_folder, monkeypatch):
    opened = []
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        if str(file).endswith("problem_stats.jsonl"):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)  # Path.open and read_bytes go through it
    data = load_report_data(rows_folder, n_boot=20)
    assert data.tables and data.provenance["metric_version"] is not None
    assert len(opened) == 1, opened


def test_a_damaged_aggregate_is_a_warning_not_a_print(rows_folder, capsys):
    (Path(rows_folder) / "aggregate_stats.jsonl").write_text("{not json\n")
    with pytest.warns(ReportNote, match="recomputing the aggregate"):
        load_report_data(rows_folder, n_boot=20)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReportNote)
        (Path(rows_folder) / "aggregate_stats.jsonl").unlink()
        load_report_data(rows_folder, n_boot=20)  # no aggregate file: nothing to say

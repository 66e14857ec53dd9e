"""``paintkit stats`` on rows scored with another ΔE formula (``paintkit eval --delta-e``)."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main
from paintkit.stats.table import StatsInputError, build_tables
from tests.support.rows_factory import paintbench_rows


def _as_formula(rows, formula):
    """The same rows as if scored with ``formula``: ``delta_e`` field, renamed blocks."""
    out = []
    for row in rows:
        row = json.loads(json.dumps(row))
        row["delta_e"] = formula
        if isinstance(row.get("output"), dict):
            row["output"] = {k.replace("cie76_", f"{formula}_"): v
                             for k, v in row["output"].items()}
        out.append(row)
    return out


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _aggregate(tmp_path, src, *extra):
    out = tmp_path / f"agg_{len(list(tmp_path.iterdir()))}.jsonl"
    assert main(["stats", "--results", str(src), "--aggregate", str(out), "--no-ci", *extra]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_other_formula_rows_are_read_from_their_blocks(tmp_path):
    rows = paintbench_rows(models=("m1",), per_cell=2)
    plain = _aggregate(tmp_path, _write(tmp_path / "a.jsonl", rows))
    de = _aggregate(tmp_path, _write(tmp_path / "b.jsonl", _as_formula(rows, "ciede2000")))
    assert "ciede2000_mean" in de[0] and "cie76_mean" not in de[0]
    renamed = [{k.replace("cie76_", "ciede2000_"): v for k, v in r.items()} for r in plain]
    assert de == renamed


def test_mixed_formulas_are_refused_unless_one_is_chosen(tmp_path, capsys):
    rows = paintbench_rows(models=("m1",), per_cell=2)
    mixed = rows + _as_formula([dict(r, model="m2") for r in rows], "cie94")
    with pytest.raises(StatsInputError, match="several delta_e formulas .cie76, cie94."):
        build_tables(mixed)
    src = _write(tmp_path / "mixed.jsonl", mixed)
    assert main(["stats", "--results", str(src), "--aggregate", str(tmp_path / "x.jsonl")]) == 2
    assert "choose one with --delta-e" in capsys.readouterr().err
    chosen = _aggregate(tmp_path, src, "--delta-e", "cie94")
    assert {r["model"] for r in chosen} == {"m2"} and "cie94_mean" in chosen[0]
    assert [t.delta_e for t in build_tables(mixed, "cie76")] == ["cie76"]
    with pytest.raises(StatsInputError, match="no rows scored with delta_e ciede2000"):
        build_tables(rows, "ciede2000")


def test_mixed_metric_versions_are_refused(tmp_path, capsys):
    """Rows of metric version 1 (no field) and 2 never share a mean."""
    rows = paintbench_rows(models=("m1", "m2"), per_cell=2)
    current = [dict(r, metric_version=2) if r["model"] == "m2" else r for r in rows]
    with pytest.raises(StatsInputError, match=r"several metric versions \(1, 2\)"):
        build_tables(current)
    src = _write(tmp_path / "mixed.jsonl", current)
    assert main(["stats", "--results", str(src), "--aggregate", str(tmp_path / "x.jsonl")]) == 2
    assert "paintkit eval --overwrite" in capsys.readouterr().err
    assert build_tables([dict(r, metric_version=2) for r in rows])  # one version: fine

"""A callable model gets its batch's problem identity when its signature asks for it
(``problems=``, ``keys=``, ``problem_ids=``, ``metadata=``), through ``paintkit run``; a
plain ``edit(batch)`` (and one taking only ``**kwargs``) is called as before."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main
from paintkit.eval import discover_problems, evaluate, read_rows
from paintkit.layout.benchmark import read_metadata
from paintkit.run.callable_model import CallableModel


def run(bench, out, model, *options):
    args = ["run", "--model", model, "--benchmarks", str(bench), "--outputs", str(out),
            "--batch-size", "5", "--quiet"]
    for option in options:
        args += ["--option", option]
    return main(args)


def test_an_oracle_finds_each_problems_answer_from_its_identity(bench, tmp_path):
    out = tmp_path / "out"
    assert run(bench, out, "identity_editors:oracle", f"root={bench}") == 0
    summary = evaluate(bench, out, tmp_path / "res", progress=False)
    assert summary.scored == 12 and summary.missing == 0

    rows = read_rows(tmp_path / "res" / "problem_stats.jsonl")
    assert len(rows) == 12
    for row in rows:  # every tolerance's IoU is 1: each output is its problem's answer
        assert {t["iou"] for t in row["output"]["cie76_threshold"].values()} == {1.0}


def test_keys_problem_ids_and_metadata_match_each_pair(bench, tmp_path):
    record = tmp_path / "seen.jsonl"
    assert run(bench, tmp_path / "out", "identity_editors:recorder", f"record={record}") == 0
    seen = [json.loads(line) for line in record.read_text().splitlines()]
    problems = {f"{p.benchmark}/{p.task}/{p.idx:04d}": p for p in discover_problems(bench)}
    assert sorted(s["key"] for s in seen) == sorted(problems)
    for s in seen:
        meta = read_metadata(problems[s["key"]])
        assert s["problem_id"] == meta["problem_id"]
        assert s["instruction"] == s["meta_instruction"] == meta["instruction"]
        assert s["meta_task"] == problems[s["key"]].task


def test_plain_and_kwargs_only_callables_are_called_as_before(bench, tmp_path):
    record = tmp_path / "kwargs.json"
    assert run(bench, tmp_path / "a", "identity_editors:loose", f"record={record}") == 0
    assert json.loads(record.read_text()) == ["seeds"]
    assert run(bench, tmp_path / "b", "editors:identity_array") == 0  # edit(batch)


def test_an_option_named_like_the_identity_is_refused():
    with pytest.raises(ValueError, match="--option keys= is the name of the problem identity"):
        CallableModel("identity_editors:recorder", options={"keys": "x", "record": "r"})

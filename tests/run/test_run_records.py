"""The records of ``paintkit run`` under damage (issue 38, items 2 and 9): a damaged
``run_manifest.json`` is kept aside and said, never silently dropped; a FIFO in place of a
record file is refused instead of blocking the run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.run.records import read_log, read_manifest

HERE = Path(__file__).resolve().parent


def _run(bench, out, capsys) -> tuple[int, str]:
    code = main(["run", "--model", "editors:invert", "--benchmarks", str(bench), "--outputs",
                 str(out), "--name", "m", "--limit", "1", "--overwrite", "--quiet"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("damage", ["one byte more", "nested 100,000 deep", "not runs"])
def test_a_damaged_manifest_is_kept_aside_and_said(damage, bench, tmp_path, capsys):
    for _ in range(2):
        assert _run(bench, tmp_path, capsys)[0] == 0
    path = tmp_path / "m" / "run_manifest.json"
    if damage == "one byte more":
        with open(path, "ab") as fh:
            fh.write(b"x")
    elif damage == "nested 100,000 deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:
        path.write_text(json.dumps({"runs": "two"}))
    damaged = path.read_bytes()
    code, err = _run(bench, tmp_path, capsys)
    assert code == 0, err
    (aside,) = (tmp_path / "m").glob("run_manifest.json.damaged-*")
    assert aside.read_bytes() == damaged  # the earlier history, untouched
    lines = [line for line in err.splitlines() if "kept aside" in line]
    assert len(lines) == 1 and f"kept aside as {aside.name}" in lines[0]
    assert "Traceback" not in err
    assert len(read_manifest(tmp_path / "m")["runs"]) == 1  # a new history
    assert _run(bench, tmp_path, capsys)[0] == 0  # and it goes on from there
    assert len(read_manifest(tmp_path / "m")["runs"]) == 2
    assert len(list((tmp_path / "m").glob("run_manifest.json.damaged-*"))) == 1


def test_a_deeply_nested_log_line_is_skipped(bench, tmp_path, capsys):
    assert _run(bench, tmp_path, capsys)[0] == 0
    with open(tmp_path / "m" / "run_log.jsonl", "a") as fh:
        fh.write("[" * 100_000 + "]" * 100_000 + "\n")
    assert len(read_log(tmp_path / "m")) == 3


@pytest.mark.parametrize("name", ["run_log.jsonl", "run_manifest.json"])
def test_a_fifo_in_place_of_a_record_file_is_refused(name, bench, tmp_path):
    (tmp_path / "m").mkdir()
    os.mkfifo(tmp_path / "m" / name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(
        [sys.executable, "-m", "paintkit", "run", "--model", "editors:invert", "--benchmarks",
         str(bench), "--outputs", str(tmp_path), "--name", "m", "--quiet"],
        env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert f"{name}: not a regular file (a FIFO)" in result.stderr
    assert "Traceback" not in result.stderr
    assert not list((tmp_path / "m").rglob("*_output.png"))  # stopped before any work

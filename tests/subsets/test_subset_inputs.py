"""``paintkit subset`` reads a problem's ``NNN.json`` through the one checked reader
(issue 38, item 13): a wrong-typed field is one line naming the file's problem and field."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main

GOOD = {"W": 10, "H": 10, "edit_pixels": 5, "scene": {"elements": [{"kind": "shape"}]}}


@pytest.mark.parametrize(("field", "value", "says"), [
    ("W", 0, "'W' must be a positive integer, got 0 (int)"),
    ("H", True, "'H' must be a positive integer, got True (bool)"),
    ("scene", [], "'scene' must be an object with a list of 'elements', got [] (list)"),
    ("scene", {"elements": 3}, "'scene' must be an object with a list of 'elements'"),
    ("edit_pixels", "x", "'edit_pixels' must be a number of pixels >= 0, got 'x' (str)"),
    ("edit_pixels", -1, "'edit_pixels' must be a number of pixels >= 0, got -1 (int)"),
    ("scene", {"elements": [1]}, "each of 'scene.elements' must be an object, got 1 (int)"),
    ("params", [], "'params' must be an object, got [] (list)"),
    ("params", {"steps": 3}, "'params.steps' must be a list of edits, got 3 (int)"),
    ("params", {"steps": [{}, {}]}, None),
])
def test_a_wrong_typed_field_is_one_line(field, value, says, tmp_path, capsys):
    folder = tmp_path / "Bench" / "task"
    folder.mkdir(parents=True)
    for k in range(3):
        (folder / f"{k:03d}.json").write_text(json.dumps(GOOD))
    (folder / "001.json").write_text(json.dumps({**GOOD, field: value}))
    code = main(["subset", "--benchmarks", str(tmp_path), "--n", "2", "--output",
                 str(tmp_path / "s.json")])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if says is None:
        assert code == 0, err
        return
    assert code == 2
    named = f"paintkit subset: error: {folder / '001.json'}: problem Bench/task/001: {says}"
    assert err.strip().startswith(named)
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text", ["[1, 2]", "{", "[" * 100_000 + "]" * 100_000])
def test_a_file_that_is_not_an_object_is_named(text, tmp_path, capsys):
    folder = tmp_path / "Bench" / "task"
    folder.mkdir(parents=True)
    (folder / "000.json").write_text(text)
    assert main(["subset", "--benchmarks", str(tmp_path), "--n", "1", "--output",
                 str(tmp_path / "s.json")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{folder / '000.json'}:" in err

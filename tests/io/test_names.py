"""No name supplied by a user or a file reaches outside its root (issue 23, item 4):
``baseline --model ../escaped`` (or an absolute path, or ``.``) wrote outside ``--out``."""

from __future__ import annotations

import os

import pytest

from paintkit.baselines import write_baseline
from paintkit.cli.main import main
from paintkit.eval import discover_problems
from paintkit.io.names import check_folder_name

HOSTILE = ["../escaped", "..", ".", "", "a/b", "/abs/path", ".hidden", "nul\0"] + \
    (["a\\b"] if "\\" in (os.sep, os.altsep) else [])


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", HOSTILE)
def test_check_folder_name_refuses(name):
    with pytest.raises(ValueError, match="expected one plain folder name"):
        check_folder_name(name, "model")


def test_odd_but_legal_names_pass():
    """Folder names a model may really have (the report escapes them for display)."""
    names = ["<!--<script>x", "price$5 vs $6", "_nolegend_", "gpt image (v2)"]
    if os.sep != "\\" and os.altsep != "\\":
        names.append("$\\foo{$")  # a backslash is a plain character of a POSIX name
    for name in names:
        assert check_folder_name(name, "model") == name


@pytest.mark.parametrize("model", ["../escaped", ".", "/ABS", "a/../../b", ".."])
def test_baseline_model_cannot_leave_out(tree, tmp_path, model, capsys):
    bench, _ = tree
    model = model.replace("/ABS", str(tmp_path / "abs"))
    out = tmp_path / "sandbox" / "out"
    out.mkdir(parents=True)
    before = _files(tmp_path)
    code = main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(out),
                 "--name", model])
    err = capsys.readouterr().err
    assert code == 2 and "expected one plain folder name" in err and len(err.splitlines()) == 1
    assert _files(tmp_path) == before


def test_output_paths_check_every_component(tree, tmp_path):
    bench, _ = tree
    problem = discover_problems(bench)[0]
    assert problem.output_path(tmp_path, "m") == \
        tmp_path / "m" / problem.benchmark / problem.task / f"{problem.idx:04d}_output.png"
    for model in ("..", "../x", str(tmp_path)):
        with pytest.raises(ValueError, match="model name"):
            problem.output_path(tmp_path, model)


def test_a_benchmark_folder_given_as_dot_keeps_its_name(tree, tmp_path, monkeypatch):
    bench, _ = tree
    monkeypatch.chdir(bench / "PaintBench")
    problems = discover_problems(".")
    assert {p.benchmark for p in problems} == {"PaintBench"}
    summary = write_baseline("identity", ".", tmp_path / "o")
    assert summary.written == len(problems)
    assert os.listdir(tmp_path / "o" / "identity") == ["PaintBench"]

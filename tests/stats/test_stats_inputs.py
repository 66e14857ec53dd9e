"""``paintkit stats`` (and ``report``, which reads the same rows) refuses bad rows naming
file and line, never overwrites its input, never writes NaN, and cleans what a killed run
left (issue 23, items 8, 9; issue 24, item 3)."""

from __future__ import annotations

import json

import pytest

from paintkit.cli.main import main
from paintkit.stats.bootstrap import MAX_N_BOOT
from paintkit.stats.output import write_jsonl
from paintkit.stats.table import MAX_IDX, StatsInputError, read_problem_rows


def _rows(folder):
    path = folder / "problem_stats.jsonl"
    return path, [json.loads(line) for line in path.read_text().splitlines()]


def _stats(args, capsys):
    code = main(["stats", *args, "--n-boot", "20"])
    return code, capsys.readouterr().err


def test_stats_refuses_to_overwrite_its_input(stats_input, capsys):
    path = stats_input / "problem_stats.jsonl"
    before = path.read_bytes()
    for output in (path, stats_input / "." / "problem_stats.jsonl"):
        code, err = _stats(["--results", str(stats_input), "--aggregate", str(output)], capsys)
        assert code == 2 and "is the input results file; refusing to overwrite it" in err
    code, err = _stats(["--results", str(path), "--aggregate", str(stats_input / "a.jsonl"),
                        "--diagnostics", str(path)], capsys)
    assert code == 2 and f"diagnostics {path} is the input results file" in err
    code, err = _stats(["--results", str(path), "--aggregate", str(stats_input / "a.jsonl"),
                        "--diagnostics", str(stats_input / "a.jsonl")], capsys)
    assert code == 2 and "name the same file" in err
    assert path.read_bytes() == before and not (stats_input / "a.jsonl").exists()


def test_report_refuses_to_overwrite_its_input(stats_input, capsys):
    path = stats_input / "problem_stats.jsonl"
    before = path.read_bytes()
    code = main(["report", "--results", str(stats_input), "--output", str(path)])
    assert code == 2 and "refusing to overwrite" in capsys.readouterr().err
    assert path.read_bytes() == before


BAD_KEYS = [
    ("idx", 1.7, "'idx' must be an integer"),
    ("idx", "abc", "'idx' must be an integer"),
    ("idx", None, "'idx' must be an integer"),
    ("idx", True, "'idx' must be an integer"),
    ("idx", -1, "'idx' must be an integer"),
    ("idx", 2**70, "'idx' must be an integer"),
    ("idx", MAX_IDX + 1, "'idx' must be an integer"),
    ("task", 5, "'task' must be a non-empty string"),
    ("model", ["m"], "'model' must be a non-empty string"),
    ("has_output", "yes", "'has_output' must be true or false"),
]


@pytest.mark.parametrize("key, value, message", BAD_KEYS)
def test_bad_key_fields_are_refused_naming_file_and_line(stats_input, tmp_path, capsys,
                                                         key, value, message):
    path, rows = _rows(stats_input)
    rows[4][key] = value
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(StatsInputError, match=f"^{path}:5: {message}"):
        read_problem_rows(path)
    code, err = _stats(["--results", str(path), "--aggregate", str(tmp_path / "a.jsonl")], capsys)
    assert code == 2 and err.startswith(f"paintkit stats: error: {path}:5: {message}")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "a.jsonl").exists()


def test_float_idx_never_replaces_another_row(stats_input):
    path, rows = _rows(stats_input)
    twin = dict(rows[1], idx=float(rows[1]["idx"]) + 0.7)
    path.write_text("".join(json.dumps(r) + "\n" for r in [*rows, twin]))
    with pytest.raises(StatsInputError, match="'idx' must be an integer"):
        read_problem_rows(path)


BAD_SCORES = [
    ("NaN", "must lie in [0, 1], got NaN"),
    ("Infinity", "must lie in [0, 1], got Infinity"),
    ("-Infinity", "must lie in [0, 1], got -Infinity"),
    ("1.5", "must lie in [0, 1], got 1.5"),
    ("-0.25", "must lie in [0, 1], got -0.25"),
    ('"0.5"', 'must be a number in [0, 1], got "0.5"'),
    ("true", "must be a number in [0, 1], got true"),
    ("null", "must be a number in [0, 1], got null"),
]


@pytest.mark.parametrize("token, message", BAD_SCORES)
@pytest.mark.parametrize("block", ["cie76_threshold.3", "cie76_mean"])
def test_bad_scores_are_refused_naming_file_and_line(stats_input, tmp_path, capsys, token,
                                                     message, block):
    path, rows = _rows(stats_input)
    row = next(n for n, r in enumerate(rows) if r["has_output"])
    target = rows[row]["output"]
    for part in block.split("."):
        target = target[part]
    target["iou"] = "@@"
    lines = [json.dumps(r) for r in rows]
    lines[row] = lines[row].replace('"@@"', token)
    path.write_text("\n".join(lines) + "\n")
    code, err = _stats(["--results", str(path), "--aggregate", str(tmp_path / "a.jsonl")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"paintkit stats: error: {path}:{row + 1}: ") and message in err
    assert f"output.{block}.iou" in err


def test_nan_outside_the_scores_is_read(stats_input, tmp_path, capsys):
    """Another tool's row may hold NaN where stats reads nothing (a PSNR of identical
    images): the row is read, and nothing non-standard is written."""
    path, rows = _rows(stats_input)
    lines = [json.dumps(r)[:-1] + ', "psnr": NaN}' for r in rows]
    path.write_text("\n".join(lines) + "\n")
    code, err = _stats(["--results", str(path), "--aggregate", str(tmp_path / "a.jsonl")], capsys)
    assert code == 0, err
    assert "NaN" not in (tmp_path / "a.jsonl").read_text()


def test_non_utf8_line_is_named(stats_input, tmp_path, capsys):
    path = stats_input / "problem_stats.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"task"', b'"t\xffask"')
    path.write_bytes(b"\n".join(lines))
    code, err = _stats(["--results", str(path), "--aggregate", str(tmp_path / "a.jsonl")], capsys)
    assert code == 2 and f"{path}:3: not UTF-8 text" in err


def test_stats_never_writes_nan(tmp_path, stats_input, capsys):
    write_jsonl(tmp_path / "x.jsonl", [{"a": float("nan"), "b": [float("inf"), 1.0]}])
    assert (tmp_path / "x.jsonl").read_text() == '{"a": null, "b": [null, 1.0]}\n'
    path, rows = _rows(stats_input)
    one = [r for r in rows if r["task"] == "removal"][:1]  # a task of one problem
    path.write_text("".join(json.dumps(r) + "\n" for r in one))
    code, _ = _stats(["--results", str(path), "--aggregate", str(tmp_path / "a.jsonl"),
                      "--diagnostics", str(tmp_path / "d.jsonl")], capsys)
    assert code == 0
    for name in ("a.jsonl", "d.jsonl"):
        text = (tmp_path / name).read_text()
        assert "NaN" not in text and "Infinity" not in text
        for line in text.splitlines():
            json.loads(line, parse_constant=lambda c, n=name: pytest.fail(f"{c} in {n}"))


@pytest.mark.parametrize("command, output", [("stats", "agg.jsonl"), ("report", "rep.html")])
def test_temporaries_of_a_killed_run_are_removed(stats_input, tmp_path, command, output,
                                                 capsys):
    out = tmp_path / "o"
    out.mkdir()
    stale = [out / f".{output}.k1ll3d.tmp", out / f".{output}.x9.tmp"]
    for path in stale:
        path.write_text("partial")
    other = out / ".unrelated.jsonl.k1ll3d.tmp"  # not this command's: kept
    other.write_text("x")
    assert main([command, "--results", str(stats_input), "--output", str(out / output),
                 "--n-boot", "20"]) == 0, capsys.readouterr().err
    assert not any(p.exists() for p in stale) and other.exists()
    assert (out / output).stat().st_size > 0


@pytest.mark.parametrize("n_boot", [MAX_N_BOOT + 1, 100_000_000, 0])
def test_n_boot_above_the_bound_is_refused(stats_input, tmp_path, capsys, n_boot):
    for command, output in (("stats", "a.jsonl"), ("report", "r.html")):
        code = main([command, "--results", str(stats_input), "--output", str(tmp_path / output),
                     "--n-boot", str(n_boot)])
        err = capsys.readouterr().err
        assert code == 2 and f"n_boot: expected a resample count from 1 to {MAX_N_BOOT:,}" in err
        assert not (tmp_path / output).exists()


@pytest.mark.parametrize("command, output", [("stats", "agg.jsonl"), ("report", "rep.html")])
def test_two_runs_into_one_output_folder(stats_input, tmp_path, command, output, capsys):
    from paintkit.io.folder_lock import FolderLock

    with FolderLock(tmp_path, f".paintkit-{command}.lock", f"paintkit {command}"):
        code = main([command, "--results", str(stats_input), "--output", str(tmp_path / output),
                     "--n-boot", "10"])
    err = capsys.readouterr().err
    assert code == 2 and f"another 'paintkit {command}' is writing into this folder" in err
    assert not (tmp_path / output).exists()

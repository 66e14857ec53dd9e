"""One flag vocabulary for every command, no abbreviations, old spellings with a note, and
numeric flags checked at parse time (issue 37 item 1, issue 38 item 14)."""

from __future__ import annotations

import argparse

import pytest

from paintkit.cli.flags import VOCABULARY
from paintkit.cli.main import COMMANDS, build_parser, main

#: What each command's vocabulary flags name: the role is the flag, never the command.
ROLES = {
    "--benchmarks": "a benchmark tree",
    "--outputs": "a model-outputs tree",
    "--results": "a results folder",
    "--output": "one file",
    "--out": "the new folder the command fills",
}
#: Commands whose --out is the folder they fill (not results, outputs or a file).
FILLS_A_FOLDER = {"generate", "show", "gallery", "bench"}


def subcommand_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {s: a for a in parser._actions for s in a.option_strings}


def test_every_command_is_walked():
    assert set(subcommand_parsers()) == set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_vocabulary_flags_name_one_thing(name):
    parser = subcommand_parsers()[name]
    assert parser.allow_abbrev is False
    for flag, action in options(parser).items():
        if flag not in VOCABULARY:
            continue
        assert action.metavar == VOCABULARY[flag], (name, flag, ROLES[flag], action.metavar)
        if flag == "--out":
            assert name in FILLS_A_FOLDER, f"paintkit {name} --out: use --results or --output"
    # the roles the old spellings had are gone from help
    shown = parser.format_help()
    if name not in FILLS_A_FOLDER:
        assert "--out " not in shown and "--out\n" not in shown
    assert "--input" not in shown


def test_no_abbreviations(tmp_path, capsys):
    # --output is not --outputs, --out is not --output, --bench is nothing
    with pytest.raises(SystemExit):
        main(["report", "--results", str(tmp_path), "--out", "x.html"])
    assert "unrecognized arguments: --out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "--bench", "b", "--outputs", "o"])
    assert "--benchmarks" in capsys.readouterr().err


@pytest.mark.parametrize("argv, new", [
    (["eval", "--benchmarks", "B", "--outputs", "O", "--out", "R"], "results"),
    (["baseline", "oracle", "--benchmarks", "B", "--out", "R"], "outputs_root"),
    (["explain", "--benchmarks", "B", "--outputs", "O", "--out", "R"], "results"),
    (["stats", "--input", "R"], "results"),
    (["report", "--input", "R"], "results"),
    (["run", "--eval", "R"], "eval_out"),
    (["agreement", "--scores", "s", "--judgments", "j", "--out", "R"], "output"),
    (["subset", "--benchmarks", "B", "--n", "1", "--out", "R"], "output"),
])
def test_old_spellings_parse_with_a_note(argv, new, capsys):
    args = build_parser().parse_args(argv)
    assert str(getattr(args, new)) == "R"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "note:" in err and "works until 0.5.0" in err


def test_new_spellings_parse_silently(capsys):
    args = build_parser().parse_args(["eval", "--benchmarks", "B", "--outputs", "O",
                                      "--results", "R"])
    assert args.results == "R" and capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, says", [
    (["generate", "paintbench", "--out", "X", "--per-cell", "10000000000000000000"],
     "--per-cell: expected an integer from 1 to"),
    (["generate", "paintbench", "--out", "X", "--per-cell", "0"], "--per-cell"),
    (["run", "--timeout", "inf"], "--timeout: expected a finite number"),
    (["run", "--timeout", "nan"], "--timeout: expected a finite number"),
    (["run", "--timeout", "0"], "--timeout"),
    (["run", "--rpm", "1e-300"], "--rpm: expected a finite number"),
    (["run", "--concurrency", "0"], "--concurrency: expected an integer from 1"),
    (["run", "--retries", "-1"], "--retries"),
    (["run", "--guidance", "nan"], "--guidance"),
    (["stats", "--results", "R", "--seed", "-3"], "--seed"),
    (["report", "--results", "R", "--thumb", "1e9"], "--thumb"),
    (["agreement", "--scores", "s", "--judgments", "j", "--epsilon-scores", "inf"],
     "--epsilon-scores"),
    (["eval", "--benchmarks", "B", "--outputs", "O", "--jobs", "-1"], "--jobs"),
    (["explain", "--benchmarks", "B", "--outputs", "O", "--results", "R", "--tolerance", "11"],
     "--tolerance"),
    (["serve", "--port", "70000"], "--port: expected an integer from 0 to 65,535"),
    (["serve", "--max-wait-ms", "nan"], "--max-wait-ms"),
    (["serve", "--body-timeout", "inf"], "--body-timeout"),
    (["serve", "--max-batch", "0"], "--max-batch"),
])
def test_numbers_are_checked_when_parsed(argv, says, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_numbers_in_range_parse():
    args = build_parser().parse_args(["run", "--timeout", "2.5", "--rpm", "0.5",
                                      "--concurrency", "3", "--retries", "0"])
    assert (args.timeout, args.rpm, args.concurrency, args.retries) == (2.5, 0.5, 3, 0)

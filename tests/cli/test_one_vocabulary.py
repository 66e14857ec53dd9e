"""One vocabulary across the commands and the Python verbs: the same concept has the same
name everywhere (walked from the parsers and the signatures), old spellings still work with
a note or a DeprecationWarning, and a mistyped flag gets its command's usage and a "did you
mean"."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import warnings

import pytest

import paintkit
from paintkit.cli.main import build_parser, main

#: flag -> (dest, what it is): one concept per flag in every command that has it.
CONCEPTS = {
    "--tasks": ({"tasks"}, "task folders to select, A,B"),
    "--models": ({"models"}, "model folders or models to run, A,B"),
    "--conditions": ({"conditions"}, "visual conditions, A,B"),
    "--suites": ({"suites"}, "suite names, A,B"),
    "--benchmark": ({"benchmarks", "benchmark"}, "benchmark folders to select, A,B"),
    "--subset": ({"subset"}, "a subset.json"),
    "--jobs": ({"jobs"}, "worker processes"),
}
#: Spellings of a concept that must not be a flag of any command (its name is the key's).
NOT_FLAGS = {"--task": "--tasks", "--model-names": "--models", "--suite": "--suites",
             "--benchmark-names": "--benchmark"}


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_same_concept_same_flag_in_every_command():
    for name, parser in subcommands().items():
        for action in parser._actions:
            for flag in action.option_strings:
                assert flag == "-h" or flag.startswith("--"), (name, flag, "no one-letter flags")
                assert flag not in NOT_FLAGS, (name, flag, f"use {NOT_FLAGS.get(flag)}")
                if flag in CONCEPTS:
                    dests, what = CONCEPTS[flag]
                    assert action.dest in dests, (name, flag, what)
                if flag in ("--tasks", "--models", "--conditions", "--suites") or (
                        flag == "--benchmark" and name != "generate"):  # generate: its one folder
                    assert action.metavar == "A,B", (name, flag, "a comma-separated list")
                if flag == "--benchmark" and name != "generate":
                    assert isinstance(action, argparse._ExtendAction), (name, flag, "repeatable")
            if action.dest == "tasks" and action.option_strings:
                assert action.option_strings == ["--tasks"], (name, action.option_strings)
        if "--model" in {s for a in parser._actions for s in a.option_strings}:
            assert name == "run", f"paintkit {name} --model: one model to run is run's only"


def test_old_spellings_still_parse_with_a_note(capsys):
    parser = build_parser()
    args = parser.parse_args(["eval", "--benchmarks", "B", "--outputs", "O", "--task", "a",
                              "--task", "b", "--model", "m", "-j", "2"])
    assert args.tasks == ["a", "b"] and args.models == ["m"] and args.jobs == 2
    err = capsys.readouterr().err
    assert "--task is now --tasks" in err and "--model is now --models" in err
    assert "-j is now --jobs" in err
    args = parser.parse_args(["bench", "--out", "x", "--benchmarks", "paintbench,tinygrafixbench"])
    assert args.suites == ["paintbench", "tinygrafixbench"]
    assert "--benchmarks is now --suites" in capsys.readouterr().err
    args = parser.parse_args(["eval", "--benchmarks", "B", "--outputs", "O", "--tasks", "a,b",
                              "--tasks", "c"])
    assert args.tasks == ["a", "b", "c"] and capsys.readouterr().err == ""
    for command in ("eval", "baseline", "run", "explain"):  # a list, as --tasks; repeatable
        argv = {"eval": ["eval", "--outputs", "O"], "baseline": ["baseline", "oracle", "--outputs", "O"],
                "run": ["run", "--model", "oracle", "--outputs", "O"],
                "explain": ["explain", "--outputs", "O", "--results", "R"]}[command]
        args = parser.parse_args([*argv, "--benchmarks", "B", "--benchmark",
                                  "PaintBench,TinyGrafixBench", "--benchmark", "Mine"])
        assert args.benchmarks == ["PaintBench", "TinyGrafixBench", "Mine"], command


@pytest.mark.parametrize("argv, command, hint", [
    (["eval", "--benchmarks", "B", "--outputs", "O", "--tsks", "x"], "eval", "--tasks"),
    (["stats", "--results", "R", "--n-bot", "5"], "stats", "--n-boot"),
    (["report", "--results", "R", "--outptu", "x.html"], "report", "--output"),
    # a typo beside a missing required flag: the typo is named, not the missing flag
    (["eval", "--benchmarks", "B", "--outptus", "O"], "eval", "--outputs"),
    (["baseline", "oracle", "--outptus", "O", "--benchmarks", "B"], "baseline", "--outputs"),
])
def test_a_mistyped_flag_gets_its_commands_usage_and_a_suggestion(argv, command, hint, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: paintkit {command} ")
    assert f"did you mean {hint}?" in err.splitlines()[-1]


#: Python keyword -> (what it is, how to recognise it in the annotation).
KEYWORDS = {
    "benchmarks_root": ("a benchmark tree", ("PathLike", "Path")),
    "outputs_root": ("a model-outputs tree", ("PathLike", "Path")),
    "results": ("a results folder", ("PathLike", "Path")),
    "benchmarks": ("benchmark names", ("Sequence[str]", "list[str]")),
    "tasks": ("task names", ("Sequence[str]", "list[str]")),
    "models": ("model names", ("Sequence[str]", "list[str]")),
}
VERBS = ("evaluate", "write_report", "write_baseline", "run_model", "aggregate")
#: The keyword of the model folder a verb writes under ``outputs_root`` (``--name``).
FOLDER_VERBS = ("write_baseline", "run_model")


@pytest.mark.parametrize("verb", VERBS)
def test_the_verbs_use_one_name_per_concept(verb):
    params = inspect.signature(getattr(paintkit, verb)).parameters
    assert "out_dir" not in params and "outputs" not in params, verb
    for name, param in params.items():
        if name in KEYWORDS and param.annotation is not inspect.Parameter.empty:
            what, spellings = KEYWORDS[name]
            assert any(s in str(param.annotation) for s in spellings), (verb, name, what)


def test_the_model_folder_and_the_suites_have_one_name_each():
    for verb in FOLDER_VERBS:
        params = inspect.signature(getattr(paintkit, verb)).parameters
        assert params["folder"].kind is inspect.Parameter.KEYWORD_ONLY, verb
    fields = paintkit.BenchConfig.__dataclass_fields__
    assert "suites" in fields and fields["benchmarks"]._field_type is not fields["suites"]._field_type
    assert paintkit.BenchConfig(out="x").suites == ["paintbench"]
    assert "benchmarks" not in dataclasses.asdict(paintkit.BenchConfig(out="x"))


def test_the_old_keywords_of_folder_and_suites_warn(tmp_path):
    bench = tmp_path / "bench"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "removal",
                 "--conditions", "baseline", "--per-cell", "1", "--no-preservation", "--size",
                 "128x128", "--namespace", "vocab", "--engine", "inprocess", "--quiet"]) == 0
    with pytest.warns(DeprecationWarning, match=r"write_baseline\(model=...\) is now"):
        summary = paintkit.write_baseline("oracle", bench, tmp_path / "outs", model="mine")
    assert summary.out_dir == tmp_path / "outs" / "mine"
    assert paintkit.write_baseline("blank", bench, tmp_path / "outs", folder="b").out_dir == \
        tmp_path / "outs" / "b"
    with pytest.warns(DeprecationWarning, match=r"bench\(benchmarks=...\)"):
        config = paintkit.BenchConfig(out="x", benchmarks=["tinygrafixbench"])
    assert config.suites == ["tinygrafixbench"]


def test_the_old_keywords_warn(tmp_path):
    with pytest.warns(DeprecationWarning, match=r"evaluate\(out_dir=...\) is now"):
        with pytest.raises(ValueError):  # the benchmark tree is not there: after the rename
            paintkit.evaluate(tmp_path / "none", tmp_path / "none", out_dir=tmp_path / "r")
    with pytest.warns(DeprecationWarning, match=r"write_report\(benchmarks=...\) is now"):
        with pytest.raises(ValueError):
            paintkit.write_report(tmp_path / "none", tmp_path / "r.html", benchmarks="b")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            paintkit.evaluate(tmp_path, tmp_path, tmp_path / "r", bogus=1)

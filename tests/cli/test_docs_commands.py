"""Every shell command in README.md, docs/ and the examples' docstrings parses in bash, and
each ``paintkit`` invocation's flags are accepted by its parser under their current
spelling (issue 37 item 3)."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from paintkit.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
FENCE = re.compile(r"^```(bash|sh|shell|console)\n(.*?)^```", re.M | re.S)


def shell_blocks() -> list[tuple[str, str]]:
    """``(where, script)`` of every fenced shell block of the docs, and of every shell line
    (``paintkit ...``, ``python ...``, ``pip ...``, ``cd ...``) in an example's docstring."""
    blocks = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text[:m.start()].count("\n") + 1
            script = re.sub(r"^\$ ", "", m.group(2), flags=re.M)
            blocks.append((f"{path.relative_to(ROOT)}:{line}", script))
    for path in EXAMPLES:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        lines = [s.strip() for s in doc.splitlines()]
        script, keep = [], False
        for s in lines:  # a command and its continuation lines
            if keep or re.match(r"([A-Z_]+=\S+ )*(paintkit|python|pip|cd) ", s):
                script.append(s)
                keep = s.endswith("\\")
        if script:
            blocks.append((str(path.relative_to(ROOT)), "\n".join(script) + "\n"))
    return blocks


def paintkit_invocations(script: str) -> list[list[str]]:
    """The argv of every ``paintkit`` command of ``script`` (continuations joined, comments,
    pipes, redirections and ``&&`` lists split off)."""
    joined = re.sub(r"\\\n", " ", script)
    found = []
    for line in joined.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        tokens = list(lexer)
        command: list[str] = []
        for token in [*tokens, ";"]:
            if not command and re.fullmatch(r"[A-Z_]+=\S*", token):  # VAR=value paintkit ...
                continue
            if token and set(token) <= set(";&|<>"):
                if command and command[0] == "paintkit":
                    found.append(command[1:])
                command = [] if token != ">" else ["redirect"]
            elif command == ["redirect"]:
                command = ["done"]
            else:
                command.append(token)
    return found


BLOCKS = shell_blocks()


def test_the_docs_have_shell_commands():
    assert len(BLOCKS) >= 20
    assert sum(len(paintkit_invocations(s)) for _, s in BLOCKS) >= 50


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("where, script", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_shell_block_parses_in_bash(where, script):
    done = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True,
                          timeout=30)
    assert done.returncode == 0, f"{where}: {done.stderr.strip()}\n{script}"


@pytest.mark.parametrize("where, script", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_paintkit_flags_are_accepted(where, script, capsys):
    parser = build_parser()
    for argv in paintkit_invocations(script):
        try:
            parser.parse_args(argv)
        except SystemExit as stop:
            if stop.code == 0:  # --help, --version
                continue
            raise AssertionError(f"{where}: paintkit {shlex.join(argv)}: "
                                 f"{capsys.readouterr().err.strip().splitlines()[-1]}") from None
        err = capsys.readouterr().err
        assert "note:" not in err, f"{where}: paintkit {shlex.join(argv)}: an old spelling: {err}"


def test_the_extractor_catches_what_the_issue_saw():
    bad = "paintkit run --model my_pkg.editor:load() --benchmarks b --outputs o\n"
    assert subprocess.run(["bash", "-n"], input=bad, text=True,
                          capture_output=True).returncode != 0
    assert paintkit_invocations("paintkit eval --benchmarks b \\\n  --outputs o  # x\n") == [
        ["eval", "--benchmarks", "b", "--outputs", "o"]]
    assert paintkit_invocations("paintkit stats --results r > t.tex && paintkit tasks | head") \
        == [["stats", "--results", "r"], ["tasks"]]


def inline_mentions() -> list[tuple[str, str, list[str]]]:
    """``(where, command, flags)`` of every inline ```paintkit COMMAND --flag ...``` span of
    the docs (a mention, not a whole command: only its flags are checked)."""
    found = []
    for path in DOCS:
        text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
        for m in re.finditer(r"(?<!`)`paintkit ([a-z]+)\b([^`]*)`(?!`)", text):
            flags = re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(2))
            found.append((str(path.relative_to(ROOT)), m.group(1), flags))
    return found


def test_inline_mentions_name_flags_the_command_has():
    parsers = {name: p for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction)
               for name, p in a.choices.items()}
    mentions = inline_mentions()
    assert len(mentions) >= 50
    wrong = []
    for where, command, flags in mentions:
        parser = parsers.get(command)
        if parser is None:
            wrong.append(f"{where}: paintkit {command}: no such command")
            continue
        for flag in flags:
            action = parser._option_string_actions.get(flag)
            if action is None or flag in getattr(action, "old_spellings", ()):
                wrong.append(f"{where}: paintkit {command} {flag}")
    assert not wrong, "\n".join(wrong)

"""The layout module owns the file formats: every results-file name is spelled once in code,
and the commands that read and write them do not import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import paintkit

PACKAGE = Path(paintkit.__file__).parent
NAMES = ("problem_stats.jsonl", "aggregate_stats.jsonl", "turn_stats.jsonl",
         "explanations.jsonl", "comparisons.jsonl", ".provenance.json", "run_manifest.json",
         "run_log.jsonl", ".paintkit-eval.lock", ".paintkit-run.lock")
OWNERS = {"layout/results.py", "layout/outputs.py"}


def _code_strings(tree: ast.AST):
    """String constants that are code, not docstrings (nor argparse help text)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docstrings.add(id(node.body[0].value))
        if isinstance(node, ast.keyword) and node.arg in ("help", "description"):
            for sub in ast.walk(node.value):
                docstrings.add(id(sub))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("print",):
            for sub in ast.walk(node):
                docstrings.add(id(sub))
        if isinstance(node, ast.Raise):
            for sub in ast.walk(node):
                docstrings.add(id(sub))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            yield node


def test_each_results_file_name_is_spelled_once():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in _code_strings(ast.parse(path.read_text(encoding="utf-8"))):
            for name in NAMES:
                if name in node.value:
                    found.setdefault(name, []).append(f"{rel}:{node.lineno}")
    elsewhere = {name: [w for w in where if w.split(":")[0] not in OWNERS]
                 for name, where in found.items()}
    assert {n: w for n, w in elsewhere.items() if w} == {}
    assert set(found) == set(NAMES)


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


#: Packages (or files) and the command packages they must not import.
PEERS = {
    "stats": ("paintkit.eval", "paintkit.report", "paintkit.explainer", "paintkit.baselines",
              "paintkit.run"),
    "report": ("paintkit.eval", "paintkit.baselines", "paintkit.run"),
    "baselines": ("paintkit.eval", "paintkit.stats", "paintkit.report", "paintkit.explainer",
                  "paintkit.run"),
    "explainer/directory.py": ("paintkit.eval", "paintkit.stats", "paintkit.report",
                             "paintkit.baselines", "paintkit.run"),
    "layout": ("paintkit.eval", "paintkit.stats", "paintkit.report", "paintkit.explainer",
               "paintkit.baselines", "paintkit.run"),
}


@pytest.mark.parametrize("where", sorted(PEERS))
def test_commands_depend_on_the_layout_not_on_each_other(where):
    root = PACKAGE / where
    files = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
    bad = [f"{f.relative_to(PACKAGE)}: {m}" for f in files for m in sorted(_imports(f))
           if m.startswith(PEERS[where])]
    assert bad == []


def test_the_library_never_calls_the_command_line():
    """The commands parse flags for library functions, never the other way round: no module
    outside ``paintkit/cli`` imports it (``paintkit bench``'s steps call the verbs, not
    ``main([...])``)."""
    bad = [f"{f.relative_to(PACKAGE)}: {m}" for f in sorted(PACKAGE.rglob("*.py"))
           if f.relative_to(PACKAGE).parts[0] not in ("cli", "__main__.py")
           for m in sorted(_imports(f)) if m == "paintkit.cli" or m.startswith("paintkit.cli.")]
    assert bad == []

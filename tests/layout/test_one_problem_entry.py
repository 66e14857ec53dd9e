"""One way to make a problem: every problem source makes the problem of a slot through its one
entry (``ProblemSource.problem``, the attempt search inside), and every suite makes its
problems through its source. Checked on the code's structure (its syntax tree and classes),
so a second entry cannot grow back unnoticed."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import paintkit
from paintkit.sources import SOURCES, ProblemSource, get_source
from paintkit.suites.grid import SourceSuite

PACKAGE = Path(paintkit.__file__).parent
#: What a source's ``attempt`` hook calls (one attempt, may raise RejectedSeed) -> who may.
ATTEMPT_CALLS = {
    "search_attempts": {"sources/base.py", "cli/gallery.py"},  # the gallery draws scenes only
    "chart_pair": {"tinygrafix/source.py"},
    "sample_chain": {"sources/compositional.py"},
    "guide": {"sources/guidance.py"},
    # a task module's generate(seed, condition, mode): one generator seed, no search
    "task_module().generate": {"sources/paintbench.py", "sources/guidance.py",
                               "cli/show.py"},  # show --seed: a generator seed, said so
    "reference_task().generate": {"sources/references.py"},
}
OLD_NAME = re.compile(r"^(make_\w+_problem|generate_(slot|chart_problem|guided|compositional|spec))$")


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        inner = func.value
        if func.attr == "generate" and isinstance(inner, ast.Call) \
                and getattr(inner.func, "id", None) in ("task_module", "reference_task"):
            return f"{inner.func.id}().generate"
        return func.attr
    return None


def test_attempts_are_made_only_inside_the_sources():
    found: dict[str, set[str]] = {name: set() for name in ATTEMPT_CALLS}
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in ATTEMPT_CALLS:
                found[_called(node)].add(rel)
    assert {name: where - ATTEMPT_CALLS[name] for name, where in found.items()} == \
        {name: set() for name in ATTEMPT_CALLS}
    assert all(found.values())  # each is still called where the table says


def test_no_second_problem_making_function():
    defined = [f"{rel}:{node.lineno} {node.name}" for rel, tree in _modules()
               for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
               and OLD_NAME.match(node.name)]
    assert defined == []


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_each_source_has_the_one_entry_and_only_the_hooks_differ():
    for name in SOURCES:
        get_source(name)  # imports the source's module
    sources = [c for c in _subclasses(ProblemSource) if c.__module__.startswith("paintkit.")]
    assert {c.name for c in sources} == set(SOURCES)
    for cls in sources:
        assert cls.problem is ProblemSource.problem, cls
        public = {n for n in vars(cls) if not n.startswith("_") and callable(getattr(cls, n))}
        assert public <= {"tasks", "modes", "conditions", "seed", "attempt", "finish", "check"}, \
            (cls, public)


def test_every_suite_makes_its_problems_through_its_source():
    for module in ("paintkit.suites", "paintkit.tinygrafix.suite", "paintkit.suites.guidance",
                   "paintkit.suites.compositional", "paintkit.suites.references",
                   "paintkit.tinygrafix.style_suite"):
        importlib.import_module(module)
    presets = [c for c in _subclasses(SourceSuite) if c.__module__.startswith("paintkit.")]
    assert {c.__name__ for c in presets} == {"Suite", "TinyGrafixSuite", "GuidanceSuite",
                                             "CompositionalSuite", "ReferenceSuite",
                                             "StyleTransferSuite"}
    for cls in presets:
        assert cls.make_problem is SourceSuite.make_problem, cls
        assert cls.spec is SourceSuite.spec, cls


@pytest.mark.parametrize(("module", "name"), [
    ("paintkit.tasks", "make_problem"), ("paintkit.tasks", "generate"),
    ("paintkit.tinygrafix", "make_chart_problem"), ("paintkit.tinygrafix", "generate_chart_problem"),
    ("paintkit.guidance", "make_guided_problem"), ("paintkit.guidance", "generate_guided"),
    ("paintkit.compositional", "make_compositional_problem"),
    ("paintkit.compositional", "generate_compositional"),
    ("paintkit.suites.build", "generate_spec"),
])
def test_the_old_names_are_gone(module, name):
    assert not hasattr(importlib.import_module(module), name)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("paintkit.slots")

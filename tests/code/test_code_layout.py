"""The code layout docs/code-layout.md describes: a folder of tasks, no import cycle between
suite and build, one naming rule for kernel twins."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import paintkit.kernels
import paintkit.tasks
from paintkit.tasks import TASKS, task_spec

# Kernels not yet renamed to the twin rule: their modules (or every caller) belong to work
# in progress elsewhere (metrics, lab, tolerance counts). Shrink only: a name leaves this
# table when it is renamed, and nothing new may join it.
PENDING_TWIN_NAMES: set[str] = set()  # names waiting for a rename (none today)


def test_the_task_folder_holds_the_tasks_the_contract_and_the_registry_only():
    folder = Path(paintkit.tasks.__file__).parent
    assert {p.stem for p in folder.glob("*.py")} == {*TASKS, "__init__", "base"}
    assert not [p for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert all(task_spec(name).name == name for name in TASKS)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}


def test_building_a_problem_does_not_import_the_suite_module():
    import paintkit.suites.build as build

    assert "paintkit.suites.suite" not in _imported_modules(Path(build.__file__))


def _public_kernels(module) -> dict[str, str]:
    """{name: module} of the public functions (Python or Numba) a kernel module defines."""
    return {name: module.__name__ for name, f in vars(module).items()
            if not name.startswith("_") and callable(f) and not isinstance(f, type)
            and getattr(f, "__module__", None) == module.__name__}


def _twin_violations(names) -> set[str]:
    """Names that break the twin rule, looked for across every kernel module at once (a
    torch ``delta_e`` in one file and ``delta_e_numba`` in another are twins too):
    a plain name beside a ``_numba`` / ``_torch`` twin, or an engine suffix on a kernel
    that has no twin (a single implementation keeps the plain name)."""
    bad = {n for n in names if f"{n}_torch" in names or f"{n}_numba" in names}
    for suffix, other in (("_numba", "_torch"), ("_torch", "_numba")):
        bad |= {n for n in names if n.endswith(suffix) and n[:-len(suffix)] + other not in names}
    return bad


def test_kernel_twins_carry_the_engine_in_both_names():
    names: dict[str, str] = {}
    for info in pkgutil.walk_packages(paintkit.kernels.__path__, "paintkit.kernels."):
        names |= _public_kernels(importlib.import_module(info.name))
    assert {"flood_fill_numba", "flood_fill_torch", "delta_e_numba", "color_mask"} <= set(names)
    bad = _twin_violations(names) - PENDING_TWIN_NAMES
    assert not bad, ("rename to <name>_numba / <name>_torch, or to the plain name when there is "
                     f"one implementation (see kernels/__init__.py): "
                     f"{sorted((names[n], n) for n in bad)}")
    assert PENDING_TWIN_NAMES <= set(names), "a pending name was renamed: drop it from the table"


def test_the_twin_check_sees_every_kind_of_break():
    names = {"warp", "warp_torch", "other", "luma_numba", "blend_numba", "blend_torch",
             "changed_mask_torch"}
    assert _twin_violations(names) == {"warp", "warp_torch", "luma_numba", "changed_mask_torch"}


# The walks of docs/code-layout.md ("Two walks, module by module"), by their bold titles,
# and the calls back up each flow makes through an object handed down (the page's
# "Calls back up"), as (caller, callee) modules.
WALKS = {"A problem, from seed to PNG": "generate_walk", "A chart, from seed to PNG": "chart_walk",
         "An output, from file to report row": "score_walk"}
CLIMBS = {
    "generate_walk": {("paintkit.attempts", "paintkit.sources.paintbench"),  # the source's hooks
                      ("paintkit.edits.geometric", "paintkit.tasks.base")},  # the task's context
    # TinyGrafixBench's source and suite live in their benchmark's folder, so the generic
    # machinery calls them across parts: the attempt search and the source's ``problem``
    # call its hooks, the suite grid its source and fields, the manifest writer ``to_dict``
    "chart_walk": {("paintkit.attempts", "paintkit.tinygrafix.source"),
                   ("paintkit.sources.base", "paintkit.tinygrafix.source"),
                   ("paintkit.suites.grid", "paintkit.tinygrafix.source"),
                   ("paintkit.suites.grid", "paintkit.tinygrafix.suite"),
                   ("paintkit.writers.manifest", "paintkit.tinygrafix.suite")},
    "score_walk": {("paintkit.layout.readers", "paintkit.stats.table")},  # the row handler
}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "code-layout.md"


def _walk_texts() -> dict[str, str]:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Two walks, module by module"):text.index("**Calls back up.**")]
    titles = [t for t in WALKS if f"**{t}**" in section]
    assert titles == list(WALKS), "a walk of docs/code-layout.md lost its title"
    out = {}
    for k, title in enumerate(titles):
        start = section.index(f"**{title}**")
        end = section.index(f"**{titles[k + 1]}**") if k + 1 < len(titles) else len(section)
        out[WALKS[title]] = section[start:end]
    return out


def _named_modules(text: str) -> list[str]:
    """The dotted modules a walk names as files (`paintkit/x/y.py`, `kernels/z.py`), in order."""
    import re

    names = []
    for path in re.findall(r"`((?:paintkit|kernels|renderers)/[\w/]+\.py)`", text):
        parts = path.removesuffix(".py").split("/")
        if parts[0] != "paintkit":
            parts.insert(0, "paintkit")
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


@pytest.fixture(scope="module")
def walks(tmp_path_factory):
    from tests.code import flow_walk

    root = tmp_path_factory.mktemp("walks")
    return {name: getattr(flow_walk, name)(root) for name in WALKS.values()}


def test_the_documented_walks_are_the_walks_the_code_takes(walks):
    for name, text in _walk_texts().items():
        named = _named_modules(text)
        assert len(named) > 5, name
        twice = sorted({m for m in named if named.count(m) > 1})
        assert not twice, f"{name}: each module once in docs/code-layout.md, not {twice}"
        missing = [m for m in named if m not in walks[name].first_caller]
        assert not missing, f"{name}: docs/code-layout.md names modules the flow never enters: {missing}"


def test_the_walks_climb_only_through_objects_handed_down(walks):
    from tests.code.flow_walk import climbs

    for name, walk in walks.items():
        assert set(climbs(walk)) == CLIMBS[name], name

"""The code layout docs/code-layout.md describes: a folder of tasks, no import cycle between
suite and build, one naming rule for kernel twins."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

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
    for info in pkgutil.iter_modules(paintkit.kernels.__path__, "paintkit.kernels."):
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

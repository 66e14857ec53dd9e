"""Names a newcomer guesses: ``import paintkit.a.b`` gives the module ``b``, never a function of
its package named alike, and every name a public ``__all__`` lists is owned by a public
module (no leading underscore on any part of its dotted name), or is re-exported on purpose.

The walk imports every module of ``paintkit`` (the live objects: a lazy ``__getattr__`` of a
package is asked too), so a new clash or a public class in a private module fails here.
"""

from __future__ import annotations

import importlib
import pkgutil
import types
import warnings

import pytest

import paintkit

#: (module, name) -> why an object owned by a module outside paintkit's public ones is listed.
DELIBERATE_REEXPORTS: dict[tuple[str, str], str] = {}


def _private(module: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


@pytest.fixture(scope="module")
def modules() -> dict[str, types.ModuleType]:
    """Every module of paintkit (``__main__`` aside: it runs the command line), imported."""
    names = ["paintkit"] + [info.name for info in
                            pkgutil.walk_packages(paintkit.__path__, prefix="paintkit.")
                            if not info.name.endswith(".__main__")]
    return {name: importlib.import_module(name) for name in names}


def _package_attribute(package: types.ModuleType, name: str) -> object | None:
    """What ``package`` itself gives for ``name``: its namespace, else its ``__getattr__``
    (lazy and deprecated names); None where it has none."""
    if name in vars(package):
        return vars(package)[name]
    lazy = vars(package).get("__getattr__")
    if lazy is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return lazy(name)
        except AttributeError:
            return None


def shadowed_submodules(modules: dict[str, types.ModuleType]) -> list[str]:
    """``package.name`` for each submodule that a same-named attribute of its package hides
    (or that the package's ``__all__`` lists as one of its names)."""
    found = []
    for name, package in modules.items():
        if not hasattr(package, "__path__"):
            continue
        for info in pkgutil.iter_modules(package.__path__):
            qualified = f"{name}.{info.name}"
            value = _package_attribute(package, info.name)
            is_module = isinstance(value, types.ModuleType) and value.__name__ == qualified
            if (value is not None and not is_module) or (
                    info.name in getattr(package, "__all__", ()) and not is_module):
                found.append(qualified)
    return sorted(found)


def privately_owned_exports(modules: dict[str, types.ModuleType],
                            roots: tuple[str, ...] = ("paintkit", "kernels")) -> list[str]:
    """``module.name (owner)`` for each name of a public module's ``__all__`` whose object
    is defined in a private module or outside ``roots`` (paintkit's packages), unless
    listed as deliberate."""
    found = []
    for name, module in modules.items():
        if _private(name):
            continue
        for attribute in getattr(module, "__all__", ()):
            value = getattr(module, attribute)
            owner = value.__name__ if isinstance(value, types.ModuleType) else \
                getattr(value, "__module__", None) if callable(value) else None
            if owner is None or (name, attribute) in DELIBERATE_REEXPORTS:
                continue  # a constant (its owner is where it is listed) or a known re-export
            if _private(owner) or owner.split(".")[0] not in roots:
                found.append(f"{name}.{attribute} ({owner})")
    return sorted(found)


@pytest.mark.slow  # imports all of paintkit (torch, Numba, Skia): about 20 s on 2 cores
def test_no_submodule_is_shadowed_by_an_attribute_of_its_package(modules):
    assert shadowed_submodules(modules) == []


@pytest.mark.slow  # shares the import of all of paintkit with the test above
def test_every_public_export_is_owned_by_a_public_module(modules):
    assert privately_owned_exports(modules) == []


def test_the_checks_catch_a_shadowed_module_and_a_private_owner(tmp_path, monkeypatch):
    for package, init in (("clashing", "def score():\n    return 1\n"),
                          ("lazy_clash", "def __getattr__(name):\n    if name == 'score':\n"
                                         "        return 1\n    raise AttributeError(name)\n"),
                          ("clean", "from clean.score import value\n__all__ = ['value']\n")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(init)
        (tmp_path / package / "score.py").write_text("def value():\n    return 2\n")
    (tmp_path / "clean" / "_impl.py").write_text("class Owned:\n    pass\n")
    (tmp_path / "clean" / "api.py").write_text("from clean._impl import Owned\n"
                                               "__all__ = ['Owned']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = {name: importlib.import_module(name)
             for name in ("clashing", "lazy_clash", "clean", "clean.api", "clean._impl")}
    assert shadowed_submodules(found) == ["clashing.score", "lazy_clash.score"]
    assert privately_owned_exports(found, roots=("clean",)) == ["clean.api.Owned (clean._impl)"]

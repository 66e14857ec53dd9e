"""The typed public surface: every public function and method of ``import paintkit``,
``paintkit.metrics``, ``paintkit.rewards`` and ``paintkit.run`` annotates each parameter and
its return (what a type checker and an editor read; ``.ci/run`` runs mypy on the modules).

The walk is over the live objects (``inspect``), so a new public name, a re-export or a
method a class inherits from a paintkit base is checked where it is, whatever file it is in.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import paintkit

ROOT = Path(__file__).resolve().parents[2]

#: Packages whose ``__all__`` is public surface (besides ``paintkit`` itself).
PACKAGES = ("paintkit.metrics", "paintkit.rewards", "paintkit.run")
#: Packages whose every module's public names are public surface too.
WALKED = ("paintkit.run",)
#: Methods with a leading underscore that are still part of a class's public surface.
PUBLIC_DUNDERS = ("__init__", "__call__")


def _modules_under(package: str) -> Iterator[str]:
    yield package
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        yield info.name


def _public_objects() -> dict[str, object]:
    """Qualified name -> object of every public callable of the surface."""
    found: dict[str, object] = {}
    for name in paintkit.__all__:
        found[f"paintkit.{name}"] = getattr(paintkit, name)
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            found[f"{package}.{name}"] = getattr(module, name)
    for package in WALKED:
        for module_name in _modules_under(package):
            module = importlib.import_module(module_name)
            for name, value in vars(module).items():
                if not name.startswith("_") and getattr(value, "__module__", None) == module_name:
                    found[f"{module_name}.{name}"] = value
    return {key: value for key, value in found.items()
            if inspect.isfunction(value) or inspect.isclass(value)}


def _is_paintkit(obj: object) -> bool:
    return (getattr(obj, "__module__", None) or "").split(".")[0] == "paintkit"


def _functions_of(cls: type) -> Iterator[tuple[str, Callable[..., object], bool]]:
    """(name, function, bound) of the public methods and properties ``cls`` defines or
    inherits from a paintkit class; ``bound``: the first parameter is ``self`` / ``cls``."""
    seen: set[str] = set()
    for owner in cls.__mro__:
        if not _is_paintkit(owner):
            continue
        for name, attribute in vars(owner).items():
            if name in seen or (name.startswith("_") and name not in PUBLIC_DUNDERS):
                continue
            seen.add(name)
            if isinstance(attribute, staticmethod):
                yield name, attribute.__func__, False
            elif isinstance(attribute, classmethod):
                yield name, attribute.__func__, True
            elif isinstance(attribute, property):
                for part in (attribute.fget, attribute.fset):
                    if part is not None:
                        yield name, part, True
            elif inspect.isfunction(attribute):
                yield name, attribute, True


def _missing(function: Callable[..., object], bound: bool) -> list[str]:
    """What ``function`` leaves unannotated: parameter names, and ``return``."""
    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())[1 if bound else 0:]
    missing = [p.name for p in parameters if p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def _unannotated() -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    for qualified, obj in sorted(_public_objects().items()):
        if inspect.isfunction(obj):
            gaps = _missing(obj, bound=False)
            if gaps:
                problems[qualified] = gaps
            continue
        if not _is_paintkit(obj):
            continue
        for name, function, bound in _functions_of(obj):
            if not _is_paintkit(function) or inspect.getsourcefile(function) is None:
                continue  # typing's (a Protocol's __init__), or made at run time (dataclass)
            gaps = _missing(function, bound)
            if gaps:
                problems[f"{qualified}.{name}"] = gaps
    return problems


def test_the_surface_is_found():
    found = _public_objects()
    # the verbs whose bodies live in other modules, the run package's own names, classes
    for name in ("paintkit.evaluate", "paintkit.aggregate", "paintkit.write_report",
                 "paintkit.bench", "paintkit.load", "paintkit.generate", "paintkit.Suite",
                 "paintkit.metrics.score", "paintkit.rewards.stream_pixel_miou",
                 "paintkit.run.run_model", "paintkit.run.registry.build_model",
                 "paintkit.run.api.limits.RetryPolicy"):
        assert name in found, name
    methods = {name for name, _, _ in _functions_of(paintkit.Suite)}
    assert {"__init__", "make_problem", "problems"} <= methods


def test_every_public_callable_is_annotated():
    problems = _unannotated()
    assert not problems, "unannotated parameters / returns:\n" + "\n".join(
        f"  {name}: {', '.join(gaps)}" for name, gaps in problems.items())


def test_the_check_sees_a_missing_annotation():
    def untyped(a, b: int):  # the case the check must catch
        return a

    class Untyped:
        def method(self, x: int):
            return x

    assert _missing(untyped, bound=False) == ["a", "return"]
    assert _missing(Untyped.method, bound=True) == ["return"]


def test_the_walk_reports_an_unannotated_function_and_method(monkeypatch):
    import paintkit.run.api.limits as limits
    import paintkit.run.records as records

    def delay(self, retry, retry_after=None):  # a method a class of the surface defines
        return 0.0

    def read_log(model_dir):  # a public function of a paintkit.run module
        return []

    delay.__module__, read_log.__module__ = limits.__name__, records.__name__
    monkeypatch.setattr(limits.RetryPolicy, "delay", delay)
    monkeypatch.setattr(records, "read_log", read_log)
    problems = _unannotated()
    assert problems["paintkit.run.api.limits.RetryPolicy.delay"] == [
        "retry", "retry_after", "return"]
    assert problems["paintkit.run.records.read_log"] == ["model_dir", "return"]


def _covers(patterns: list[str], module: str) -> bool:
    return any(module == p or (p.endswith(".*") and module.startswith(p[:-1])) for p in patterns)


def test_the_type_checker_checks_every_module_of_the_surface():
    """mypy (``.ci/run``: pyproject's ``[tool.mypy]``) checks, with ``disallow_untyped_defs``,
    every module that defines a public name or a paintkit base class of one."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    files = [(ROOT / f).resolve() for f in config["files"]]
    strict = [m for o in config["overrides"] if o.get("disallow_untyped_defs") for m in o["module"]]
    unchecked = set()
    for obj in _public_objects().values():
        owners = [obj] if inspect.isfunction(obj) else [c for c in obj.__mro__ if _is_paintkit(c)]
        for owner in owners:
            path = Path(inspect.getsourcefile(inspect.unwrap(owner))).resolve()  # @contextmanager
            if not any(path == f or f in path.parents for f in files) \
                    or not _covers(strict, owner.__module__):
                unchecked.add(owner.__module__)
    assert not unchecked, f"add to [tool.mypy] files and the strict override: {sorted(unchecked)}"

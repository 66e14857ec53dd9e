"""One definition per idea, and docstrings that cite only what exists."""

from __future__ import annotations

import ast
import importlib
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for folder in ("paintkit", "kernels", "renderers")
                 for p in (ROOT / folder).rglob("*.py"))


def _definitions() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize(("name", "home"), [
    ("delta_e_torch", "kernels/delta_e.py"),
    ("check_tolerance", "paintkit/metrics/tolerance.py"),
    ("check_delta_e", "kernels/delta_e.py"),
    ("Targets", "paintkit/metrics/targets.py"),
    ("prepare_targets", "paintkit/metrics/targets.py"),
    ("balanced_subset", "paintkit/subsets.py"),
])
def test_defined_once(name, home):
    assert _definitions()[name] == [home]


def test_encode_png_has_one_implementation():
    # paintkit.io.images keeps a deprecated encode_png that forwards to png_encode
    homes = _definitions()["encode_png"]
    assert sorted(homes) == ["paintkit/io/images.py", "paintkit/io/png_encode.py"]
    source = (ROOT / "paintkit/io/images.py").read_text(encoding="utf-8")
    assert "_imagecodecs.png_encode" not in source and "Image.fromarray" not in source
    body = source[source.index("def encode_png"):source.index("def write_png")]
    assert "warn_deprecated" in body and "png_encode.encode_png(" in body


ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc):`~?(paintkit(?:\.\w+)+)`")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def test_docstring_cross_references_resolve():
    """Every ``:func:`paintkit...``` (and :class:, :mod:, ...) names something real."""
    pytest.importorskip("torch")
    missing = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for path in SOURCES:
            text = path.read_text(encoding="utf-8")
            for match in ROLE.finditer(text):
                if not _resolves(match.group(1)):
                    line = text[:match.start()].count("\n") + 1
                    missing.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
    assert not missing, "\n".join(missing)

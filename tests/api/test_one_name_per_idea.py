"""One definition per idea, and docstrings that cite only what exists."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import numpy as np
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
    ("delta_e_torch", "kernels/color/delta_e.py"),
    ("check_tolerance", "paintkit/metrics/tolerance.py"),
    ("check_delta_e", "kernels/color/delta_e.py"),
    ("Targets", "paintkit/metrics/targets.py"),
    ("prepare_targets", "paintkit/metrics/targets.py"),
    ("balanced_subset", "paintkit/subsets.py"),
    ("explain", "paintkit/explainer/problem.py"),
])
def test_defined_once(name, home):
    assert _definitions()[name] == [home]


def test_write_png_writes_the_bytes_of_the_one_encoder(tmp_path):
    """``write_png`` encodes through ``png_encode.encode_png`` (imagecodecs, level 1): the
    same bytes, and nothing else in the package defines an encoder of its own."""
    imagecodecs = pytest.importorskip("imagecodecs")
    from paintkit.io import images, png_encode

    image = np.random.default_rng(0).integers(0, 256, (33, 17, 3), dtype=np.uint8)
    expected = bytes(imagecodecs.png_encode(image, level=1))
    assert png_encode.encode_png(image, "imagecodecs") == expected
    images.write_png(tmp_path / "a.png", image)
    assert (tmp_path / "a.png").read_bytes() == expected
    assert _definitions()["encode_png"] == ["paintkit/io/png_encode.py"]


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
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in ROLE.finditer(text):
            if not _resolves(match.group(1)):
                line = text[:match.start()].count("\n") + 1
                missing.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
    assert not missing, "\n".join(missing)

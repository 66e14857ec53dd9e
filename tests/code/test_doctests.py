"""The examples in the public API's docstrings run, and print what they say.

Every module of the installed ``paintkit`` package (``kernels/`` and ``renderers/``
included) whose source holds a ``>>>`` example is collected, so a new example is checked
without being listed here. An example that is too slow or needs a GPU carries
``# doctest: +SKIP``.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import paintkit


def _modules_with_examples() -> list[str]:
    # kernels/ and renderers/ install into the namespace from folders of their own, so each
    # package is walked on its own path.
    found = []
    packages = [paintkit, importlib.import_module("paintkit.kernels"),
                importlib.import_module("paintkit.renderers")]
    names = {p.__name__ for p in packages}
    names |= {info.name for package in packages
              for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")}
    for name in sorted(names):
        spec = importlib.util.find_spec(name)
        origin = getattr(spec, "origin", None)
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text(encoding="utf-8"):
            found.append(name)
    return found


MODULES = _modules_with_examples()


def test_the_public_api_has_examples():
    for name in ("paintkit.tasks", "paintkit.suites", "paintkit.metrics.batch_scoring",
                 "paintkit.kernels.color_mask", "paintkit.kernels.flood_fill"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs={"np": np}, report=False,
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"

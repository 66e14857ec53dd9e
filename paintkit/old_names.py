"""Old public names kept as deprecated aliases of their new ones, for one release.

A module keeps its renamed names with ``__getattr__ = deprecated_aliases(__name__, {old:
new})``: reading an old name warns once per call site (``DeprecationWarning`` naming the
new one) and returns the new object itself, so ``isinstance`` and identity hold.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

#: The release that drops the aliases.
REMOVED_IN = "0.5.0"


def deprecated_aliases(module: str, aliases: Mapping[str, str],
                       fallback: Callable[[str], Any] | None = None) -> Callable[[str], Any]:
    """A module ``__getattr__`` that resolves each old name of ``aliases`` (old -> new, the
    new one an attribute of ``module``) to its new object with a ``DeprecationWarning``;
    other names go to ``fallback`` (a module's own lazy ``__getattr__``), else raise
    ``AttributeError``."""
    renames = dict(aliases)

    def __getattr__(name: str) -> Any:
        if name in renames:
            new = renames[name]
            warnings.warn(f"{module}.{name} is deprecated; use {module}.{new} (the same object); "
                          f"removed in {REMOVED_IN}", DeprecationWarning, stacklevel=2)
            return getattr(sys.modules[module], new)
        if fallback is not None:
            return fallback(name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    __getattr__.deprecated = renames  # type: ignore[attr-defined]  # read by the name checks
    return __getattr__

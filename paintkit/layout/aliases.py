"""Old import paths kept for one version: a module ``__getattr__`` that warns and forwards.

Example (in the old module)::

    __getattr__ = moved_names(__name__, {"discover_problems": "paintkit.layout.benchmark"})

``from old.module import discover_problems`` then works and emits a ``DeprecationWarning``
naming the new path.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable


def moved_names(old_module: str, new_homes: dict[str, str],
                renamed: dict[str, str] | None = None) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``old_module`` serving each name of ``new_homes`` (name ->
    new module) from its new module, with a ``DeprecationWarning``. ``renamed``: old name ->
    new name where the name changed too."""
    renamed = renamed or {}

    def __getattr__(name: str):
        if name not in new_homes:
            raise AttributeError(f"module {old_module!r} has no attribute {name!r}")
        new_name = renamed.get(name, name)
        warnings.warn(f"{old_module}.{name} moved to {new_homes[name]}.{new_name}; the old "
                      "path goes in the next version", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new_homes[name]), new_name)

    return __getattr__

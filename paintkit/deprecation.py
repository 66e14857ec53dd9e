"""Old names kept for one version: each use warns with a :class:`DeprecationWarning` saying
what to use instead, then behaves exactly as the new name.

- :func:`warn_deprecated`: the warning itself (pointing at the caller's line);
- :func:`renamed_keyword`: a decorator accepting an old keyword argument name;
- :func:`module_aliases`: a module ``__getattr__`` serving old attribute names.

Deprecated names are listed in ``CHANGELOG.md`` with the version that removes them.
"""

from __future__ import annotations

import functools
import importlib
import warnings

__all__ = ["module_aliases", "moved_names", "renamed_keyword", "warn_deprecated"]


def warn_deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new`` (removed in the next version)."""
    warnings.warn(f"{old} is deprecated and will be removed in the next version; use {new}",
                  DeprecationWarning, stacklevel=stacklevel)


def renamed_keyword(old: str, new: str):
    """Decorator: calls passing the keyword ``old`` warn and pass it on as ``new``.

    Passing both is a ``TypeError`` (the call is ambiguous).
    """

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{function.__name__}(): got both {new}= and its deprecated "
                                    f"name {old}=")
                warn_deprecated(f"{function.__name__}({old}=...)", f"{new}=...")
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return wrapper

    return decorate


def module_aliases(module_name: str, aliases: dict[str, tuple[str, str]]):
    """A module ``__getattr__`` serving deprecated names.

    ``aliases`` maps an old attribute name to ``(module, attribute)`` of its replacement,
    imported on first use (so an alias costs nothing until it is used).
    """

    def __getattr__(name: str):
        if name in aliases:
            target_module, target = aliases[name]
            warn_deprecated(f"{module_name}.{name}", f"{target_module}.{target}")
            return getattr(importlib.import_module(target_module), target)
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")

    return __getattr__


def moved_names(module_name: str, new_homes: dict[str, str],
                renamed: dict[str, str] | None = None):
    """:func:`module_aliases` for names that moved to another module: ``new_homes`` maps
    each old name to its new module, ``renamed`` old name -> new name where it changed too.

    Example (in the old module)::

        __getattr__ = moved_names(__name__, {"discover_problems": "paintkit.layout.benchmark"})
    """
    renamed = renamed or {}
    return module_aliases(module_name, {name: (home, renamed.get(name, name))
                                        for name, home in new_homes.items()})

"""Checking the integer arguments of the public API.

``bool`` is a subclass of ``int`` in Python, so ``samples_per_problem=True`` would pass an
``isinstance(x, int)`` check and silently mean 1. Every integer argument of the public API
goes through :func:`check_int`, which refuses ``bool`` (and NumPy's ``bool_``), floats and
strings, and checks the range.
"""

from __future__ import annotations

import numbers
from typing import Literal, overload

import numpy as np


@overload
def check_int(value: object, name: str, minimum: int | None = None, maximum: int | None = None,
              *, allow_none: Literal[False] = False) -> int: ...
@overload
def check_int(value: object, name: str, minimum: int | None = None, maximum: int | None = None,
              *, allow_none: bool) -> int | None: ...


def check_int(value, name: str, minimum: int | None = None, maximum: int | None = None, *,
              allow_none: bool = False) -> int | None:
    """``value`` as an ``int`` if it is an integer (Python or NumPy, never ``bool``) within
    ``[minimum, maximum]``; None passes when ``allow_none``.

    Raises:
        ValueError: naming ``name``, the expected range and what was given.

    Example:
        >>> check_int(3, "samples_per_problem", 1)
        3
        >>> check_int(True, "samples_per_problem", 1)
        Traceback (most recent call last):
        ...
        ValueError: samples_per_problem: expected an integer >= 1, got True (bool)
    """
    if value is None and allow_none:
        return None
    ok = not isinstance(value, bool | np.bool_) and isinstance(value, numbers.Integral) and \
        (minimum is None or value >= minimum) and (maximum is None or value <= maximum)
    if not ok:
        if minimum is not None and maximum is not None:
            wanted = f"an integer from {minimum} to {maximum}"
        elif minimum is not None:
            wanted = f"an integer >= {minimum}"
        elif maximum is not None:
            wanted = f"an integer <= {maximum}"
        else:
            wanted = "an integer"
        if allow_none:
            wanted = f"None or {wanted}"
        raise ValueError(f"{name}: expected {wanted}, got {value!r} ({type(value).__name__})")
    return int(value)


def renamed_keywords(verb: str, given: dict, renames: dict[str, str]) -> dict:
    """The keyword arguments ``given`` under their current names: each old name of
    ``renames`` (old -> new) is moved to its new one with a ``DeprecationWarning``; any other
    unknown keyword is a ``TypeError``, as Python's own."""
    import warnings

    out = {}
    for old, value in given.items():
        if old not in renames:
            raise TypeError(f"{verb}() got an unexpected keyword argument {old!r}")
        warnings.warn(f"{verb}({old}=...) is now {verb}({renames[old]}=...); the old keyword "
                      "works until 0.5.0", DeprecationWarning, stacklevel=3)
        out[renames[old]] = value
    return out

"""Reading JSON from files users hand us: every failure is a ``ValueError`` with one line.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) on deeply nested input such
as ``'[' * 100000 + ']' * 100000``, so a reader that catches ``ValueError`` to report or
repair a damaged line would crash instead. :func:`parse_json` turns that into
:class:`JSONInputError` (a ``ValueError``) and, with ``finite=True``, also refuses the
non-standard tokens ``NaN``, ``Infinity`` and ``-Infinity`` that Python's ``json`` accepts
but JSON does not. :func:`dumps_finite` writes them back as ``null``, so what paintkit writes
is always standard JSON.
"""

from __future__ import annotations

import json
import math
from typing import Any

from paintkit.errors import PaintkitError


class JSONInputError(PaintkitError, ValueError):
    """Text that is not acceptable JSON (also nested too deeply, or non-finite numbers)."""


def _refuse_constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number")


def parse_json(text: str | bytes, *, finite: bool = False) -> Any:
    """``json.loads(text)``, raising only ``ValueError`` (:class:`JSONInputError` or
    ``json.JSONDecodeError``; ``UnicodeDecodeError`` for bytes that are not UTF-8).

    Args:
        text: one JSON document (str, or UTF-8 bytes).
        finite: refuse ``NaN``, ``Infinity`` and ``-Infinity``.

    Example:
        >>> parse_json('[' * 100000 + ']' * 100000)
        Traceback (most recent call last):
        ...
        paintkit.io.jsonl.JSONInputError: nested too deeply to read
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant if finite else None)
    except RecursionError:
        raise JSONInputError("nested too deeply to read") from None


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def dumps_finite(value: Any) -> str:
    """``json.dumps(value)`` with every NaN or infinite float written as ``null``.

    Example:
        >>> dumps_finite({"mean": float("nan"), "n": [1.0, float("inf")]})
        '{"mean": null, "n": [1.0, null]}'
    """
    try:
        return json.dumps(value, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(value), allow_nan=False)

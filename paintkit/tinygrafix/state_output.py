"""Chart-state outputs: a model's edited state, checked, drawn and compared field by field.

A code-editing model answers a TinyGrafixBench problem with a chart state (the JSON of the
problem's ``input_state``, edited). :func:`render_output_state` draws it with the renderer
that drew the problem's own images, so the answer state renders to the answer's pixels and
the input state to the input's. Before anything is drawn, :func:`check_output_state` holds
the state to the shape of the problem's two states (a hostile state must not make matplotlib
draw a million bars or a megabyte label):

- every key is one the input or the answer state has, with a value of the same JSON type
  (a number where they have a number, ...); ``chart`` is theirs;
- lists at most :data:`LIST_SLACK` times (plus 8) as long as theirs, strings at most
  :data:`MAX_TEXT` characters, numbers finite and within :data:`MAX_NUMBER`.

:func:`state_difference` is the data-level report beside the pixel score: the leaves of the
output state that differ from the answer state, counted by kind (data values, colours,
labels, order), and whether the two are equal.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from paintkit.io.jsonl import parse_json

__all__ = ["LIST_SLACK", "MAX_NUMBER", "MAX_TEXT", "StateError", "check_output_state",
           "render_output_state", "state_difference"]

LIST_SLACK = 4
MAX_TEXT = 500
MAX_NUMBER = 1e9
MAX_STATE_BYTES = 4 * 1024 * 1024


class StateError(ValueError):
    """A chart state outside the problem's shape; the message is one line."""


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    if value is None:
        return "null"
    return type(value).__name__


def _check(value: Any, refs: list[Any], where: str) -> None:
    kinds = {_kind(r) for r in refs}
    kind = _kind(value)
    if kind not in kinds:
        raise StateError(f"{where}: a {kind} where the problem's states have "
                         f"{' or '.join(sorted(kinds))}")
    if kind == "number" and not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
        raise StateError(f"{where}: {value!r} is not a finite number within ±{MAX_NUMBER:g}")
    if kind == "string" and len(value) > MAX_TEXT:
        raise StateError(f"{where}: a string of {len(value):,} characters (at most {MAX_TEXT})")
    if kind == "list":
        lists = [r for r in refs if isinstance(r, list)]
        longest = max(len(r) for r in lists)
        if len(value) > LIST_SLACK * longest + 8:
            raise StateError(f"{where}: {len(value):,} items where the problem's states have "
                             f"at most {longest}")
        items = [item for r in lists for item in r]
        if value and not items:
            raise StateError(f"{where}: items where the problem's states have none")
        for i, item in enumerate(value):
            _check(item, items, f"{where}[{i}]")
    if kind == "object":
        objects = [r for r in refs if isinstance(r, dict)]
        for key, item in value.items():
            known = [r[key] for r in objects if key in r]
            if not known:
                raise StateError(f"{where}: the key {key[:40]!r} is not in the problem's states")
            _check(item, known, f"{where}.{key}")


#: Bounds of a state checked without its problem's states (:func:`check_output_state` with
#: none): nesting, items in all, and items per list.
MAX_STATE_DEPTH = 8
MAX_STATE_ITEMS = 20_000
MAX_LIST = 1_000
CHARTS = ("bar_chart", "scatter_plot", "line_chart", "heatmap", "network")


def _check_bounded(value: Any, where: str, depth: int, budget: list[int]) -> None:
    budget[0] += 1
    if budget[0] > MAX_STATE_ITEMS:
        raise StateError(f"the chart state holds more than {MAX_STATE_ITEMS:,} values")
    if depth > MAX_STATE_DEPTH:
        raise StateError(f"{where}: nested deeper than {MAX_STATE_DEPTH}")
    kind = _kind(value)
    if kind == "number" and not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
        raise StateError(f"{where}: {value!r} is not a finite number within ±{MAX_NUMBER:g}")
    if kind == "string" and len(value) > MAX_TEXT:
        raise StateError(f"{where}: a string of {len(value):,} characters (at most {MAX_TEXT})")
    if kind == "list":
        if len(value) > MAX_LIST:
            raise StateError(f"{where}: {len(value):,} items (at most {MAX_LIST:,})")
        for i, item in enumerate(value):
            _check_bounded(item, f"{where}[{i}]", depth + 1, budget)
    elif kind == "object":
        for key, item in value.items():
            _check_bounded(item, f"{where}.{str(key)[:40]}", depth + 1, budget)
    elif kind not in ("number", "string", "boolean", "null"):
        raise StateError(f"{where}: a {kind} is not JSON")


def check_output_state(state: Any, input_state: dict | None = None,
                       answer_state: dict | None = None) -> dict:
    """Check a parsed output state against the problem's two states; returns it. Without
    them (a reward call that has only the answer's pixels), the state is held to fixed
    bounds instead (a known chart, :data:`MAX_STATE_DEPTH`, :data:`MAX_STATE_ITEMS`,
    :data:`MAX_LIST`, strings and numbers as above) and the renderer refuses what it
    cannot draw.

    Raises:
        StateError: one line naming the first field outside the problem's shape.
    """
    if not isinstance(state, dict):
        raise StateError(f"a chart state is a JSON object, got a {_kind(state)}")
    if input_state is None or answer_state is None:
        if state.get("chart") not in CHARTS:
            raise StateError(f"chart={str(state.get('chart'))[:40]!r}; expected one of "
                             f"{', '.join(CHARTS)}")
        _check_bounded(state, "state", 0, [0])
        return state
    if state.get("chart") != input_state.get("chart"):
        raise StateError(f"chart={state.get('chart')!r}; this problem's chart is "
                         f"{input_state.get('chart')!r}")
    _check(state, [input_state, answer_state], "state")
    return state


def render_output_state(data: bytes | str | dict, input_state: dict | None,
                        answer_state: dict | None) -> tuple[np.ndarray, dict]:
    """A chart-state output (JSON text or a parsed dict) -> ``(pixels, the checked state)``.

    Raises:
        StateError: the JSON is damaged, too large, or outside the problem's shape, or the
            renderer refuses the state; one line.
    """
    from paintkit.tinygrafix.render import render_chart  # matplotlib: drawn on first use

    if isinstance(data, (bytes, str)):
        if len(data) > MAX_STATE_BYTES:
            raise StateError(f"the chart state is {len(data):,} bytes (at most "
                             f"{MAX_STATE_BYTES:,})")
        try:
            data = parse_json(data, finite=True)
        except ValueError as err:
            raise StateError(f"not a JSON chart state: {str(err).splitlines()[0][:200]}") from None
    state = check_output_state(data, input_state, answer_state)
    try:
        return render_chart(state), state
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
        message = str(err).splitlines()[0][:200] if str(err) else ""
        raise StateError(f"the chart renderer refused the state: {type(err).__name__}: "
                         f"{message}") from None


def _leaves(value: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            _leaves(value[key], f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _leaves(item, f"{path}[{i}]", out)
        out[f"{path}#len"] = len(value)
    else:
        out[path] = value


def _field_kind(path: str, value: Any) -> str:
    name = path.rsplit(".", 1)[-1].split("[", 1)[0].lower()
    if "color" in name or "colour" in name or name in ("background", "text", "cmap"):
        return "colors"
    if isinstance(value, str) or "label" in name or "title" in name or "name" in name:
        return "labels"
    return "values"


def _order_only(a: Any, b: Any) -> bool:
    """Two lists with the same items in another order."""
    if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b) or a == b:
        return False
    key = repr
    return sorted(map(key, a)) == sorted(map(key, b))


def _order_differences(a: Any, b: Any, path: str, out: list[str]) -> None:
    if _order_only(a, b):
        out.append(path)
    elif isinstance(a, dict) and isinstance(b, dict):
        for key in a.keys() & b.keys():
            _order_differences(a[key], b[key], f"{path}.{key}" if path else key, out)


def state_difference(state: dict, answer_state: dict) -> dict:
    """How an output state differs from the answer state, field by field.

    Returns:
        ``{"exact": bool, "fields_differ": n, "values": n, "colors": n, "labels": n,
        "order": n, "fields": [up to 20 paths]}``: ``order`` counts lists that hold the
        answer's items in another order (their items are not counted again); the other
        counts are the leaves (numbers, strings, list lengths) that differ or are missing
        on either side.
    """
    reordered: list[str] = []
    _order_differences(state, answer_state, "", reordered)
    mine: dict[str, Any] = {}
    theirs: dict[str, Any] = {}
    _leaves(state, "", mine)
    _leaves(answer_state, "", theirs)
    counts = {"values": 0, "colors": 0, "labels": 0}
    fields = []
    for path in sorted(mine.keys() | theirs.keys()):
        if any(path.startswith(p + "[") for p in reordered):
            continue
        a, b = mine.get(path, None), theirs.get(path, None)
        if path in mine and path in theirs and a == b and _kind(a) == _kind(b):
            continue
        counts[_field_kind(path, b if path in theirs else a)] += 1
        fields.append(path)
    total = sum(counts.values()) + len(reordered)
    return {"exact": total == 0, "fields_differ": total, **counts, "order": len(reordered),
            "fields": (reordered + fields)[:20]}

"""Putting user-controlled strings on the page safely.

Model, benchmark, task, mode and condition names come from folder names and result rows;
instructions, tags and notes from metadata and ``explanations.jsonl``. Every one of them
reaches the page through one of these helpers:

- :func:`display`: any name -> printable text (a folder name that is not UTF-8 arrives as
  lone surrogates; they become U+FFFD instead of crashing the UTF-8 writer);
- :func:`h`: text for HTML content and quoted attributes (``& < > " '`` escaped);
- :func:`script_json`: a JSON document for a ``<script type="application/json">`` block:
  ``<``, ``>`` and ``&`` written as ``\\u003c`` ... so no name can open a comment
  (``<!--``) or close the block (``</script>``), and no NaN/Infinity token (they become
  ``null``) so the page's ``JSON.parse`` never throws;
- :func:`plot_text`: a label for matplotlib: ``$`` escaped (no math text, no parse error on
  ``$\\foo{$``) and a leading ``_`` guarded (matplotlib drops ``_nolegend_`` labels).
"""

from __future__ import annotations

import html
import json
import math

from paintkit.layout.names import display

__all__ = ["display", "finite", "h", "plot_text", "script_json"]

#: Put before a label that starts with "_" so matplotlib keeps it in the legend.
_ZERO_WIDTH_SPACE = "\u200b"


def h(value) -> str:
    """``value`` escaped for HTML text and quoted attribute values."""
    return html.escape(display(value), quote=True)


def finite(value) -> float | None:
    """A finite float, or None for NaN, infinities and anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _clean(obj):
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, str):
        return display(obj)
    if isinstance(obj, dict):
        return {display(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def script_json(obj) -> str:
    """``obj`` as JSON safe inside ``<script type="application/json">`` (see module doc)."""
    text = json.dumps(_clean(obj), separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def plot_text(value) -> str:
    """``value`` as literal matplotlib text: no math mode, never hidden from a legend."""
    text = display(value).replace("$", "\\$")
    return _ZERO_WIDTH_SPACE + text if text.startswith("_") else text

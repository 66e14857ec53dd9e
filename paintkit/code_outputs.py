"""Outputs that are code: an SVG or a chart state in place of the output PNG.

A problem's output in an outputs tree is one of ``NNNN_output.png`` (an image),
``NNNN_output.svg`` (an SVG: PaintBench and other scene-based problems) or
``NNNN_output.json`` (a chart state: TinyGrafixBench). :func:`output_file` finds the one
there is; :func:`load_output_file` turns it into the pixels the metric scores, plus, for a
chart state, the data-level comparison with the answer state. Rendering is a step before the
metric: what it draws is scored like any decoded image, and a file that cannot be drawn is
that output's one-line reason (scored as missing), never a crash.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paintkit.layout.outputs import CODE_OUTPUTS, output_name
from paintkit.metrics.code_drawers import register_code_drawer

if TYPE_CHECKING:  # numpy loads with the renderers, not with ``import paintkit``
    import numpy as np

__all__ = ["CODE_OUTPUTS", "NoCode", "code_kind", "draw_chart_state", "extract_code",
           "is_chart_state", "load_output_file", "output_file", "render_code"]

MAX_CODE_BYTES = 64 * 1024 * 1024
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_SVG = re.compile(r"<svg\b.*?</svg\s*>", re.DOTALL | re.IGNORECASE)
_TAGS = {"svg": ("svg", "xml", "html"), "json": ("json", "json5", "javascript")}


class NoCode(ValueError):
    """The reply holds no usable code block; the message says why (one line)."""


def extract_code(text: str, kind: str, *, finish_reason: str | None = None) -> str:
    """The code of ``kind`` (``"svg"`` or ``"json"``) in a model's reply.

    Raises:
        NoCode: no block, several blocks that cannot be told apart, or a cut-off reply.
    """
    if finish_reason == "length":
        raise NoCode("the reply was cut off at the token limit (finish_reason=length)")
    blocks = [(tag.lower(), body) for tag, body in _FENCE.findall(text)]
    tagged = [body for tag, body in blocks if tag in _TAGS[kind]]
    if len(tagged) == 1:
        return tagged[0].strip()
    if len(tagged) > 1:
        raise NoCode(f"the reply holds {len(tagged)} {kind} code blocks; expected one")
    untagged = [body for tag, body in blocks if not tag]
    if len(untagged) == 1:
        return untagged[0].strip()
    if len(untagged) > 1:
        raise NoCode(f"the reply holds {len(untagged)} code blocks and none is tagged {kind}")
    if text.count("```") % 2 == 1:
        raise NoCode("the reply's code block is not closed (the code is cut off)")
    if kind == "svg":
        found = _SVG.findall(text)
        if len(found) == 1:
            return found[0].strip()
        if "<svg" in text.lower():
            raise NoCode("the reply's SVG is not closed (no </svg>: the code is cut off)"
                         if not found else f"the reply holds {len(found)} SVG documents")
    raise NoCode(f"the reply holds no {kind} code")




def output_file(image_path: Path) -> tuple[Path, str | None]:
    """``(the output file, None)``, or ``(image_path, reason)`` when two forms are there.

    ``image_path`` is the problem's ``NNNN_output.png`` (or one of its code forms); when it
    is absent and exactly one of ``NNNN_output.svg`` / ``.json`` exists, that is the output.
    """
    idx = int(image_path.name.split("_", 1)[0])
    image_path = image_path.with_name(output_name(idx))
    present = [p for p in (image_path, *(image_path.with_name(output_name(idx, kind))
                                         for kind in CODE_OUTPUTS)) if _exists(p)]
    if len(present) > 1:
        names = ", ".join(p.name for p in present)
        return image_path, f"{image_path.parent}: more than one output of one problem ({names})"
    return (present[0] if present else image_path), None


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a folder that cannot be read says no (its reader names why)."""
    try:
        return path.exists()
    except OSError:
        return False


def _read(path: Path) -> bytes:
    size = path.stat().st_size
    if size > MAX_CODE_BYTES:
        raise ValueError(f"{size:,} bytes, above the {MAX_CODE_BYTES:,}-byte limit for code outputs")
    return path.read_bytes()


def load_output_file(path: Path, meta: dict) -> tuple[np.ndarray, dict | None]:
    """The pixels of a code output, and its structural comparison (chart states) or None.

    Args:
        path: ``NNNN_output.svg`` or ``NNNN_output.json``.
        meta: the problem's metadata (its canvas ``W`` x ``H``; a chart's ``input_state``
            and ``answer_state``).

    Raises:
        ValueError: one line: the file cannot be read, is outside the supported subset or
            limits, or does not fit this problem.
    """
    if path.suffix not in (".svg", ".json"):
        raise ValueError(f"{path.name}: not a code output (.svg or .json)")
    return render_code(_read(path), path.suffix[1:], meta)


def render_code(data: bytes | str, kind: str, meta: dict) -> tuple[np.ndarray, dict | None]:
    """Code of ``kind`` (``"svg"`` or ``"json"``) for the problem of ``meta`` -> ``(pixels,
    structure)``, as :func:`load_output_file` (``paintkit run`` checks a model's code with it
    before writing the file)."""
    if kind == "svg":
        from paintkit.svg import render_svg  # skia, svgelements: only to draw an SVG

        if "scene" not in meta:
            raise ValueError("an SVG output needs a scene-based problem (this one has no scene)")
        return render_svg(data, width=int(meta["W"]), height=int(meta["H"])), None
    if kind == "json":
        from paintkit.tinygrafix.state_output import (  # matplotlib: only to draw a chart
            render_output_state,
            state_difference,
        )

        if "input_state" not in meta or "answer_state" not in meta:
            raise ValueError("a chart-state output needs a chart problem (this one has no "
                             "input_state)")
        pixels, state = render_output_state(data, meta["input_state"], meta["answer_state"])
        return pixels, state_difference(state, meta["answer_state"])
    raise ValueError(f"code of kind {kind!r}: expected 'svg' or 'json'")


def code_kind(meta: dict) -> str:
    """``"json"`` for a chart problem (its output is a state), ``"svg"`` for a scene.

    Raises:
        ValueError: the problem has neither a chart state nor a scene.
    """
    if "input_state" in meta:
        return "json"
    if "scene" in meta:
        return "svg"
    raise ValueError("this problem has no scene and no chart state: its output cannot be code")


def is_chart_state(item: Any) -> bool:
    """Whether an output handed to the metric is a chart state: a dict with ``"chart"``,
    or the path of a ``.json`` file."""
    if isinstance(item, dict):
        return "chart" in item
    return isinstance(item, str | os.PathLike) and os.fspath(item).lower().endswith(".json")


def draw_chart_state(item: dict | str | os.PathLike) -> np.ndarray:
    """A chart state (a dict, or a ``.json`` file's path) -> uint8 ``(H, W, 3)``, drawn by
    the chart renderer that drew the benchmark's images (the answer state draws the answer
    image, the input state the input image). No problem is at hand, so the state is held to
    fixed bounds: a known chart, at most 1,000 items a list, 20,000 values, strings of 500
    characters, finite numbers (``paintkit eval`` also holds it to its problem's states).

    Raises:
        ValueError: one line: unreadable, damaged or outside the bounds, or refused by the
            renderer.
    """
    from paintkit.tinygrafix.state_output import (  # matplotlib: only to draw a chart
        render_output_state,
    )

    if isinstance(item, dict):
        data: dict | bytes = item
    else:
        try:
            data = _read(Path(item))
        except OSError as exc:
            raise ValueError(f"cannot read {os.fspath(item)}: {exc.strerror or exc}") from None
    return render_output_state(data, None, None)[0]


# the metric draws chart states through this drawer (paintkit.metrics.code_drawers): it
# never imports the chart renderer, which imports the tasks that import the metric
register_code_drawer("chart state", is_chart_state, draw_chart_state)

"""How instructions name things: shapes, colors, points, layers and numbers.

Every phrase a task puts into an instruction comes from here, so wording stays uniform
across the 20 tasks and a description is checked for uniqueness where it is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paintkit.colors import color_name, color_noun, describe_color, rgb_to_hex
from paintkit.scene import RGB, Shape

CLIP_NOTE = "Any part that leaves the canvas is clipped."
VACATED_NOTE = "The area it leaves shows the background."


def article(phrase: str) -> str:
    """``"a"`` or ``"an"`` for ``phrase``."""
    return "an" if phrase[:1].lower() in "aeiou" else "a"


def describe_shape(shape: Shape, among: Iterable[Shape]) -> str:
    """The shortest phrase naming ``shape`` uniquely among ``among``.

    Tries "the star", "the red shape", then "the red star"; raises ``ValueError`` when even
    type and color together match another shape (the generator must then reject the seed).
    """
    others = [s for s in among if s.id != shape.id]
    color = describe_color(shape.fill) if shape.fill is not None else None
    if not any(s.type == shape.type for s in others):
        return f"the {shape.type}"
    if color is not None and not any(s.fill == shape.fill for s in others):
        return f"the {color} shape"
    if color is not None and not any(s.type == shape.type and s.fill == shape.fill for s in others):
        return f"the {color} {shape.type}"
    raise ValueError(f"shape {shape.id!r} ({color} {shape.type}) has no unique description")


def format_point(point: Sequence[float]) -> str:
    """``(412.0, 230.0)`` -> ``"(412, 230)"``; explicit coordinates are whole pixels."""
    x, y = point
    if x != int(x) or y != int(y):
        raise ValueError(f"explicit coordinates must be whole pixels, got {point!r}")
    return f"({int(x)}, {int(y)})"


def point_on_canvas(point_name: str) -> str:
    """"the center of the canvas" (canvas point names already say "of the canvas")."""
    return f"the {point_name}"


def layer_phrase(on_top: bool) -> str:
    """The sentence saying where a moved or new element sits among overlapping shapes."""
    if on_top:
        return "It goes on top of any shape it overlaps."
    return "It goes beneath any shape it overlaps."


def join_words(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def percent(value: float) -> str:
    """``12.0`` -> ``"12%"``; ``12.5`` -> ``"12.5%"``."""
    return f"{value:g}%"


def color_code_phrase(color: RGB) -> str:
    """A color with its exact code: ``"cyan (#0FE1DF)"`` / ``"tan (#CBAA85)"`` for a palette
    color (noun form, see :func:`~paintkit.colors.color_noun`), else ``"#3A7F12"``.

    Every color an answer paints is named this way: a name alone is not exact (the
    nonstandard "cyan" is #0FE1DF, CIE76 10.8 from #00FFFF).
    """
    code = rgb_to_hex(color)
    return f"{color_noun(color)} ({code})" if color_name(color) else code


COORDINATE_NOTE = ("Coordinates are (x, y) in pixels from the top-left corner of the canvas, "
                   "x to the right and y down.")


def coordinate_phrase(point: Sequence[float]) -> str:
    """``(412, 230)`` -> ``"the canvas point (412, 230)"`` (pair with :data:`COORDINATE_NOTE`)."""
    return f"the canvas point {format_point(point)}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(k: int) -> str:
    """``1`` -> ``"first"``, ``2`` -> ``"second"`` ... ``9`` -> ``"ninth"``."""
    if not isinstance(k, int) or not 1 <= k <= len(_ORDINALS):
        raise ValueError(f"ordinal needs an int in 1..{len(_ORDINALS)}, got {k!r}")
    return _ORDINALS[k - 1]


def ranked(superlative: str, k: int) -> str:
    """``("largest", 1)`` -> ``"largest"``; ``("largest", 2)`` -> ``"second largest"``."""
    return superlative if k == 1 else f"{ordinal(k)} {superlative}"


def plural(shape_type: str) -> str:
    """``"star"`` -> ``"stars"``, ``"cross"`` -> ``"crosses"``."""
    return shape_type + ("es" if shape_type.endswith(("s", "x", "sh", "ch")) else "s")

"""The two 11-color palettes, the seeded background / holdout / object split, and the
color describer used in instructions (docs/generator-rules.md#palettes)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from paintkit.scene import RGB, check_color


def hex_to_rgb(code: str) -> RGB:
    """``"#0FE1DF"`` -> ``(15, 225, 223)``."""
    text = code.strip()
    if len(text) != 7 or text[0] != "#":
        raise ValueError(f"hex color must look like #RRGGBB, got {code!r}")
    try:
        return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
    except ValueError:
        raise ValueError(f"hex color must look like #RRGGBB, got {code!r}") from None


def rgb_to_hex(color: RGB) -> str:
    """``(15, 225, 223)`` -> ``"#0FE1DF"`` (upper case)."""
    r, g, b = check_color(color)
    return f"#{r:02X}{g:02X}{b:02X}"


@dataclass(frozen=True)
class PaletteColor:
    name: str
    hex: str

    @property
    def rgb(self) -> RGB:
        return hex_to_rgb(self.hex)


STANDARD: tuple[PaletteColor, ...] = tuple(PaletteColor(n, h) for n, h in (
    ("red", "#FF0000"), ("orange", "#FFA500"), ("yellow", "#FFFF00"), ("green", "#00FF00"),
    ("blue", "#0000FF"), ("purple", "#800080"), ("pink", "#FFC0CB"), ("brown", "#8B4513"),
    ("black", "#000000"), ("gray", "#808080"), ("white", "#FFFFFF"),
))
NONSTANDARD: tuple[PaletteColor, ...] = tuple(PaletteColor(n, h) for n, h in (
    ("crimson", "#C31B37"), ("tangerine-colored", "#F47B16"), ("gold", "#E4BA18"),
    ("olive-colored", "#717A1E"), ("cyan", "#0FE1DF"), ("lavender", "#D9D2E9"),
    ("magenta", "#F20DD8"), ("tan-colored", "#CBAA85"), ("jet black", "#101211"),
    ("silver", "#BBBCBA"), ("ivory white", "#F8F6E8"),
))
PALETTES: dict[str, tuple[PaletteColor, ...]] = {"standard": STANDARD, "nonstandard": NONSTANDARD}
_NAMES: dict[RGB, str] = {c.rgb: c.name for palette in PALETTES.values() for c in palette}


def get_palette(name: str) -> tuple[PaletteColor, ...]:
    if name not in PALETTES:
        raise ValueError(f"unknown palette {name!r}; allowed: {', '.join(PALETTES)}")
    return PALETTES[name]


@dataclass(frozen=True)
class ColorSplit:
    """A palette shuffled by a seed: background, stripe holdout and the 9 object colors."""

    background: PaletteColor
    holdout: PaletteColor
    objects: tuple[PaletteColor, ...]


def split_palette(name: str, rng: random.Random) -> ColorSplit:
    """Shuffle palette ``name`` with ``rng``: first color background, second holdout."""
    colors = list(get_palette(name))
    rng.shuffle(colors)
    return ColorSplit(background=colors[0], holdout=colors[1], objects=tuple(colors[2:]))


def color_name(color: RGB) -> str | None:
    """The palette name of ``color``, or None when it is in neither palette."""
    return _NAMES.get(check_color(color))


def describe_color(color: RGB) -> str:
    """How an instruction names ``color`` before a noun ("a tan-colored star"): its palette
    name, else ``#RRGGBB``."""
    return color_name(color) or rgb_to_hex(color)


def color_noun(color: RGB) -> str:
    """How an instruction names ``color`` on its own ("outlined in tan"): the palette name
    without its "-colored" suffix, else ``#RRGGBB``.

    The nonstandard palette's "tan-colored", "tangerine-colored" and "olive-colored" are
    adjectives; as nouns they read "tan", "tangerine" and "olive".
    """
    name = color_name(color)
    if name is None:
        return rgb_to_hex(color)
    return name.removesuffix("-colored")

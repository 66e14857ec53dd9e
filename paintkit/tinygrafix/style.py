"""Chart style sampling: themes, Lab colours, gibberish labels, 3-s.f. numbers, magnitudes.

The paper's rules (TinyGrafixBench, appendix A.7 of the PaintBench paper):

- a theme is a background / text colour pair, dark background with light text 30% of the
  time, light background with dark text otherwise;
- object colours are drawn uniformly in CIE L*a*b*, kept only when they are inside the sRGB
  gamut and at least :data:`MIN_DELTA_E` (CIE76) from every colour already in use (the
  background, the text and every earlier object colour), so all colours of a chart are
  mutually distinct;
- labels and titles are gibberish words of 1-3 letter groups, so no real-world meaning
  primes the model;
- every number an instruction states is rounded to 3 significant figures *before* the answer
  uses it;
- a magnitude factor ``10**k``, ``k`` in -3..3, scales the data (seven orders of magnitude).

All colour maths is plain Python on 8-bit hex colours (:mod:`paintkit.hex_lab`), so a colour
is the same on every machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from paintkit.errors import RejectedSeed
from paintkit.hex_lab import delta_e, hex_of, srgb_of_lab

MIN_DELTA_E = 20.0
DARK_THEME_PROBABILITY = 0.3
MAGNITUDE_EXPONENTS = tuple(range(-3, 4))
_MAX_COLOR_DRAWS = 2000
_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_VOWELS = "aeiouy"

def _hex_of_lab(lab: tuple[float, float, float]) -> str | None:
    rgb = srgb_of_lab(lab)
    if not all(0.0 <= v <= 1.0 for v in rgb):
        return None
    return hex_of(tuple(round(v * 255) for v in rgb))


def sample_color(rng: random.Random, avoid: list[str], min_delta: float = MIN_DELTA_E,
                 lightness: tuple[float, float] = (25.0, 85.0)) -> str:
    """A colour uniform in Lab (``L`` in ``lightness``, ``a``/``b`` in [-100, 100]), in
    gamut, at least ``min_delta`` CIE76 from every colour of ``avoid``.

    Raises :class:`RejectedSeed` when no draw fits (the problem tries its next attempt).
    """
    for _ in range(_MAX_COLOR_DRAWS):
        lab = (rng.uniform(*lightness), rng.uniform(-100, 100), rng.uniform(-100, 100))
        code = _hex_of_lab(lab)
        if code is not None and all(delta_e(code, other) >= min_delta for other in avoid):
            return code
    raise RejectedSeed(f"no colour {min_delta} CIE76 away from {len(avoid)} colours")


def sample_colors(rng: random.Random, n: int, avoid: list[str]) -> list[str]:
    """``n`` colours, each distinct from ``avoid`` and from each other (built one at a time,
    the running set joining the avoid list)."""
    out: list[str] = []
    for _ in range(n):
        out.append(sample_color(rng, [*avoid, *out]))
    return out


@dataclass(frozen=True)
class Theme:
    """Background and text colours of a chart (hex)."""

    background: str
    text: str
    dark: bool

    def to_dict(self) -> dict:
        return {"background": self.background, "text": self.text, "dark": self.dark}


def sample_theme(rng: random.Random) -> Theme:
    """Dark background / light text 30% of the time, else light background / dark text;
    near-neutral so object colours have room."""
    dark = rng.random() < DARK_THEME_PROBABILITY
    bg_l, text_l = ((8.0, 18.0), (88.0, 96.0)) if dark else ((93.0, 99.0), (8.0, 20.0))
    while True:
        bg = _hex_of_lab((rng.uniform(*bg_l), rng.uniform(-4, 4), rng.uniform(-4, 4)))
        text = _hex_of_lab((rng.uniform(*text_l), rng.uniform(-4, 4), rng.uniform(-4, 4)))
        if bg is not None and text is not None:
            return Theme(bg, text, dark)


def gibberish_word(rng: random.Random) -> str:
    """A capitalised nonsense word of 1-3 letter groups, e.g. ``"Qkxa"``."""
    groups = []
    for _ in range(rng.randint(1, 3)):
        groups.append(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) + (rng.choice(_CONSONANTS)
                                                                       if rng.random() < 0.5 else ""))
    return "".join(groups).capitalize()


def gibberish_label(rng: random.Random, words: tuple[int, int] = (1, 3)) -> str:
    """``words`` (inclusive range) gibberish words joined by spaces, e.g. ``"Qkx Lpvm"``."""
    return " ".join(gibberish_word(rng) for _ in range(rng.randint(*words)))


def distinct_labels(rng: random.Random, n: int) -> list[str]:
    """``n`` different one-word labels."""
    out: list[str] = []
    while len(out) < n:
        word = gibberish_word(rng)
        if word not in out:
            out.append(word)
    return out


def round_sig(value: float, digits: int = 3) -> float:
    """``value`` rounded to ``digits`` significant figures (0 stays 0)."""
    if value == 0 or not math.isfinite(value):
        return value
    return float(f"{value:.{digits - 1}e}")


def fmt(value: float) -> str:
    """How an instruction states a number: rounded to 3 s.f., positional (``"12300"``,
    ``"0.000456"``), never scientific notation."""
    return np.format_float_positional(round_sig(value), trim="-")


def sample_magnitude(rng: random.Random) -> float:
    """The data scale ``10**k``, ``k`` uniform in -3..3."""
    return 10.0 ** rng.choice(MAGNITUDE_EXPONENTS)

"""CIE L*a*b* of 8-bit sRGB hex colours, in plain Python.

Used where a generator compares or draws colours (TinyGrafixBench's chart palettes, guided
problems' colour checks): plain float arithmetic in a fixed order, so a colour and every
distance are the same on every machine. The metric's own Lab (the scoring kernels) is
elsewhere and exact by other means.

>>> hex_of((255, 0, 16)), rgb_of("#FF0010")
('#FF0010', (255, 0, 16))
>>> round(delta_e("#000000", "#FFFFFF"), 3)
100.0
"""

from __future__ import annotations

import math

# sRGB (D65) <-> XYZ, and the D65 white point of CIE L*a*b*.
_WHITE = (0.95047, 1.0, 1.08883)
_RGB_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375),
               (0.2126729, 0.7151522, 0.0721750),
               (0.0193339, 0.1191920, 0.9503041))
_XYZ_TO_RGB = ((3.2404542, -1.5371385, -0.4985314),
               (-0.9692660, 1.8760108, 0.0415560),
               (0.0556434, -0.2040259, 1.0572252))


def hex_of(rgb: tuple[int, int, int]) -> str:
    """``(255, 0, 16)`` -> ``"#FF0010"``."""
    return "#{:02X}{:02X}{:02X}".format(*rgb)


def rgb_of(code: str) -> tuple[int, int, int]:
    """``"#FF0010"`` -> ``(255, 0, 16)``."""
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def lab_of_hex(code: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB hex colour."""
    lin = [_to_linear(v / 255.0) for v in rgb_of(code)]
    xyz = [sum(m * v for m, v in zip(row, lin, strict=True)) / w
           for row, w in zip(_RGB_TO_XYZ, _WHITE, strict=True)]
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def srgb_of_lab(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB in [0, 1] of a Lab colour (values outside [0, 1] mean out of gamut)."""
    fy = (lab[0] + 16) / 116
    f = (fy + lab[1] / 500, fy, fy - lab[2] / 200)
    xyz = [(t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)) * w
           for t, w in zip(f, _WHITE, strict=True)]
    lin = [sum(m * v for m, v in zip(row, xyz, strict=True)) for row in _XYZ_TO_RGB]
    return tuple(_to_srgb(v) if v > 0 else 12.92 * v for v in lin)


def delta_e(a: str, b: str) -> float:
    """CIE76 distance between two hex colours."""
    return math.dist(lab_of_hex(a), lab_of_hex(b))

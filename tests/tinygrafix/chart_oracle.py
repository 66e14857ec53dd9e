"""Plain NumPy oracles for the chart tasks, written from the task definitions (SPEC 4 and
issue 12), sharing no code with ``paintkit.tinygrafix``."""

from __future__ import annotations

import math

import numpy as np


def ols(points) -> tuple[float, float]:
    """Least-squares (slope, intercept) by ``numpy.polyfit``."""
    xy = np.asarray(points, dtype=float)
    slope, intercept = np.polyfit(xy[:, 0], xy[:, 1], 1)
    return float(slope), float(intercept)


def line_value(line, x):
    (x0, y0), (x1, y1) = line
    return y0 + (y1 - y0) * (np.asarray(x) - x0) / (x1 - x0)


def sig3(value: float) -> bool:
    """Whether ``value`` has at most 3 significant figures."""
    if value == 0:
        return True
    exponent = math.floor(math.log10(abs(value)))
    scaled = abs(value) / 10.0 ** (exponent - 2)
    return abs(scaled - round(scaled)) < 1e-6


def shifted(values, dr: int, dc: int):
    """Grid moved ``dr`` rows down / ``dc`` columns right, exposed cells None."""
    rows, cols = len(values), len(values[0])
    out = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                out[r + dr][c + dc] = values[r][c]
    return out


def lab(hex_color: str) -> np.ndarray:
    """CIE Lab (D65) of a hex colour (the textbook formulas)."""
    rgb = np.array([int(hex_color[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = m @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str) -> float:
    return float(np.linalg.norm(lab(a) - lab(b)))


def pixel_count(image: np.ndarray, hex_color: str) -> int:
    """Pixels of exactly ``hex_color``."""
    rgb = np.array([int(hex_color[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    return int(np.count_nonzero((image == rgb).all(axis=-1)))

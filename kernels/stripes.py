"""Backgrounds: a solid color, or two colors alternating in bands (docs/generator-rules.md).

Contract (the NumPy oracle in ``tests/kernels/test_stripes.py`` is written from this text):

1. Pixel (row ``i``, col ``j``) of an H x W canvas is evaluated at its center
   ``p = (x, y) = (j + 0.5, i + 0.5)``, x right, y down, in pixels.
2. ``orientation`` theta in {0, 45, 90} degrees is the direction the bands run (0: horizontal
   bands stacked vertically; 90: vertical bands; 45: diagonal, running down-right). Along-band
   unit vector ``u = (cos theta, sin theta)``, band normal ``n = (-sin theta, cos theta)``;
   ``s = p . u`` (position along a band), ``d = p . n`` (position across bands), both in px.
   In float64 they are evaluated exactly as (``c = sqrt(0.5)`` rounded to float64; ``x + y``
   and ``y - x`` are exact)::

       theta = 0:   s = x            d = y
       theta = 45:  s = c * (x + y)  d = c * (y - x)
       theta = 90:  s = y            d = -x

3. Boundary waveform ``w(t)`` at ``t = frequency * s / W + phase`` (evaluated left to right;
   ``W`` = canvas width in px, ``frequency`` in cycles per canvas width, ``phase`` in
   cycles), with ``frac(t) = t - floor(t)``; all have range [-1, 1] and follow the
   ``scipy.signal`` conventions (``sin``, ``square``, ``sawtooth(width=0.5)``, ``sawtooth``)
   of ``2 * pi * t``::

       line:      w = 0                                  (no displacement at all)
       sine:      w = sin((2 * pi) * t)
       square:    w = 1.0 if frac(t) < 0.5 else -1.0
       triangle:  w = 1 - 4 * |frac(t) - 0.5|            (-1 at integer t, +1 at t + 1/2)
       sawtooth:  w = 2 * frac(t) - 1                    (rises from -1, drops at integer t)

   ``displacement = amplitude * w`` (px); for ``line`` it is 0 whatever ``amplitude``.
4. ``v = (d + displacement) / band_width``; band index ``floor(v) mod 2`` (Python-style floor
   and mod, so negative ``d`` at 45 or 90 degrees works). Band 1 gets the ``holdout`` color,
   band 0 gets ``color``.

Everything is float64 in the order above, identical in the Numba pass and in the oracle, so
the bytes are deterministic across processes and runs. Since ``w`` depends on ``s`` only,
the displacement is computed once per distinct ``s`` (per column at 0 degrees, per row at 90,
per anti-diagonal ``i + j`` at 45) and one per-pixel pass applies it.

Example::

    >>> import numpy as np
    >>> out = np.empty((4, 6, 3), np.uint8)
    >>> _ = paint_background(out, (255, 0, 0), (0, 0, 255), band_width=2.0)
    >>> out[:, 0].tolist()  # rows 0-1 band 0 (red), rows 2-3 band 1 (blue)
    [[255, 0, 0], [255, 0, 0], [0, 0, 255], [0, 0, 255]]
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from paintkit.kernels._validate import check_color

WAVEFORMS: tuple[str, ...] = ("line", "sine", "square", "triangle", "sawtooth")
ORIENTATIONS: tuple[int, ...] = (0, 45, 90)

_LAYOUT = {0: 0, 45: 1, 90: 2}  # orientation -> pixel layout code of the Numba pass
_SQRT_HALF = math.sqrt(0.5)
_TWO_PI = 2.0 * math.pi


# --------------------------------------------------------------------------- validation


def _check_finite(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number; got {value!r}")
    return float(value)


def _check_geometry(
    orientation: Any, band_width: Any, waveform: Any, amplitude: Any, frequency: Any, phase: Any
) -> tuple[int, float, str, float, float, float]:
    """Validate the band parameters; return them normalised (orientation as int, floats)."""
    if (
        isinstance(orientation, bool)
        or not isinstance(orientation, numbers.Real)
        or orientation not in ORIENTATIONS
    ):
        raise ValueError(f"orientation must be one of {ORIENTATIONS} degrees; got {orientation!r}")
    if not isinstance(waveform, str) or waveform not in WAVEFORMS:
        raise ValueError(f"waveform must be one of {WAVEFORMS}; got {waveform!r}")
    band_width = _check_finite("band_width", band_width)
    if band_width <= 0:
        raise ValueError(f"band_width must be > 0 px; got {band_width!r}")
    return (
        int(orientation),
        band_width,
        waveform,
        _check_finite("amplitude", amplitude),
        _check_finite("frequency", frequency),
        _check_finite("phase", phase),
    )


def _check_out(out: Any) -> None:
    if (
        not isinstance(out, np.ndarray)
        or out.dtype != np.uint8
        or out.ndim != 3
        or out.shape[2] not in (3, 4)
        or out.shape[0] < 1
        or out.shape[1] < 1
    ):
        got = (
            f"ndarray with dtype {out.dtype} and shape {out.shape}"
            if isinstance(out, np.ndarray)
            else f"{type(out).__name__}"
        )
        raise ValueError(
            f"out must be a uint8 ndarray of shape (H, W, 3) or (H, W, 4) with H, W >= 1; got {got}"
        )
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous; pass np.ascontiguousarray(out) and copy back")
    if not out.flags.writeable:
        raise ValueError("out must be writeable; it is filled in place")


# --------------------------------------------------------------------------- geometry


def _along_band_positions(width: int, height: int, orientation: int) -> np.ndarray:
    """Distinct ``s`` values (px, float64, 1-D) in the order the Numba pass indexes them.

    0 deg: ``s = x`` per column (W,); 90 deg: ``s = y`` per row (H,); 45 deg:
    ``s = c * (x + y)`` per anti-diagonal ``k = i + j``, where ``x + y = k + 1`` (H + W - 1,).
    """
    if orientation == 0:
        return np.arange(width, dtype=np.float64) + 0.5
    if orientation == 90:
        return np.arange(height, dtype=np.float64) + 0.5
    return _SQRT_HALF * np.arange(1, width + height, dtype=np.float64)


def boundary_displacement(
    s: np.ndarray, width: int, waveform: str, amplitude: float, frequency: float, phase: float
) -> np.ndarray:
    """Band-boundary displacement in px (float64, shape of ``s``) at along-band positions ``s``.

    ``width`` is the canvas width W in px; see the module docstring for the waveforms.
    """
    if waveform == "line":
        return np.zeros_like(s, dtype=np.float64)
    t = frequency * s / width + phase
    if waveform == "sine":
        w = np.sin(_TWO_PI * t)
    else:
        frac = t - np.floor(t)
        if waveform == "square":
            w = np.where(frac < 0.5, 1.0, -1.0)
        elif waveform == "triangle":
            w = 1.0 - 4.0 * np.abs(frac - 0.5)
        else:  # sawtooth
            w = 2.0 * frac - 1.0
    return amplitude * w


def _prepare(width: int, height: int, geometry: tuple) -> tuple[int, np.ndarray, float]:
    orientation, band_width, waveform, amplitude, frequency, phase = geometry
    s = _along_band_positions(width, height, orientation)
    disp = boundary_displacement(s, width, waveform, amplitude, frequency, phase)
    return _LAYOUT[orientation], disp, band_width


# --------------------------------------------------------------------------- public API


def stripe_mask(
    width: int,
    height: int,
    *,
    orientation: int = 0,
    band_width: float = 1.0,
    waveform: str = "line",
    amplitude: float = 0.0,
    frequency: float = 0.0,
    phase: float = 0.0,
) -> np.ndarray:
    """Where the holdout color goes on a ``width`` x ``height`` px striped background.

    Args:
        width, height: canvas size in px (ints >= 1).
        orientation: band direction in degrees, one of 0, 45, 90.
        band_width: band width in px across the bands (> 0).
        waveform: boundary shape, one of :data:`WAVEFORMS`.
        amplitude: boundary displacement amplitude in px.
        frequency: boundary cycles per canvas width.
        phase: boundary phase in cycles.

    Returns:
        bool array of shape (H, W): True on band 1 (holdout), False on band 0.
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be an int >= 1 (px); got {value!r}")
    geometry = _check_geometry(orientation, band_width, waveform, amplitude, frequency, phase)
    layout, disp, bw = _prepare(int(width), int(height), geometry)
    from . import _stripes_numba  # numba: slow to import; solid backgrounds never need it

    mask = np.empty((int(height), int(width)), np.uint8)
    return _stripes_numba.band_mask(mask, layout, disp, bw).view(np.bool_)


def paint_background(
    out: np.ndarray,
    color: tuple[int, int, int],
    holdout: tuple[int, int, int] | None = None,
    *,
    orientation: int = 0,
    band_width: float = 1.0,
    waveform: str = "line",
    amplitude: float = 0.0,
    frequency: float = 0.0,
    phase: float = 0.0,
) -> np.ndarray:
    """Fill ``out`` in place with a solid or striped background and return it.

    Args:
        out: uint8 array of shape (H, W, 3) (RGB) or (H, W, 4) (RGBA, alpha set to 255),
            C-contiguous and writeable.
        color: (r, g, b) ints in 0..255: the solid color, or band 0 when striped.
        holdout: (r, g, b) ints in 0..255 for band 1; None paints ``color`` everywhere and
            ignores the band parameters (they are still validated).
        orientation, band_width, waveform, amplitude, frequency, phase: the band geometry,
            as in :func:`stripe_mask` (px, cycles per canvas width, cycles).

    Returns:
        ``out`` itself.

    Raises:
        ValueError: naming the argument and the allowed values when an input is invalid.
    """
    _check_out(out)
    rgb = check_color("color", color)
    rgb_holdout = None if holdout is None else check_color("holdout", holdout)
    geometry = _check_geometry(orientation, band_width, waveform, amplitude, frequency, phase)
    height, width, channels = out.shape
    if rgb_holdout is None:
        return _fill_solid(out, rgb)
    layout, disp, bw = _prepare(width, height, geometry)
    from . import _stripes_numba  # numba: slow to import; solid backgrounds never need it

    if channels == 4:
        # One 32-bit store per pixel; the byte order of the packed word follows the machine.
        words = np.array([*rgb, 255, *rgb_holdout, 255], np.uint8).view(np.uint32)
        _stripes_numba.paint_packed(
            out.view(np.uint32).reshape(height, width), words[0], words[1], layout, disp, bw
        )
    else:
        _stripes_numba.paint_rgb(
            out, np.array(rgb, np.uint8), np.array(rgb_holdout, np.uint8), layout, disp, bw
        )
    return out


def _fill_solid(out: np.ndarray, rgb: tuple[int, int, int]) -> np.ndarray:
    """Memset-speed solid fill of a validated ``out`` (H, W, 3 or 4) uint8."""
    if out.shape[2] == 4:
        out.view(np.uint32).fill(np.array([*rgb, 255], np.uint8).view(np.uint32)[0])
    elif rgb[0] == rgb[1] == rgb[2]:
        out.fill(rgb[0])
    else:
        # Broadcasting a (3,) color has a 3-byte inner loop (~3 ms per megapixel); copying
        # one finished row per row is a memcpy each.
        out[0] = rgb
        out[1:] = out[0]
    return out

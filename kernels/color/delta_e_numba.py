"""Colour differences on CPU with Numba: the twin of :mod:`paintkit.kernels.color.delta_e`.

Same formulas, conventions and bits (see that module): CIE76, CIE94 with graphic-arts
weights (the first colour is the reference) and CIEDE2000, the canonical arithmetic of
docs/metric-definition.md. CIE76 runs in the inputs' precision (float32 Lab: the metric's
float32 ΔE); CIE94 and CIEDE2000 in float64 with a fixed order of IEEE basic operations and
the libm-free functions of :mod:`paintkit.kernels.color.canonical_math`, so every machine and the
torch twin give the same float64 bits. The result is float32 when both inputs are float32,
else float64. Arrays are channels last ``(..., 3)`` and must have one shape (no
broadcasting).

:func:`delta_e_rgb_numba` fuses the canonical Lab of two uint8 images
(:func:`~paintkit.kernels.color.lab_canonical.lab_of_rgb_canonical`) with the formula, so no Lab
image is stored; :func:`within_delta_e_rgb` goes on to the comparison with a tolerance, so
not even ΔE is stored (and equal colours cost nothing).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from paintkit.kernels.color.canonical_math import (
    PI,
    TWO_PI,
    cos_numba,
    exp_neg_numba,
    hue_angle_numba,
    sin_numba,
)
from paintkit.kernels.color.delta_e import (
    DEG_PER_RAD,
    K1_GRAPHIC,
    K2_GRAPHIC,
    POW25_7,
    RAD6,
    RAD30,
    RAD63,
    check_delta_e,
)
from paintkit.kernels.color.lab_canonical import canonical_lab, lab_of_rgb_canonical
from paintkit.kernels.read_only import read_only

__all__ = ["FORMULA_CODES", "count_within_delta_e_rgb", "delta_e_numba", "delta_e_pixel",
           "delta_e_rgb_numba", "within_colour_lab", "within_delta_e_rgb"]

#: Formula name -> the integer code the kernels switch on.
FORMULA_CODES = {"cie76": 0, "cie94": 1, "ciede2000": 2}


@njit(inline="always", cache=True)
def _cie76(l1, a1, b1, l2, a2, b2):
    """In the inputs' precision (float32 Lab: the metric's float32 ΔE, bit for bit)."""
    dl = l1 - l2
    da = a1 - a2
    db = b1 - b2
    return math.sqrt((dl * dl + da * da) + db * db)


@njit(cache=True)
def _cie94(l1, a1, b1, l2, a2, b2):
    c1 = math.sqrt(a1 * a1 + b1 * b1)
    c2 = math.sqrt(a2 * a2 + b2 * b2)
    dl = l1 - l2
    dc = c1 - c2
    da = a1 - a2
    db = b1 - b2
    dh2 = (da * da + db * db) - dc * dc
    if dh2 < 0.0:  # 0 when equal
        dh2 = 0.0
    sc = 1.0 + K1_GRAPHIC * c1
    sh = 1.0 + K2_GRAPHIC * c1
    q_c = dc / sc
    de2 = (dl * dl + q_c * q_c) + dh2 / (sh * sh)
    return math.sqrt(de2)


@njit(inline="always", cache=True)
def _pow7(x):
    x2 = x * x
    return ((x2 * x2) * x2) * x


@njit(cache=True)
def _ciede2000(l1, a1, b1, l2, a2, b2):
    c_mean = 0.5 * (math.sqrt(a1 * a1 + b1 * b1) + math.sqrt(a2 * a2 + b2 * b2))
    c7 = _pow7(c_mean)
    g1 = 1.0 + 0.5 * (1.0 - math.sqrt(c7 / (c7 + POW25_7)))
    a1p = a1 * g1
    a2p = a2 * g1
    c1p = math.sqrt(a1p * a1p + b1 * b1)
    c2p = math.sqrt(a2p * a2p + b2 * b2)
    h1p = hue_angle_numba(a1p, b1)
    h2p = hue_angle_numba(a2p, b2)
    cc = c1p * c2p
    h_sum = h1p + h2p
    if cc == 0.0:
        dh = 0.0
        h_mean = h_sum
    elif a1p * b2 == b1 * a2p:  # opposite hues: |h2 - h1| is pi exactly, not more
        dh = h2p - h1p
        h_mean = 0.5 * h_sum
    else:
        dh = h2p - h1p
        if dh > PI:
            dh = dh - TWO_PI
        elif dh < -PI:
            dh = dh + TWO_PI
        if abs(h1p - h2p) > PI:
            if h_sum < TWO_PI:
                h_mean = 0.5 * (h_sum + TWO_PI)
            else:
                h_mean = 0.5 * (h_sum - TWO_PI)
        else:
            h_mean = 0.5 * h_sum
    d_hue = (2.0 * math.sqrt(cc)) * sin_numba(0.5 * dh)
    lm = 0.5 * (l1 + l2) - 50.0
    l50 = lm * lm
    s_l = 1.0 + (0.015 * l50) / math.sqrt(20.0 + l50)
    cp_mean = 0.5 * (c1p + c2p)
    s_c = 1.0 + 0.045 * cp_mean
    t = 1.0 - 0.17 * cos_numba(h_mean - RAD30)
    t = t + 0.24 * cos_numba(2.0 * h_mean)
    t = t + 0.32 * cos_numba(3.0 * h_mean + RAD6)
    t = t - 0.20 * cos_numba(4.0 * h_mean - RAD63)
    s_h = 1.0 + (0.015 * cp_mean) * t
    cp7 = _pow7(cp_mean)
    r_c = 2.0 * math.sqrt(cp7 / (cp7 + POW25_7))
    x = (h_mean * DEG_PER_RAD - 275.0) / 25.0
    d_theta = RAD30 * exp_neg_numba(-(x * x))
    r_t = -sin_numba(2.0 * d_theta) * r_c
    term_l = (l2 - l1) / s_l
    term_c = (c2p - c1p) / s_c
    term_h = d_hue / s_h
    de2 = ((term_l * term_l + term_c * term_c) + term_h * term_h) + (r_t * term_c) * term_h
    if de2 < 0.0:
        de2 = 0.0
    return math.sqrt(de2)


@njit(inline="always", cache=True)
def delta_e_pixel(code, l1, a1, b1, l2, a2, b2):
    """ΔE of one pair of Lab colours by formula ``code`` (:data:`FORMULA_CODES`): CIE76 in
    the inputs' precision, CIE94 and CIEDE2000 in float64 (returned as float64)."""
    if code == 0:
        return np.float64(_cie76(l1, a1, b1, l2, a2, b2))
    l1, a1, b1 = np.float64(l1), np.float64(a1), np.float64(b1)
    l2, a2, b2 = np.float64(l2), np.float64(a2), np.float64(b2)
    if code == 1:
        return _cie94(l1, a1, b1, l2, a2, b2)
    return _ciede2000(l1, a1, b1, l2, a2, b2)


@njit(parallel=True, cache=True)
def _delta_e_flat(code, lab1, lab2, out):
    for k in prange(lab1.shape[0]):
        out[k] = delta_e_pixel(code, lab1[k, 0], lab1[k, 1], lab1[k, 2],
                               lab2[k, 0], lab2[k, 1], lab2[k, 2])


@njit(inline="always", cache=True)
def _lab_row(x, k):
    """Canonical Lab (float32 triple) of row ``k`` of a uint8 ``(N, 3)`` array."""
    return lab_of_rgb_canonical(np.int64(x[k, 0]), np.int64(x[k, 1]), np.int64(x[k, 2]))


@njit(inline="always", cache=True)
def _lab_pixel(x, i, j):
    """Canonical Lab (float32 triple) of pixel ``(i, j)`` of a uint8 ``(H, W, 3)`` image."""
    return lab_of_rgb_canonical(np.int64(x[i, j, 0]), np.int64(x[i, j, 1]), np.int64(x[i, j, 2]))


@njit(inline="always", cache=True)
def _delta_e_rgb_pixel(code, rgb1, rgb2, k):
    l1, a1, b1 = _lab_row(rgb1, k)
    l2, a2, b2 = _lab_row(rgb2, k)
    return delta_e_pixel(code, l1, a1, b1, l2, a2, b2)


@njit(parallel=True, cache=True)
def _delta_e_rgb_parallel(code, rgb1, rgb2, out):
    for k in prange(rgb1.shape[0]):
        out[k] = _delta_e_rgb_pixel(code, rgb1, rgb2, k)


@njit(cache=True)
def _delta_e_rgb_serial(code, rgb1, rgb2, out):
    for k in range(rgb1.shape[0]):
        out[k] = _delta_e_rgb_pixel(code, rgb1, rgb2, k)


#: Below this many pixels one thread is faster (waking a thread pool costs ~ms when busy).
SERIAL_PIXELS = 1 << 16


def _pair(name1: str, x1, name2: str, x2, kind: str) -> None:
    for name, x in ((name1, x1), (name2, x2)):
        ok = x.dtype == np.uint8 if kind == "uint8" else np.issubdtype(x.dtype, np.floating)
        if not ok or x.ndim < 1 or x.shape[-1] != 3:
            raise ValueError(f"{name}: expected a {kind} array of shape (..., 3), got "
                             f"{x.dtype} {x.shape}")
    if x1.shape != x2.shape:
        raise ValueError(f"{name1}, {name2}: expected one shape, got {x1.shape} and {x2.shape}")


def delta_e_numba(lab1: np.ndarray, lab2: np.ndarray, delta_e: str = "cie76") -> np.ndarray:
    """ΔE between float Lab arrays ``(..., 3)`` -> ``(...)``; ``lab1`` is the reference.

    Example:
        >>> a = np.array([[50.0, 2.6772, -79.7751]]); b = np.array([[50.0, 0.0, -82.7485]])
        >>> delta_e_numba(a, b, "ciede2000").round(4)
        array([2.0425])
    """
    code = FORMULA_CODES[check_delta_e(delta_e)]
    lab1, lab2 = np.asarray(lab1), np.asarray(lab2)
    _pair("lab1", lab1, "lab2", lab2, "float")
    dtype = np.float32 if lab1.dtype == lab2.dtype == np.float32 else np.float64
    flat1 = np.ascontiguousarray(lab1, dtype).reshape(-1, 3)
    flat2 = np.ascontiguousarray(lab2, dtype).reshape(-1, 3)
    out = np.empty(flat1.shape[0], np.float64)
    _delta_e_flat(code, flat1, flat2, out)
    return out.astype(dtype, copy=False).reshape(lab1.shape[:-1])


def delta_e_rgb_numba(rgb1: np.ndarray, rgb2: np.ndarray, delta_e: str = "cie76") -> np.ndarray:
    """ΔE between uint8 sRGB arrays ``(..., 3)`` -> float64 ``(...)``; ``rgb1`` is the reference.

    The canonical Lab of docs/metric-definition.md §3
    (:func:`~paintkit.kernels.color.lab_canonical.lab_of_rgb_canonical`), then the formula: CIE76 in
    float32 (the metric's ΔE, bit for bit), CIE94 and CIEDE2000 in canonical float64.
    """
    code = FORMULA_CODES[check_delta_e(delta_e)]
    rgb1, rgb2 = np.asarray(rgb1), np.asarray(rgb2)
    _pair("rgb1", rgb1, "rgb2", rgb2, "uint8")
    flat1 = np.ascontiguousarray(rgb1).reshape(-1, 3)
    flat2 = np.ascontiguousarray(rgb2).reshape(-1, 3)
    out = np.empty(flat1.shape[0], np.float64)
    kernel = _delta_e_rgb_serial if flat1.shape[0] < SERIAL_PIXELS else _delta_e_rgb_parallel
    kernel(code, flat1, flat2, out)
    return out.reshape(rgb1.shape[:-1])


@njit(cache=True)
def _within_run(code, reference, sample, step, limit, out, start, stop):
    """``out[k]`` for ``k`` in ``start..stop``: equal colours without arithmetic (ΔE = 0),
    the others by the formula, remembering the last pair (flat-colour images repeat it)."""
    last_pair = np.int64(-1)
    last = False
    for k in range(start, stop):
        r = k * step
        ref = (np.int64(reference[r, 0]) << 16) | (np.int64(reference[r, 1]) << 8) \
            | np.int64(reference[r, 2])
        smp = (np.int64(sample[k, 0]) << 16) | (np.int64(sample[k, 1]) << 8) \
            | np.int64(sample[k, 2])
        if ref == smp:
            out[k] = True
            continue
        pair = (ref << 24) | smp
        if pair != last_pair:
            l1, a1, b1 = _lab_row(reference, r)
            l2, a2, b2 = _lab_row(sample, k)
            last = delta_e_pixel(code, l1, a1, b1, l2, a2, b2) <= limit
            last_pair = pair
        out[k] = last


_WITHIN_CHUNK = 1 << 14  # pixels per parallel work item


@njit(parallel=True, cache=True)
def _within_parallel(code, reference, sample, step, limit, out):
    n = sample.shape[0]
    for item in prange((n + _WITHIN_CHUNK - 1) // _WITHIN_CHUNK):
        _within_run(code, reference, sample, step, limit, out, item * _WITHIN_CHUNK,
                    min(n, (item + 1) * _WITHIN_CHUNK))


@njit(cache=True)
def _within_serial(code, reference, sample, step, limit, out):
    _within_run(code, reference, sample, step, limit, out, np.int64(0), sample.shape[0])


def within_delta_e_rgb(reference: np.ndarray, sample: np.ndarray, limit: float,
                             delta_e: str = "cie76") -> np.ndarray:
    """``ΔE(reference, sample) <= limit`` per pixel, without storing ΔE: bool ``(...)``.

    ``sample`` is uint8 ``(..., 3)``; ``reference`` uint8 of the same shape or one colour
    ``(3,)`` for every pixel (the reference of CIE94's weights). Equal colours are within
    any ``limit >= 0`` without arithmetic, so a mostly-right sample costs little; the others
    get exactly :func:`delta_e_rgb_numba`'s value.

    Example:
        >>> within_delta_e_rgb(np.array([0, 0, 255], np.uint8),
        ...                          np.array([[0, 0, 255], [0, 0, 250], [255, 0, 0]], np.uint8), 5)
        array([ True,  True, False])
    """
    code = FORMULA_CODES[check_delta_e(delta_e)]
    reference, sample = np.asarray(reference), np.asarray(sample)
    one_colour = reference.shape == (3,)
    _pair("reference", reference if not one_colour else np.broadcast_to(reference, sample.shape),
          "sample", sample, "uint8")
    flat = read_only(np.ascontiguousarray(sample).reshape(-1, 3))
    ref = read_only(np.ascontiguousarray(reference).reshape(-1, 3))
    out = np.empty(flat.shape[0], np.bool_)
    kernel = _within_serial if flat.shape[0] < SERIAL_PIXELS else _within_parallel
    kernel(code, ref, flat, 0 if one_colour else 1, float(limit), out)
    return out.reshape(sample.shape[:-1])


@njit(cache=True)
def _count_within(code, reference, sample, mask, limit):
    count = 0
    last_pair = np.int64(-1)
    last = False
    for i in range(mask.shape[0]):
        for j in range(mask.shape[1]):
            if not mask[i, j]:
                continue
            ref = (np.int64(reference[i, j, 0]) << 16) | (np.int64(reference[i, j, 1]) << 8) \
                | np.int64(reference[i, j, 2])
            smp = (np.int64(sample[i, j, 0]) << 16) | (np.int64(sample[i, j, 1]) << 8) \
                | np.int64(sample[i, j, 2])
            if ref == smp:
                count += 1
                continue
            pair = (ref << 24) | smp
            if pair != last_pair:  # flat-colour images repeat pairs along a row
                l1, a1, b1 = _lab_pixel(reference, i, j)
                l2, a2, b2 = _lab_pixel(sample, i, j)
                last = delta_e_pixel(code, l1, a1, b1, l2, a2, b2) <= limit
                last_pair = pair
            count += last
    return count


def count_within_delta_e_rgb(reference: np.ndarray, sample: np.ndarray, mask: np.ndarray,
                                   limit: float, delta_e: str = "cie76") -> int:
    """How many pixels of bool ``mask`` ``(H, W)`` have ``ΔE(reference, sample) <= limit``,
    for uint8 ``(H, W, 3)`` images (views of larger images are fine: nothing is copied).
    The same decision per pixel as :func:`within_delta_e_rgb`.

    Example:
        >>> ref = np.zeros((2, 2, 3), np.uint8); out = ref.copy(); out[0, 0] = 255
        >>> count_within_delta_e_rgb(ref, out, np.ones((2, 2), bool), 5)
        3
    """
    code = FORMULA_CODES[check_delta_e(delta_e)]
    reference, sample, mask = np.asarray(reference), np.asarray(sample), np.asarray(mask)
    _pair("reference", reference, "sample", sample, "uint8")
    if reference.ndim != 3 or mask.dtype != np.bool_ or mask.shape != reference.shape[:2]:
        raise ValueError(f"reference, mask: expected (H, W, 3) images and a bool (H, W) mask, "
                         f"got {reference.shape} and {mask.dtype} {mask.shape}")
    return int(_count_within(code, read_only(reference), read_only(sample), read_only(mask),
                             float(limit)))


@njit(parallel=True, cache=True)
def _within_colour_lab(code, colour, l1, a1, b1, sample, lab, limit, out):
    n = sample.shape[0]
    for item in prange((n + _WITHIN_CHUNK - 1) // _WITHIN_CHUNK):
        for k in range(item * _WITHIN_CHUNK, min(n, (item + 1) * _WITHIN_CHUNK)):
            if sample[k, 0] == colour[0] and sample[k, 1] == colour[1] \
                    and sample[k, 2] == colour[2]:
                out[k] = True
            else:
                out[k] = delta_e_pixel(code, l1, a1, b1, lab[k, 0], lab[k, 1],
                                       lab[k, 2]) <= limit


def within_colour_lab(colour: np.ndarray, sample: np.ndarray, sample_lab: np.ndarray,
                      limit: float, delta_e: str = "cie76") -> np.ndarray:
    """:func:`within_delta_e_rgb` of one reference ``colour`` (uint8 ``(3,)``) and uint8
    ``(N, 3)`` ``sample`` whose Lab is already known (``sample_lab``: float32 ``(N, 3)``,
    :func:`paintkit.kernels.color.lab_canonical.canonical_lab` of ``sample``): the same decisions,
    without converting the sample again. For testing many colours against one set of
    pixels (a noisy output's wrong pixels)."""
    code = FORMULA_CODES[check_delta_e(delta_e)]
    colour, sample, sample_lab = np.asarray(colour), np.asarray(sample), np.asarray(sample_lab)
    if colour.dtype != np.uint8 or colour.shape != (3,):
        raise ValueError(f"colour: expected uint8 (3,), got {colour.dtype} {colour.shape}")
    if sample.dtype != np.uint8 or sample.ndim != 2 or sample.shape[1] != 3:
        raise ValueError(f"sample: expected uint8 (N, 3), got {sample.dtype} {sample.shape}")
    if sample_lab.dtype != np.float32 or sample_lab.shape != sample.shape:
        raise ValueError(f"sample_lab: expected float32 {sample.shape}, got {sample_lab.dtype} "
                         f"{sample_lab.shape}")
    l1, a1, b1 = canonical_lab(colour)
    out = np.empty(sample.shape[0], np.bool_)
    _within_colour_lab(code, colour, l1, a1, b1, np.ascontiguousarray(sample),
                       np.ascontiguousarray(sample_lab), float(limit), out)
    return out


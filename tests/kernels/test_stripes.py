"""Striped / solid backgrounds (paintkit.kernels.stripes) against a plain NumPy oracle.

The oracle evaluates the module-docstring contract per pixel on full (H, W) arrays. Kernel
and oracle must agree on every pixel except where ``v = (d + displacement) / band_width`` lies
within 1e-9 of an integer; ``test_oracle_grid_near_boundary_mismatches`` counts those too.
"""

from __future__ import annotations

import doctest
import hashlib
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import stripes
from paintkit.kernels.stripes import WAVEFORMS, paint_background, stripe_mask

ORIENTATIONS = (0, 45, 90)
RED, BLUE = (255, 0, 0), (0, 0, 255)
NEAR = 1e-9


def oracle(width, height, *, orientation, band_width, waveform, amplitude, frequency, phase):
    """(holdout mask, near-boundary mask), both bool (H, W), straight from the contract."""
    i, j = np.indices((height, width), dtype=np.float64)
    x, y = j + 0.5, i + 0.5
    c = np.sqrt(0.5)
    if orientation == 0:
        s, d = x, y
    elif orientation == 45:
        s, d = c * (x + y), c * (y - x)
    else:
        s, d = y, -x
    t = frequency * s / width + phase
    frac = t - np.floor(t)
    w = {
        "line": np.zeros_like(t),
        "sine": np.sin((2 * np.pi) * t),
        "square": np.where(frac < 0.5, 1.0, -1.0),
        "triangle": 1 - 4 * np.abs(frac - 0.5),
        "sawtooth": 2 * frac - 1,
    }[waveform]
    v = (d + amplitude * w) / band_width
    return np.mod(np.floor(v), 2) == 1, np.abs(v - np.round(v)) < NEAR


def compare(width, height, **geometry):
    """Return (mismatches away from boundaries, mismatches within NEAR of one)."""
    got = stripe_mask(width, height, **geometry)
    want, near = oracle(width, height, **geometry)
    assert got.shape == (height, width) and got.dtype == np.bool_
    diff = got != want
    return int((diff & ~near).sum()), int((diff & near).sum())


# Band widths include exact halves (pixel centers land exactly on boundaries) and the SPEC's
# 0.06 / 0.10 of a 1024 px width; amplitudes 0 to 0.04 W; frequencies 4 to 10 cycles.
GRID = [
    dict(band_width=bw, amplitude=amp, frequency=freq, phase=ph)
    for bw, amp, freq, ph in [
        (0.5, 0.0, 0.0, 0.0),
        (1.0, 2.0, 4.0, 0.25),
        (3.0, 1.5, 7.3, 0.9),
        (6.0, 2.5, 10.0, -0.4),
        (7.25, 0.0, 5.0, 0.0),
        (61.44, 40.96, 4.0, 0.5),
        (102.4, 10.24, 10.0, 0.125),
    ]
]
SIZES = [(64, 40), (40, 64), (97, 53)]


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("waveform", WAVEFORMS)
def test_mask_matches_oracle_small(waveform, orientation):
    for (width, height), params in itertools.product(SIZES, GRID):
        outside, _ = compare(width, height, orientation=orientation, waveform=waveform, **params)
        assert outside == 0, (width, height, params)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("waveform", WAVEFORMS)
def test_mask_matches_oracle_1024x576(waveform, orientation):
    params = dict(band_width=81.92, amplitude=25.0, frequency=6.5, phase=0.3)
    outside, near = compare(1024, 576, orientation=orientation, waveform=waveform, **params)
    assert (outside, near) == (0, 0)


def test_oracle_grid_near_boundary_mismatches():
    """Same float64 order in kernel and oracle: even boundary pixels are expected to agree."""
    total_near = 0
    for waveform, orientation, (width, height), params in itertools.product(
        WAVEFORMS, ORIENTATIONS, SIZES, GRID
    ):
        geometry = dict(orientation=orientation, waveform=waveform, **params)
        outside, near = compare(width, height, **geometry)
        assert outside == 0
        total_near += near
    assert total_near == 0, f"{total_near} near-boundary pixels differ from the oracle"


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 48),
    height=st.integers(1, 48),
    orientation=st.sampled_from(ORIENTATIONS),
    waveform=st.sampled_from(WAVEFORMS),
    band_width=st.floats(0.1, 40.0),
    amplitude=st.floats(-20.0, 20.0),
    frequency=st.floats(-12.0, 12.0),
    phase=st.floats(-3.0, 3.0),
)
def test_mask_matches_oracle_random(width, height, **geometry):
    outside, _ = compare(width, height, **geometry)
    assert outside == 0


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("waveform", WAVEFORMS)
def test_paint_uses_mask_and_only_two_colors(waveform, orientation, channels):
    geometry = dict(orientation=orientation, waveform=waveform, band_width=6.0, amplitude=3.0,
                    frequency=5.0, phase=0.1)
    color, holdout = (12, 200, 7), (250, 251, 3)
    out = np.zeros((53, 97, channels), np.uint8)
    assert paint_background(out, color, holdout, **geometry) is out
    mask = stripe_mask(97, 53, **geometry)
    assert 0 < mask.sum() < mask.size
    np.testing.assert_array_equal(out[..., :3], np.where(mask[..., None], holdout, color))
    assert set(map(tuple, out[..., :3].reshape(-1, 3))) == {color, holdout}
    if channels == 4:
        assert (out[..., 3] == 255).all()


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("color", [(255, 165, 0), (128, 128, 128), (0, 0, 0)])
def test_solid_fill(color, channels):
    out = np.full((40, 64, channels), 7, np.uint8)
    assert paint_background(out, color, None, orientation=45, waveform="sine",
                            amplitude=5.0, frequency=3.0) is out
    assert (out[..., :3] == color).all()
    if channels == 4:
        assert (out[..., 3] == 255).all()


def test_single_row_and_column():
    for shape in [(1, 50, 3), (50, 1, 3), (1, 1, 4)]:
        out = np.zeros(shape, np.uint8)
        paint_background(out, RED, BLUE, orientation=45, band_width=2.0, waveform="square",
                         amplitude=1.0, frequency=3.0)
        want, _ = oracle(shape[1], shape[0], orientation=45, band_width=2.0, waveform="square",
                         amplitude=1.0, frequency=3.0, phase=0.0)
        np.testing.assert_array_equal(out[..., :3], np.where(want[..., None], BLUE, RED))


def test_line_horizontal_rows_alternate_in_bands():
    out = np.zeros((40, 64, 3), np.uint8)
    paint_background(out, RED, BLUE, orientation=0, band_width=8.0, waveform="line",
                     amplitude=30.0, frequency=9.0)  # line ignores amplitude
    for i in range(40):
        expected = BLUE if (i // 8) % 2 else RED
        assert (out[i] == expected).all(), i


def test_line_vertical_and_diagonal_bands():
    # 90 deg: d = -x, so columns 0..7 have floor(v) = -1 (odd, holdout), 8..15 color, ...
    mask = stripe_mask(64, 8, orientation=90, band_width=8.0)
    assert (mask == ((np.arange(64) // 8) % 2 == 0)[None, :]).all()
    # 45 deg: bands run down-right, so d = c * (i - j) and each diagonal j - i = k is one band.
    mask = stripe_mask(30, 30, orientation=45, band_width=5.0)
    for k in range(-29, 30):
        assert len(set(np.diagonal(mask, offset=k).tolist())) == 1
    assert mask.any() and not mask.all()


def test_square_wave_shifts_boundary_by_amplitude():
    # 0 deg, square wave with 2 cycles per width: columns in the first half cycle are
    # displaced by +3 px (band boundary moves up by 3), the second half by -3 px.
    width, bw, amp = 40, 10.0, 3.0
    mask = stripe_mask(width, 30, orientation=0, band_width=bw, waveform="square",
                       amplitude=amp, frequency=2.0)
    y = np.arange(30) + 0.5
    for j in range(width):
        shift = amp if ((j + 0.5) * 2.0 / width) % 1.0 < 0.5 else -amp
        assert (mask[:, j] == (np.floor((y + shift) / bw) % 2 == 1)).all(), j


def test_deterministic_bytes():
    """Byte hashes pinned from this implementation: any change of the contract shows here."""
    digests = []
    for waveform in WAVEFORMS:
        out = np.empty((53, 97, 3), np.uint8)
        paint_background(out, RED, BLUE, orientation=45, band_width=6.0, waveform=waveform,
                         amplitude=3.5, frequency=6.0, phase=0.2)
        digests.append(hashlib.sha256(out.tobytes()).hexdigest()[:16])
    assert digests == EXPECTED_DIGESTS


# sha256 prefixes of RED/BLUE 97x53 canvases; the oracle renders the same bytes.
EXPECTED_DIGESTS = [
    "237b51cf839ea154", "6d0982cecafba063", "9b1cf00355fddbd0", "26003fe7b595e7ac",
    "8f0a311fb5cd5a40",
]


def test_module_doctest():
    assert doctest.testmod(stripes).failed == 0


GOOD = dict(orientation=0, band_width=4.0, waveform="sine", amplitude=1.0, frequency=2.0,
            phase=0.0)


@pytest.mark.parametrize(
    "change, words",
    [
        (dict(waveform="zigzag"), ["waveform", "line", "sawtooth"]),
        (dict(waveform=None), ["waveform"]),
        (dict(orientation=30), ["orientation", "(0, 45, 90)"]),
        (dict(orientation=True), ["orientation"]),
        (dict(band_width=0.0), ["band_width", "> 0"]),
        (dict(band_width=-2.0), ["band_width"]),
        (dict(band_width=float("inf")), ["band_width", "finite"]),
        (dict(amplitude=float("nan")), ["amplitude", "finite"]),
        (dict(frequency=float("-inf")), ["frequency", "finite"]),
        (dict(phase="0.5"), ["phase", "finite"]),
    ],
)
def test_bad_geometry_raises(change, words):
    for call in (
        lambda: paint_background(np.zeros((4, 4, 3), np.uint8), RED, BLUE, **{**GOOD, **change}),
        lambda: paint_background(np.zeros((4, 4, 3), np.uint8), RED, None, **{**GOOD, **change}),
        lambda: stripe_mask(4, 4, **{**GOOD, **change}),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert all(word in str(info.value) for word in words), str(info.value)


@pytest.mark.parametrize(
    "out, words",
    [
        (np.zeros((4, 4, 3), np.float32), ["out", "uint8", "float32"]),
        (np.zeros((4, 4), np.uint8), ["out", "(H, W, 3)", "(4, 4)"]),
        (np.zeros((4, 4, 2), np.uint8), ["out", "(H, W, 4)"]),
        (np.zeros((0, 4, 3), np.uint8), ["out", "H, W >= 1"]),
        (np.zeros((4, 8, 3), np.uint8)[:, ::2], ["C-contiguous"]),
        ([[[0, 0, 0]]], ["out", "list"]),
    ],
)
def test_bad_out_raises(out, words):
    with pytest.raises(ValueError) as info:
        paint_background(out, RED, BLUE, **GOOD)
    assert all(word in str(info.value) for word in words), str(info.value)


def test_readonly_out_raises():
    out = np.zeros((4, 4, 3), np.uint8)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        paint_background(out, RED)


BAD_COLORS = [(256, 0, 0), (-1, 0, 0), (1.0, 0, 0), (1, 2), (True, 0, 0), "red", 5]


@pytest.mark.parametrize("bad", [*BAD_COLORS, None])
def test_bad_color_raises(bad):
    with pytest.raises(ValueError, match="color must be an RGB color"):
        paint_background(np.zeros((4, 4, 3), np.uint8), bad, BLUE, **GOOD)


@pytest.mark.parametrize("bad", BAD_COLORS)  # holdout=None is valid: a solid background
def test_bad_holdout_raises(bad):
    with pytest.raises(ValueError, match="holdout must be an RGB color"):
        paint_background(np.zeros((4, 4, 3), np.uint8), RED, bad, **GOOD)


def test_numpy_integer_colors_accepted():
    out = np.zeros((4, 4, 3), np.uint8)
    paint_background(out, tuple(np.uint8(v) for v in RED), np.array(BLUE), **GOOD)
    assert set(map(tuple, out.reshape(-1, 3))) <= {RED, BLUE}


@pytest.mark.parametrize("size", [(0, 4), (4, 0), (4.0, 4), (True, 4)])
def test_bad_mask_size_raises(size):
    with pytest.raises(ValueError, match="int >= 1"):
        stripe_mask(*size, **GOOD)

"""linear_gradient (Numba and torch float64) against the NumPy oracle: bit-identical."""

from __future__ import annotations

import doctest

import numpy as np
import oracles
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paintkit.kernels import gradient as gr

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IMPLS = ["numba"] + [f"torch-{d}" for d in DEVICES]


def run(impl, image, mask, p0, p1, c0, c1):
    if impl == "numba":
        return gr.linear_gradient_numba(image, mask, p0, p1, c0, c1)
    device = impl.removeprefix("torch-")
    out = gr.linear_gradient_torch(torch.from_numpy(image).to(device),
                                   torch.from_numpy(mask).to(device), p0, p1, c0, c1)
    return out.cpu().numpy()


@pytest.mark.parametrize("impl", IMPLS)
def test_horizontal_ramp_and_clamping(impl):
    image = np.zeros((2, 12, 3), np.uint8)
    mask = np.ones((2, 12), bool)
    # axis from x=2 to x=10: columns 0, 1 lie before P0 -> c0; columns 10, 11 past P1 -> c1
    out = run(impl, image, mask, (2, 0), (10, 0), (0, 50, 200), (80, 50, 40))
    t = np.clip((np.arange(12) + 0.5 - 2) / 8, 0, 1)
    np.testing.assert_array_equal(out[0, :, 0], np.floor(0 + t * 80 + 0.5))
    np.testing.assert_array_equal(out[1, :, 2], np.floor(200 + t * -160 + 0.5))
    assert (out[:, :, 1] == 50).all()
    assert out[0, 0].tolist() == [0, 50, 200] and out[0, 11].tolist() == [80, 50, 40]


@pytest.mark.parametrize("impl", IMPLS)
def test_half_way_rounds_up(impl):
    image = np.zeros((1, 2, 3), np.uint8)
    mask = np.ones((1, 2), bool)
    # pixel 0 center x=0.5 is exactly half way along (0, 0) -> (1, 0): t = 0.5
    out = run(impl, image, mask, (0, 0), (1, 0), (0, 0, 254), (1, 255, 255))
    assert out[0, 0].tolist() == [1, 128, 255]


@pytest.mark.parametrize("impl", IMPLS)
def test_vertical_and_diagonal_axes(impl):
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)
    mask = np.ones((16, 16), bool)
    for p0, p1 in [((0, 0), (0, 16)), ((16, 16), (0, 0)), ((3.25, 1.5), (12.75, 14.0))]:
        out = run(impl, image, mask, p0, p1, (255, 0, 10), (0, 255, 10))
        np.testing.assert_array_equal(out, oracles.linear_gradient(image, mask, p0, p1,
                                                                   (255, 0, 10), (0, 255, 10)))
    vertical = run(impl, image, mask, (0, 0), (0, 16), (0, 0, 0), (160, 0, 0))
    assert (vertical[:, :, 0] == vertical[:, :1, 0]).all()  # constant along each row


coordinate = st.floats(-50, 80, allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 24), w=st.integers(1, 24), p0=st.tuples(coordinate, coordinate),
       p1=st.tuples(coordinate, coordinate), seed=st.integers(0, 2**32 - 1))
def test_random_axes_match_oracle_bit_for_bit(impl, h, w, p0, p1, seed):
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    assume(dx * dx + dy * dy > 0)  # a zero-length axis is rejected (tested below)
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    mask = rng.random((h, w)) < 0.7
    mask[rng.integers(h), rng.integers(w)] = True
    c0, c1 = (tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(2))
    np.testing.assert_array_equal(run(impl, image, mask, p0, p1, c0, c1),
                                  oracles.linear_gradient(image, mask, p0, p1, c0, c1))


@pytest.mark.parametrize("impl", IMPLS)
def test_large_canvas_matches_oracle(impl):
    """Canvas-sized coordinates, integer and fractional end points (many near-ties)."""
    rng = np.random.default_rng(11)
    image = rng.integers(0, 256, (200, 300, 3), dtype=np.uint8)
    mask = rng.random((200, 300)) < 0.9
    for p0, p1 in [((0, 0), (300, 200)), ((17, 190), (283.5, 3.25)), ((150, 100), (151, 100))]:
        expected = oracles.linear_gradient(image, mask, p0, p1, (0, 0, 0), (255, 255, 1))
        np.testing.assert_array_equal(run(impl, image, mask, p0, p1, (0, 0, 0), (255, 255, 1)),
                                      expected)


IMAGE = np.zeros((3, 4, 3), np.uint8)
MASK = np.ones((3, 4), bool)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"p1": (1.0, 2.0)}, "distinct points"),
        ({"p1": (1e-200, 2.0)}, "distinct points"),
        ({"p0": (float("nan"), 0)}, "p0 must be 2 finite numbers"),
        ({"p1": (1, 2, 3)}, "p1 must be 2"),
        ({"c1": (0, 0, -1)}, "c1.*RGB"),
        ({"mask": np.zeros((3, 4), bool)}, "mask selects no pixel"),
        ({"image": np.zeros((3, 4, 3, 1), np.uint8)}, "image"),
    ],
)
@pytest.mark.parametrize("fn", ["numpy", "torch"])
def test_validation_errors(fn, kwargs, match):
    args = {"image": IMAGE, "mask": MASK, "p0": (1.0, 2.0), "p1": (3.0, 2.0),
            "c0": (0, 0, 0), "c1": (9, 9, 9), **kwargs}
    if kwargs.get("p1") == (1e-200, 2.0):
        args["p0"] = (0.0, 2.0)
    if fn == "torch":
        args["image"] = torch.from_numpy(args["image"])
        args["mask"] = torch.from_numpy(args["mask"])
    with pytest.raises(ValueError, match=match):
        (gr.linear_gradient_numba if fn == "numpy" else gr.linear_gradient_torch)(**args)


def test_docstring_examples():
    assert doctest.testmod(gr, extraglobs={"np": np}).failed == 0

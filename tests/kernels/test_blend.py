"""blend (Numba LUT pass and torch) against the integer formula in oracles.py."""

from __future__ import annotations

import doctest

import numpy as np
import oracles
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import blend as bl

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IMPLS = ["numba"] + [f"torch-{d}" for d in DEVICES]


def run(impl, image, mask, color, percent):
    if impl == "numba":
        return bl.blend_numba(image, mask, color, percent)
    device = impl.removeprefix("torch-")
    out = bl.blend_torch(torch.from_numpy(image).to(device), torch.from_numpy(mask).to(device),
                         color, percent)
    return out.cpu().numpy()


def one_pixel(value):
    return np.full((1, 1, 3), value, np.uint8), np.ones((1, 1), bool)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize(
    ("percent", "color", "pixel", "expected"),
    [
        (50, 1, 0, 1),  # 0.5 exactly: half up
        (50, 0, 1, 1),
        (50, 255, 0, 128),  # 127.5
        (50, 254, 255, 255),  # 254.5
        (25, 2, 0, 1),  # 0.5
        (75, 0, 2, 1),  # 0.5
        (10, 5, 0, 1),  # 0.5
        (1, 255, 255, 255),
        (99, 0, 255, 3),  # 2.55
        (99, 255, 0, 252),  # 252.45
        (30, 200, 100, 130),
    ],
)
def test_rounding_half_up(impl, percent, color, pixel, expected):
    image, mask = one_pixel(pixel)
    out = run(impl, image, mask, (color, color, color), percent)
    assert out[0, 0].tolist() == [expected] * 3


def test_lookup_tables_exhaustive():
    """Every (percent, color value, pixel value): the tables equal round-half-up of the
    exact rational alpha*color + (1-alpha)*pixel, i.e. floor(x + 1/2) with x = n / 100."""
    values = np.arange(256)
    for percent in range(1, 100):
        luts = np.stack([bl.blend_luts((c, c, c), percent)[0] for c in range(256)])
        n = percent * values[:, None] + (100 - percent) * values[None, :]  # [color, pixel]
        np.testing.assert_array_equal(luts, (2 * n + 100) // 200)


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=40, deadline=None)
@given(h=st.integers(1, 20), w=st.integers(1, 20), percent=st.integers(1, 99),
       seed=st.integers(0, 2**32 - 1))
def test_random_images_match_oracle(impl, h, w, percent, seed):
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    mask = rng.random((h, w)) < 0.6
    mask[rng.integers(h), rng.integers(w)] = True
    color = tuple(int(v) for v in rng.integers(0, 256, 3))
    out = run(impl, image, mask, color, percent)
    np.testing.assert_array_equal(out, oracles.blend(image, mask, color, percent))
    np.testing.assert_array_equal(out[~mask], image[~mask])


def test_input_not_modified_and_views_accepted():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (8, 16, 3), dtype=np.uint8)
    before = image.copy()
    mask = np.ones((8, 8), bool)
    view = image[:, ::2]
    out = bl.blend_numba(view, mask, (10, 20, 30), 40)
    np.testing.assert_array_equal(out, oracles.blend(view, mask, (10, 20, 30), 40))
    np.testing.assert_array_equal(image, before)


IMAGE = np.zeros((4, 5, 3), np.uint8)
MASK = np.ones((4, 5), bool)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"percent": 0}, r"percent.*\[1, 99\].*got 0"),
        ({"percent": 100}, r"percent.*\[1, 99\]"),
        ({"percent": 50.0}, "percent.*float"),
        ({"percent": True}, "percent.*bool"),
        ({"color": (0, 0, 300)}, "color"),
        ({"color": "red"}, "color"),
        ({"mask": np.zeros((4, 5), bool)}, "mask selects no pixel"),
        ({"mask": np.ones((5, 4), bool)}, r"mask.*\(4, 5\).*\(5, 4\)"),
        ({"mask": np.ones((4, 5), np.uint8)}, "mask.*bool.*uint8"),
        ({"image": IMAGE.astype(np.int16)}, "image.*uint8.*int16"),
        ({"image": IMAGE[..., 0]}, r"image.*\(H, W, 3\).*\(4, 5\)"),
    ],
)
@pytest.mark.parametrize("fn", ["numpy", "torch"])
def test_validation_errors(fn, kwargs, match):
    args = {"image": IMAGE, "mask": MASK, "color": (1, 2, 3), "percent": 50, **kwargs}
    if fn == "torch":
        args["image"] = torch.from_numpy(args["image"])
        args["mask"] = torch.from_numpy(args["mask"])
    with pytest.raises(ValueError, match=match):
        (bl.blend_numba if fn == "numpy" else bl.blend_torch)(**args)


def test_docstring_examples():
    assert doctest.testmod(bl, extraglobs={"np": np}).failed == 0

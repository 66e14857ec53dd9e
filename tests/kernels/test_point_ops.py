"""point_operation (Numba and torch) against the integer formulas in oracles.py."""

from __future__ import annotations

import doctest

import numpy as np
import oracles
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import point_ops as po

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IMPLS = ["numba"] + [f"torch-{d}" for d in DEVICES]


def run(impl, image, mask, op, offset=None):
    if impl == "numba":
        return po.point_operation_numba(image, mask, op, offset)
    device = impl.removeprefix("torch-")
    out = po.point_operation_torch(torch.from_numpy(image).to(device),
                                   torch.from_numpy(mask).to(device), op, offset)
    return out.cpu().numpy()


def all_values_image():
    """(256, 3) ramp as a (1, 256, 3) image: every channel value in every channel."""
    return np.repeat(np.arange(256, dtype=np.uint8)[None, :, None], 3, axis=2)


@pytest.mark.parametrize("impl", IMPLS)
def test_invert_and_brightness_every_value(impl):
    image = all_values_image()
    mask = np.ones((1, 256), bool)
    values = np.arange(256)
    assert (run(impl, image, mask, "invert")[0, :, 0] == 255 - values).all()
    for offset in (-255, -254, -100, -1, 0, 1, 37, 255):
        out = run(impl, image, mask, "brightness", offset)
        expected = np.clip(values + offset, 0, 255)
        for ch in range(3):
            np.testing.assert_array_equal(out[0, :, ch], expected)


@pytest.mark.parametrize("impl", IMPLS)
def test_grayscale_known_values_and_ties(impl):
    cases = {
        (0, 0, 0): 0, (255, 255, 255): 255, (1, 0, 0): 0, (2, 0, 0): 1,
        (255, 0, 0): 76, (0, 255, 0): 150, (0, 0, 255): 29, (10, 20, 30): 18,
    }
    # an exact tie (weighted sum = k + 0.5) must round up
    tie = next((r, g, b) for r in range(256) for g in range(4) for b in range(4)
               if (299 * r + 587 * g + 114 * b) % 1000 == 500)
    cases[tie] = (299 * tie[0] + 587 * tie[1] + 114 * tie[2] + 500) // 1000
    assert cases[tie] * 1000 - 500 == 299 * tie[0] + 587 * tie[1] + 114 * tie[2]
    image = np.array([list(cases)], np.uint8)
    out = run(impl, image, np.ones(image.shape[:2], bool), "grayscale")
    assert out[0].tolist() == [[v, v, v] for v in cases.values()]


def test_grayscale_dense_grid():
    """All R and G values with B on a stride-5 grid: Numba equals the oracle."""
    r, g, b = np.meshgrid(np.arange(256), np.arange(256), np.arange(0, 256, 5), indexing="ij")
    image = np.stack([r, g, b], axis=-1).reshape(256, -1, 3).astype(np.uint8)
    mask = np.ones(image.shape[:2], bool)
    np.testing.assert_array_equal(po.point_operation_numba(image, mask, "grayscale"),
                                  oracles.point_operation(image, mask, "grayscale"))


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=40, deadline=None)
@given(h=st.integers(1, 20), w=st.integers(1, 20), op=st.sampled_from(po.OPERATIONS),
       offset=st.integers(-255, 255), seed=st.integers(0, 2**32 - 1))
def test_random_images_match_oracle(impl, h, w, op, offset, seed):
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    mask = rng.random((h, w)) < 0.6
    mask[rng.integers(h), rng.integers(w)] = True
    offset = offset if op == "brightness" else None
    out = run(impl, image, mask, op, offset)
    np.testing.assert_array_equal(out, oracles.point_operation(image, mask, op, offset))
    np.testing.assert_array_equal(out[~mask], image[~mask])


IMAGE = np.zeros((3, 4, 3), np.uint8)
MASK = np.ones((3, 4), bool)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"op": "sepia"}, "op must be one of"),
        ({"op": "brightness"}, "needs offset"),
        ({"op": "invert", "offset": 3}, "offset applies only"),
        ({"op": "brightness", "offset": 256}, r"offset.*\[-255, 255\]"),
        ({"op": "brightness", "offset": 1.5}, "offset.*float"),
        ({"mask": np.zeros((3, 4), bool)}, "mask selects no pixel"),
        ({"mask": np.ones((4, 3), bool)}, "mask.*shape"),
        ({"image": np.zeros((3, 4, 3), np.float64)}, "image.*uint8.*float64"),
    ],
)
@pytest.mark.parametrize("fn", ["numpy", "torch"])
def test_validation_errors(fn, kwargs, match):
    args = {"image": IMAGE, "mask": MASK, "op": "invert", **kwargs}
    if fn == "torch":
        args["image"] = torch.from_numpy(args["image"])
        args["mask"] = torch.from_numpy(args["mask"])
    with pytest.raises(ValueError, match=match):
        (po.point_operation_numba if fn == "numpy" else po.point_operation_torch)(**args)


def test_docstring_examples():
    assert doctest.testmod(po, extraglobs={"np": np}).failed == 0

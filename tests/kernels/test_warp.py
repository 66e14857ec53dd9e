"""warp_affine_nearest (Numba and torch) against the NumPy oracle: bit-identical."""

from __future__ import annotations

import doctest

import numpy as np
import oracles
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import warp as wp

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IMPLS = ["numba"] + [f"torch-{d}" for d in DEVICES]


def run(impl, image, inverse_map, out_size):
    if impl == "numba":
        return wp.warp_affine_nearest_numba(image, inverse_map, out_size)
    t = torch.from_numpy(image).to(impl.removeprefix("torch-"))
    return wp.warp_affine_nearest_torch(t, inverse_map, out_size).cpu().numpy()


def random_image(h, w, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("impl", IMPLS)
def test_identity_and_axis_aligned_crops(impl):
    image = random_image(20, 30)
    identity = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    np.testing.assert_array_equal(run(impl, image, identity, (30, 20)), image)
    for top, left, h, w in [(0, 0, 20, 30), (3, 5, 10, 7), (19, 29, 1, 1), (2, 0, 18, 30)]:
        m = wp.crop_rect_inverse_map((left + w / 2, top + h / 2), w, h, 0, (w, h))
        np.testing.assert_array_equal(run(impl, image, m, (w, h)),
                                      image[top:top + h, left:left + w])
        m_up = wp.crop_rect_inverse_map((left + w / 2, top + h / 2), w, h, 0, (2 * w, 3 * h))
        up = run(impl, image, m_up, (2 * w, 3 * h))  # integer upscaling repeats pixels
        np.testing.assert_array_equal(
            up, image[top:top + h, left:left + w].repeat(3, axis=0).repeat(2, axis=1))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("quarters", [1, 2, 3, 4, -1])
def test_quarter_turn_crops_are_exact_rotations(impl, quarters):
    """A rectangle rotated clockwise by k*90 degrees shows the content turned the other way:
    the output equals np.rot90(crop, k) exactly (exact cos/sin at multiples of 90)."""
    image = random_image(12, 18, seed=1)
    h, w = image.shape[:2]
    out_size = (w, h) if quarters % 2 == 0 else (h, w)
    box = (w, h) if quarters % 2 == 0 else (h, w)  # rectangle sides along its own axes
    m = wp.crop_rect_inverse_map((w / 2, h / 2), box[0], box[1], 90 * quarters, out_size)
    np.testing.assert_array_equal(run(impl, image, m, out_size), np.rot90(image, quarters))


@pytest.mark.parametrize("impl", IMPLS)
def test_out_of_range_clamps_to_edge(impl):
    image = random_image(6, 8, seed=2)
    shift = np.array([[1.0, 0, -3.0], [0, 1.0, 2.0]])  # 3 px left of, 2 px below the image
    out = run(impl, image, shift, (8, 6))
    np.testing.assert_array_equal(out[:4, :3], np.broadcast_to(image[2:6, :1], (4, 3, 3)))
    np.testing.assert_array_equal(out[4:, 3:], np.broadcast_to(image[5:, :5], (2, 5, 3)))
    far = run(impl, image, np.array([[0, 0, 1e12], [0, 0, -1e12]]), (3, 2))
    assert (far == image[0, 7]).all()


finite = st.floats(-3, 3, allow_nan=False)


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=50, deadline=None)
@given(h=st.integers(1, 20), w=st.integers(1, 20), w_out=st.integers(1, 25),
       h_out=st.integers(1, 25), linear=st.tuples(finite, finite, finite, finite),
       offset=st.tuples(st.floats(-30, 30), st.floats(-30, 30)), seed=st.integers(0, 1000))
def test_random_maps_match_oracle(impl, h, w, w_out, h_out, linear, offset, seed):
    image = random_image(h, w, seed)
    m = np.array([[linear[0], linear[1], offset[0]], [linear[2], linear[3], offset[1]]])
    np.testing.assert_array_equal(run(impl, image, m, (w_out, h_out)),
                                  oracles.warp_affine_nearest(image, m, (w_out, h_out)))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("angle", [0.0, 7.5, 33.0, 45.0, 90.0, 137.25, -60.0])
def test_rotated_crops_match_oracle(impl, angle):
    image = random_image(90, 120, seed=3)
    m = wp.crop_rect_inverse_map((61.3, 44.8), 50, 30.5, angle, (64, 40))
    np.testing.assert_array_equal(run(impl, image, m, (64, 40)),
                                  oracles.warp_affine_nearest(image, m, (64, 40)))


def test_crop_map_geometry():
    """Output corners land on the rotated rectangle's corners (clockwise, y down)."""
    m = wp.crop_rect_inverse_map((50.0, 40.0), 20, 10, 30.0, (40, 10))
    a = np.radians(30.0)
    corner = m @ np.array([0.0, 0.0, 1.0])
    expected = np.array([50 - 10 * np.cos(a) + 5 * np.sin(a), 40 - 10 * np.sin(a) - 5 * np.cos(a)])
    np.testing.assert_allclose(corner, expected, atol=1e-12)
    right = wp.crop_rect_inverse_map((0.0, 0.0), 2, 2, 90, (2, 2)) @ np.array([2.0, 1.0, 1.0])
    np.testing.assert_array_equal(right, [0.0, 1.0])  # +x side turned to +y (down)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: wp.warp_affine_nearest_numba(np.zeros((4, 4, 3), np.uint8), np.eye(3), (2, 2)),
         r"inverse_map.*2x3.*\(3, 3\)"),
        (lambda: wp.warp_affine_nearest_numba(np.zeros((4, 4, 3), np.uint8),
                                        np.full((2, 3), np.nan), (2, 2)), "finite"),
        (lambda: wp.warp_affine_nearest_numba(np.zeros((4, 4, 3), np.uint8), np.eye(2, 3), (0, 2)),
         "out_size"),
        (lambda: wp.warp_affine_nearest_numba(np.zeros((4, 4, 3), np.int8), np.eye(2, 3), (2, 2)),
         "image.*uint8.*int8"),
        (lambda: wp.warp_affine_nearest_torch(torch.zeros(4, 4, 3), np.eye(2, 3), (2, 2)),
         "image.*float32"),
        (lambda: wp.crop_rect_inverse_map((1, 1), 0, 2, 0, (2, 2)), "width and height"),
        (lambda: wp.crop_rect_inverse_map((1, 1), 2, 2, float("nan"), (2, 2)), "angle_deg"),
        (lambda: wp.crop_rect_inverse_map((1,), 2, 2, 0, (2, 2)), "center"),
    ],
)
def test_validation_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_docstring_examples():
    assert doctest.testmod(wp, extraglobs={"np": np}).failed == 0

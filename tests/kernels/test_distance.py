"""Exact EDT (Numba, Felzenszwalb-Huttenlocher) against brute force in oracles.py."""

from __future__ import annotations

import doctest
import math

import numpy as np
import oracles
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import distance as ds


def disk(h, w, center, radius):
    i, j = np.indices((h, w))
    return (i - center[0]) ** 2 + (j - center[1]) ** 2 <= radius**2


@settings(max_examples=80, deadline=None)
@given(h=st.integers(1, 28), w=st.integers(1, 28), density=st.floats(0.001, 0.5),
       seed=st.integers(0, 2**32 - 1))
def test_random_masks_match_brute_force(h, w, density, seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((h, w)) < density
    mask[rng.integers(h), rng.integers(w)] = True
    d2 = ds.squared_distance_to_mask(mask)
    assert d2.dtype == np.int64
    np.testing.assert_array_equal(d2, oracles.squared_distance_to_mask(mask))
    dist = ds.distance_to_mask(mask)
    assert dist.dtype == np.float64
    np.testing.assert_array_equal(dist, oracles.distance_to_mask(mask))


def test_concave_shapes():
    """C shape, L shape and a ring: nearest mask pixels across concavities and holes."""
    c_shape = np.zeros((30, 30), bool)
    c_shape[3:27, 3:8] = True
    c_shape[3:8, 3:25] = True
    c_shape[22:27, 3:25] = True
    l_shape = np.zeros((25, 40), bool)
    l_shape[2:23, 30:34] = True
    l_shape[19:23, 2:34] = True
    ring = disk(33, 33, (16, 16), 14) & ~disk(33, 33, (16, 16), 9)
    for mask in (c_shape, l_shape, ring, ~ring):
        np.testing.assert_array_equal(ds.squared_distance_to_mask(mask),
                                      oracles.squared_distance_to_mask(mask))


def test_single_pixel_and_full_mask():
    mask = np.zeros((7, 9), bool)
    mask[2, 3] = True
    i, j = np.indices((7, 9))
    np.testing.assert_array_equal(ds.squared_distance_to_mask(mask), (i - 2) ** 2 + (j - 3) ** 2)
    np.testing.assert_array_equal(ds.distance_to_mask(mask), np.sqrt((i - 2.0) ** 2 + (j - 3) ** 2))
    assert (ds.distance_to_mask(np.ones((5, 6), bool)) == 0).all()
    assert ds.distance_to_mask(np.ones((1, 1), bool)).tolist() == [[0.0]]


def test_roi_exact_inside_and_inf_outside():
    mask = disk(60, 80, (30, 40), 8) | disk(60, 80, (33, 55), 3)
    full = oracles.squared_distance_to_mask(mask)
    roi = (10, 20, 55, 70)
    d2 = ds.squared_distance_to_mask(mask, roi=roi)
    inside = np.zeros(mask.shape, bool)
    inside[10:55, 20:70] = True
    np.testing.assert_array_equal(d2[inside], full[inside])
    assert (d2[~inside] == ds.FAR).all()
    dist = ds.distance_to_mask(mask, roi=roi)
    np.testing.assert_array_equal(dist[inside], np.sqrt(full[inside]))
    assert np.isinf(dist[~inside]).all()


@pytest.mark.parametrize("radius", [0, 1, 1.0, 1.5, 2, 3.7, math.sqrt(2),
                                    float(np.nextafter(math.sqrt(2), 0)), 6.4031242374328485, 9])
def test_within_distance_matches_exact_oracle(radius):
    mask = np.zeros((30, 34), bool)
    mask[12, 15] = True
    mask[2:6, 28:34] = True  # touches the right edge: the window is clipped there
    mask[25:30, 0:3] = True  # bottom-left corner
    ring = ds.within_distance(mask, radius)
    np.testing.assert_array_equal(ring, oracles.within_distance(mask, radius))
    assert not (ring & mask).any()


def test_within_distance_compares_radius_squared_exactly():
    # 6.4031242374328485**2 rounds to 41.0 in float64, but the exact square is < 41: the
    # pixel at offset (5, 4) (squared distance 41) is not within this radius.
    radius = 6.4031242374328485
    assert radius * radius == 41.0
    mask = np.zeros((13, 13), bool)
    mask[6, 6] = True
    ring = ds.within_distance(mask, radius)
    assert not ring[11, 10] and not ring[10, 11] and ring[12, 8]  # d2 = 41, 41, 40
    bigger = float(np.nextafter(radius, 10))
    assert ds.within_distance(mask, bigger)[11, 10]


@settings(max_examples=40, deadline=None)
@given(h=st.integers(1, 24), w=st.integers(1, 24), radius=st.floats(0, 12),
       seed=st.integers(0, 2**32 - 1))
def test_within_distance_random(h, w, radius, seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((h, w)) < 0.05
    mask[rng.integers(h), rng.integers(w)] = True
    np.testing.assert_array_equal(ds.within_distance(mask, radius),
                                  oracles.within_distance(mask, radius))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: ds.distance_to_mask(np.zeros((4, 4), bool)), "mask selects no pixel"),
        (lambda: ds.distance_to_mask(np.ones((4, 4), np.uint8)), "mask.*bool.*uint8"),
        (lambda: ds.distance_to_mask(np.ones((4, 4, 1), bool)), r"mask.*\(4, 4, 1\)"),
        (lambda: ds.distance_to_mask(np.ones((4, 4), bool), roi=(0, 0, 2, 2)),
         "must contain every True pixel"),
        (lambda: ds.distance_to_mask(np.ones((4, 4), bool), roi=(0, 0, 5, 4)), "roi must be"),
        (lambda: ds.distance_to_mask(np.ones((4, 4), bool), roi=(2, 0, 2, 4)), "roi must be"),
        (lambda: ds.within_distance(np.ones((4, 4), bool), -1), "radius"),
        (lambda: ds.within_distance(np.ones((4, 4), bool), float("inf")), "radius"),
        (lambda: ds.within_distance(np.ones((4, 4), bool), True), "radius"),
        (lambda: ds.within_distance(np.zeros((4, 4), bool), 2), "mask selects no pixel"),
    ],
)
def test_validation_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_docstring_examples():
    assert doctest.testmod(ds, extraglobs={"np": np}).failed == 0

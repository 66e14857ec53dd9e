"""flood_fill kernels (Numba and torch) against the BFS oracle in oracles.py."""

from __future__ import annotations

import doctest

import numpy as np
import oracles
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.kernels import flood_fill as ff

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IMPLS = ["numba"] + [f"torch-{d}" for d in DEVICES]
A, B, C = (255, 0, 0), (0, 0, 255), (0, 255, 0)


def region(impl, image, seed):
    if impl == "numba":
        return ff.connected_region_numba(image, seed)
    t = torch.from_numpy(image).to(impl.removeprefix("torch-"))
    return ff.connected_region_torch(t, seed).cpu().numpy()


def fill(impl, image, seed, color):
    if impl == "numba":
        return ff.flood_fill_numba(image, seed, color)
    t = torch.from_numpy(image).to(impl.removeprefix("torch-"))
    return ff.flood_fill_torch(t, seed, color).cpu().numpy()


def labels(impl, mask):
    if impl == "numba":
        return ff.label_components_numba(mask)
    t = torch.from_numpy(mask).to(impl.removeprefix("torch-"))
    return ff.label_components_torch(t).cpu().numpy()


def canvas(h, w, color=B):
    image = np.empty((h, w, 3), np.uint8)
    image[:] = color
    return image


def ring_image(size=41, outer=15, inner=8):
    i, j = np.indices((size, size))
    r2 = (i - size // 2) ** 2 + (j - size // 2) ** 2
    image = canvas(size, size)
    on_ring = (r2 <= outer**2) & (r2 > inner**2)
    image[on_ring] = A
    return image, on_ring, r2 <= inner**2


@pytest.mark.parametrize("impl", IMPLS)
def test_ring_hole_not_reached_from_outside(impl):
    image, on_ring, hole = ring_image()
    outside = region(impl, image, (0, 0))
    assert not outside[hole].any() and not outside[on_ring].any()
    np.testing.assert_array_equal(outside, ~on_ring & ~hole)
    np.testing.assert_array_equal(region(impl, image, (20, 20)), hole)
    np.testing.assert_array_equal(region(impl, image, (20, 20 + 12)), on_ring)


@pytest.mark.parametrize("impl", IMPLS)
def test_region_touching_canvas_edges(impl):
    image = canvas(20, 30)
    image[:, :7] = A  # left edge band, full height
    image[15:, 20:] = A  # bottom-right corner block
    expected = np.zeros((20, 30), bool)
    expected[:, :7] = True
    np.testing.assert_array_equal(region(impl, image, (19, 0)), expected)
    corner = np.zeros((20, 30), bool)
    corner[15:, 20:] = True
    np.testing.assert_array_equal(region(impl, image, (19, 29)), corner)


@pytest.mark.parametrize("impl", IMPLS)
def test_diagonal_bands_stay_separate(impl):
    """45-degree stripes: each band is one component; bands of one color never merge."""
    i, j = np.indices((48, 64))
    band = (i + j) // 6
    image = np.where((band % 2 == 0)[..., None], np.uint8(A), np.uint8(B)).astype(np.uint8)
    for seed in [(0, 0), (10, 11), (47, 63), (30, 2)]:
        np.testing.assert_array_equal(region(impl, image, seed), band == band[seed])


@pytest.mark.parametrize("impl", IMPLS)
def test_single_pixel_full_image_and_diagonal_contact(impl):
    image = canvas(9, 9)
    image[4, 4] = A
    image[5, 5] = A  # touches (4, 4) only diagonally
    single = np.zeros((9, 9), bool)
    single[4, 4] = True
    np.testing.assert_array_equal(region(impl, image, (4, 4)), single)
    assert region(impl, image, (0, 0)).sum() == 81 - 2
    assert region(impl, canvas(9, 9), (3, 7)).all()
    checker = np.where(((np.indices((8, 8)).sum(0)) % 2 == 0)[..., None], np.uint8(A),
                       np.uint8(B)).astype(np.uint8)
    assert region(impl, checker, (3, 5)).sum() == 1
    assert region(impl, canvas(1, 1), (0, 0)).all()


@pytest.mark.parametrize("impl", IMPLS)
def test_serpentine_many_turns(impl):
    """A one-pixel corridor that turns at every wall (worst case for label propagation)."""
    n = 31
    wall = np.zeros((n, n), bool)
    for r in range(1, n, 2):
        wall[r, :] = True
        wall[r, n - 1 if (r // 2) % 2 == 0 else 0] = False  # gap alternates right / left
    image = canvas(n, n)
    image[wall] = A
    np.testing.assert_array_equal(region(impl, image, (0, 0)), ~wall)
    np.testing.assert_array_equal(labels(impl, wall), oracles.label_components(wall))


@pytest.mark.parametrize("impl", IMPLS)
@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 24), w=st.integers(1, 24), n_colors=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1))
def test_random_images_match_oracle(impl, h, w, n_colors, seed):
    rng = np.random.default_rng(seed)
    palette = np.array([A, B, C], np.uint8)[:n_colors]
    image = palette[rng.integers(0, n_colors, (h, w))]
    start = (int(rng.integers(h)), int(rng.integers(w)))
    np.testing.assert_array_equal(region(impl, image, start),
                                  oracles.connected_region(image, start))
    color = tuple(int(v) for v in rng.integers(0, 256, 3))
    np.testing.assert_array_equal(fill(impl, image, start, color),
                                  oracles.flood_fill(image, start, color))
    mask = rng.random((h, w)) < rng.random()
    np.testing.assert_array_equal(labels(impl, mask), oracles.label_components(mask))


@pytest.mark.parametrize("impl", IMPLS)
def test_label_components_numbering(impl):
    mask = np.array([[0, 1, 0, 1],
                     [1, 1, 0, 0],
                     [0, 0, 1, 1],
                     [1, 0, 1, 0]], bool)
    expected = np.array([[0, 1, 0, 2],
                         [1, 1, 0, 0],
                         [0, 0, 3, 3],
                         [4, 0, 3, 0]], np.int32)
    out = labels(impl, mask)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, expected)
    assert not labels(impl, np.zeros((3, 5), bool)).any()


def test_flood_fill_copies_and_accepts_views():
    image = canvas(10, 12)
    before = image.copy()
    out = ff.flood_fill_numba(image, (0, 0), A)
    assert (out == np.uint8(A)).all() and (image == before).all()
    view = np.concatenate([image, image], axis=1)[:, ::2]  # non-contiguous
    assert ff.connected_region_numba(view, (2, 3)).all()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: ff.connected_region_numba(np.zeros((4, 4, 3), np.float32), (0, 0)), "image.*uint8"),
        (lambda: ff.connected_region_numba(np.zeros((4, 4), np.uint8), (0, 0)), r"\(H, W, 3\)"),
        (lambda: ff.connected_region_numba(np.zeros((4, 4, 4), np.uint8), (0, 0)), r"\(4, 4, 4\)"),
        (lambda: ff.connected_region_numba(np.zeros((4, 4, 3), np.uint8), (4, 0)), "seed.*row"),
        (lambda: ff.connected_region_numba(np.zeros((4, 4, 3), np.uint8), (0.0, 1)), "seed"),
        (lambda: ff.flood_fill_numba(np.zeros((4, 4, 3), np.uint8), (0, 0), (0, 0, 256)), "color"),
        (lambda: ff.flood_fill_numba(np.zeros((4, 4, 3), np.uint8), (0, 0), (0, 0)), "color"),
        (lambda: ff.label_components_numba(np.zeros((4, 4), np.uint8)), "mask.*bool"),
        (lambda: ff.connected_region_torch(torch.zeros(4, 4, 3), (0, 0)), "image.*float32"),
        (lambda: ff.label_components_torch(torch.zeros(2, 4, 4, dtype=torch.bool)), "mask"),
    ],
)
def test_validation_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_docstring_examples():
    assert doctest.testmod(ff, extraglobs={"np": np}).failed == 0

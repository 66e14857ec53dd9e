"""Every kernel against the canonical NumPy oracle (docs/metric-definition.md §9)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.kernels.color.lab import LINEAR_LUT, srgb_to_lab_numba, srgb_to_lab_torch
from paintkit.kernels.counting.bins import counts_from_histograms
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch
from paintkit.kernels.diff_image import DIFF_COLORS, diff_image, diff_image_from_bins
from paintkit.kernels.normalize import normalize_output_numba, normalize_output_torch
from tests.support import metric_oracle as oracle
from tests.support.metric_images import adversarial_problem, palette_pair

BACKENDS = ("numba", "torch")


def histograms(backend, out, ans, inp, **kw):
    if backend == "numba":
        return tolerance_histograms_numba(out, ans, inp, **kw)
    res = tolerance_histograms_torch(*(torch.from_numpy(x) for x in (out, ans, inp)), **kw)
    return tuple(r.numpy() for r in res) if isinstance(res, tuple) else res.numpy()


def assert_matches_oracle(counts, k, out, ans, inp):
    """Counts equal the oracle's exactly; returns how many pixels lie within 1e-3 of an
    integer tolerance (the ones a non-canonical arithmetic could count otherwise)."""
    ref = oracle.problem_stats(out, ans, inp)
    near_oa, near_oi = oracle.near_integer_pixels(out, ans, inp)
    assert counts["edit_pixels"][k] == ref["edit_pixels"]
    assert counts["preservation_pixels"][k] == ref["preservation_pixels"]
    for t in range(11):
        r = ref["cie76_threshold"][str(t)]
        assert int(counts["edit_correct"][k, t]) == r["edit_correct_pixels"]
        assert int(counts["preservation_correct"][k, t]) == r["preservation_correct_pixels"]
        assert int(counts["changed"][k, t]) == r["changed_pixels"]
    return near_oa, near_oi


def test_linear_lut_is_the_canonical_table_in_float32():
    assert np.array_equal(LINEAR_LUT.view(np.uint32),
                          oracle.LINEAR.astype(np.float32).view(np.uint32))


def _lab_within_contract(allc):
    ref = oracle.lab(allc)
    assert np.abs(srgb_to_lab_numba(allc) - ref).max() < 2e-4
    assert np.abs(srgb_to_lab_torch(torch.from_numpy(allc)).numpy() - ref).max() < 2e-4


def test_lab_within_contract_on_random_colours(rng):
    # Lab within 2e-4 of the oracle, so ΔE moves by well under the 1e-3 of SPEC 1.9.
    _lab_within_contract(rng.integers(0, 256, (1, 200_000, 3)).astype(np.uint8))


@pytest.mark.slow
def test_lab_within_contract_on_every_8bit_colour():
    _lab_within_contract(np.stack(np.meshgrid(*(np.arange(256, dtype=np.uint8),) * 3,
                                              indexing="ij"), -1).reshape(1, -1, 3))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (5, 1), (13, 29), (64, 48)])
def test_random_and_palette_images(backend, shape, rng):
    h, w = shape
    batch = []
    for kind in range(4):
        inp, ans = palette_pair(rng, h, w)
        if kind == 0:  # uniformly random output
            out = rng.integers(0, 256, inp.shape).astype(np.uint8)
        elif kind == 1:  # small perturbations of the answer
            out = np.clip(ans.astype(int) + rng.integers(-4, 5, ans.shape), 0, 255)
            out = out.astype(np.uint8)
        elif kind == 2:
            out = ans.copy()
        else:
            out = inp.copy()
        batch.append((out, ans, inp))
    out, ans, inp = (np.stack(x) for x in zip(*batch, strict=True))
    counts = counts_from_histograms(histograms(backend, out, ans, inp))
    for k in range(len(batch)):
        assert_matches_oracle(counts, k, out[k], ans[k], inp[k])


@pytest.mark.parametrize("backend", BACKENDS)
def test_colours_next_to_integer_tolerances(backend, rng):
    inp, ans, out = adversarial_problem(rng, 24, 24)
    counts = counts_from_histograms(histograms(backend, out[None], ans[None], inp[None]))
    near_oa, _ = assert_matches_oracle(counts, 0, out, ans, inp)
    assert near_oa < out.shape[0] * out.shape[1] // 4  # the test really is near integers


@pytest.mark.parametrize("backend", BACKENDS)
def test_edge_cases(backend, rng):
    inp, ans = palette_pair(rng, 9, 11)
    cases = [(inp, inp, inp),  # |E| = 0, identical images
             (ans, ans, inp)]  # perfect output
    full = rng.integers(0, 256, inp.shape).astype(np.uint8)
    cases.append((full, 255 - full, full))  # |P| = 0 (every pixel edited)
    for out, a, i in cases:
        counts = counts_from_histograms(histograms(backend, out[None], a[None], i[None]))
        assert_matches_oracle(counts, 0, out, a, i)
    empty = np.zeros((0, 4, 4, 3), np.uint8)
    assert histograms(backend, empty, empty, empty).shape == (0, 3, 12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bins_and_diff_images(backend, rng):
    inp, ans = palette_pair(rng, 12, 10)
    out = np.clip(ans.astype(int) + rng.integers(-5, 6, ans.shape), 0, 255).astype(np.uint8)
    _, bins = histograms(backend, out[None], ans[None], inp[None], return_bins=True)
    de = oracle.delta_e(oracle.lab(out), oracle.lab(ans))
    edit = (ans != inp).any(-1)
    for t in (0, 2, 5, 10):
        img = diff_image_from_bins(edit, bins[0], t)
        expected = DIFF_COLORS[(~edit).astype(int) + 2 * (de > t).astype(int)]
        assert np.array_equal(img, expected)
    tensor_img = diff_image(torch.from_numpy(edit), torch.from_numpy(de <= 3)).numpy()
    assert np.array_equal(tensor_img, diff_image(edit, de <= 3))
    assert tuple(DIFF_COLORS[0]) == (0, 128, 0) and tuple(DIFF_COLORS[3]) == (255, 165, 0)


def test_normalisation_is_byte_identical_to_pillow(rng):
    for _ in range(150):
        w_o, h_o, w_a, h_a = (int(v) for v in rng.integers(1, 120, 4))
        img = rng.integers(0, 256, (h_o, w_o, 3)).astype(np.uint8)
        scale = max(w_a / w_o, h_a / h_o)
        n_w, n_h = math.ceil(w_o * scale), math.ceil(h_o * scale)
        x, y = (n_w - w_a) // 2, (n_h - h_a) // 2
        ref = np.asarray(Image.fromarray(img).resize((n_w, n_h), Image.NEAREST)
                         .crop((x, y, x + w_a, y + h_a)))
        assert np.array_equal(normalize_output_numba(img, (w_a, h_a)), ref)
        assert np.array_equal(normalize_output_torch(torch.from_numpy(img), (w_a, h_a)).numpy(),
                              ref)

"""Adversarial tests for the fast paths of the metric kernels (SPEC 1.9).

The Numba kernel skips work row by row (O == A == I rows, O == I rows, answer/input rows
that repeat) and converts colours with a bit-trick cube root; the torch kernel works in
pixel chunks and skips 8-pixel groups where O == A == I. Each
shortcut is exercised here against the float32 oracle.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from test_metrics_kernels import assert_matches_oracle

from paintkit.kernels.color.lab import cbrt_fast
from paintkit.kernels.counting.bins import NUM_BINS, counts_from_histograms
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch
from tests.support import metric_oracle as oracle
from tests.support.metric_images import adversarial_problem, palette_pair

# (backend, torch max_pixels_per_step): chunks of several problems, of part of a problem,
# of a size that is not a multiple of 8 (no group shortcut) and, for torch, with the
# answers' and inputs' Lab precomputed.
VARIANTS = [("numba", None), ("torch", None), ("torch", 61), ("torch", 256), ("torch-lab", 128)]


def run(variant, out, ans, inp, return_bins=False):
    backend, step = variant
    if backend == "numba":
        return tolerance_histograms_numba(out, ans, inp, return_bins=return_bins)
    o, a, i = (torch.from_numpy(x) for x in (out, ans, inp))
    if backend == "torch-lab":
        from paintkit.kernels.color.lab_table import srgb_to_lab_exact
        from paintkit.kernels.counting.cie76_torch import changed_mask_torch

        res = tolerance_histograms_torch(o, a, i, lab_answers=srgb_to_lab_exact(a),
                                         lab_inputs=srgb_to_lab_exact(i),
                                         edit_mask=changed_mask_torch(a, i),
                                         return_bins=return_bins, max_pixels_per_step=step)
    else:
        res = tolerance_histograms_torch(o, a, i, return_bins=return_bins,
                                         max_pixels_per_step=step)
    return tuple(r.numpy() for r in res) if isinstance(res, tuple) else res.numpy()


def row_mixture(rng, h=40, w=24):
    """A problem whose output rows take every row-level shortcut of the Numba kernel."""
    inp, ans = palette_pair(rng, h, w, n_rects=3)
    inp[5:9] = inp[4]  # repeated input and answer rows
    ans[5:9] = ans[4]
    ans[20:24] = inp[20:24]  # rows with A == I
    out = ans.copy()
    for y in range(h):
        kind = y % 5
        if kind == 1:
            out[y] = inp[y]  # O == I
        elif kind == 2:  # noise: every pixel a new colour
            out[y] = rng.integers(0, 256, (w, 3))
        elif kind == 3:  # the answer, one pixel off by one unit (ΔE well below 1)
            out[y, rng.integers(w), rng.integers(3)] ^= 1
        elif kind == 4:  # the answer +-2, a few pixels left equal
            noisy = np.clip(ans[y].astype(int) + rng.integers(-2, 3, (w, 3)), 0, 255)
            keep = rng.random(w) < 0.3
            out[y] = np.where(keep[:, None], ans[y], noisy)
    return out, ans, inp


def test_cbrt_fast_is_within_two_ulp(rng):
    from numba import njit

    t = np.concatenate([rng.uniform(0.008, 1.2, 200_000),
                        np.geomspace(0.008856, 1.1, 50_000)]).astype(np.float32)

    @njit
    def all_roots(x):
        out = np.empty_like(x)
        for k in range(x.size):
            out[k] = cbrt_fast(x[k])
        return out

    got = all_roots(t).astype(np.float64)
    exact = np.cbrt(t.astype(np.float64))
    assert np.max(np.abs(got - exact) / exact) < 2.5e-7  # float32 ulp is 6e-8 .. 1.2e-7


@pytest.mark.parametrize("variant", VARIANTS)
def test_row_and_group_shortcuts_match_the_oracle(variant, rng):
    problems = [row_mixture(rng) for _ in range(3)]
    problems.append(adversarial_problem(rng, 40, 24)[::-1])  # (out, ans, inp) order below
    out, ans, inp = (np.stack(x) for x in zip(*problems, strict=True))
    counts = counts_from_histograms(run(variant, out, ans, inp))
    for k in range(len(problems)):
        assert_matches_oracle(counts, k, out[k], ans[k], inp[k])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shape", [(40, 24), (7, 13), (1, 67)])
def test_equal_pixels_are_exactly_delta_e_zero(variant, shape, rng):
    # The precision contract would let ΔE = 0 pixels differ (0 is an integer); the kernels
    # still must put exactly the pixels with O == A in bin 0 and every other pixel above it
    # (distinct 8-bit colours are > 0.02 apart), on every shortcut and chunk boundary.
    h, w = shape
    batch = []
    for _ in range(3):
        inp, ans = palette_pair(rng, h, w)
        out = rng.integers(0, 256, ans.shape).astype(np.uint8)
        eq_a = rng.random((h, w)) < 0.4
        eq_i = ~eq_a & (rng.random((h, w)) < 0.3)
        out[eq_a] = ans[eq_a]
        out[eq_i] = inp[eq_i]
        batch.append((out, ans, inp))
    out, ans, inp = (np.stack(x) for x in zip(*batch, strict=True))
    hist, bins = run(variant, out, ans, inp, return_bins=True)
    same_a = (out == ans).all(-1)
    same_i = (out == inp).all(-1)
    edit = (ans != inp).any(-1)
    assert np.array_equal(bins == 0, same_a)
    assert np.array_equal(hist[:, 0, 0], (same_a & edit).sum(axis=(1, 2)))
    assert np.array_equal(hist[:, 1, 0], (same_a & ~edit).sum(axis=(1, 2)))
    assert np.array_equal(hist[:, 2, 0], same_i.sum(axis=(1, 2)))
    de = oracle.delta_e(oracle.lab(out), oracle.lab(ans))
    far = np.abs(de - np.round(de)) > 1e-3
    assert np.array_equal(bins[far], np.minimum(np.ceil(de[far]), NUM_BINS - 1))


@pytest.mark.parametrize("step", [8, 64, 960, 961, 4000])
def test_torch_chunkings(step, rng):
    out, ans, inp = (np.stack(x) for x in zip(*[row_mixture(rng) for _ in range(4)],
                                               strict=True))
    counts = counts_from_histograms(run(("torch", step), out, ans, inp))
    for k in range(len(out)):
        assert_matches_oracle(counts, k, out[k], ans[k], inp[k])


@pytest.mark.parametrize("step", [None, 96])
def test_torch_group_shortcut(step, monkeypatch, rng):
    import paintkit.kernels.counting.cie76_torch as tct

    converted = []
    original = tct.lab_of_codes
    monkeypatch.setattr(tct, "lab_of_codes",
                        lambda codes, *a: converted.append(codes.numel()) or original(codes, *a))
    batch = []
    for _ in range(3):  # mostly O == A == I; scattered changed pixels, an O == I block
        inp, ans = palette_pair(rng, 32, 24)
        out = ans.copy()
        out[:6, :8] = inp[:6, :8]
        ys, xs = rng.integers(0, 32, 20), rng.integers(0, 24, 20)
        out[ys[:10], xs[:10]] ^= np.uint8(1)
        out[ys[10:], xs[10:]] = rng.integers(0, 256, (10, 3))
        batch.append((out, ans, inp))
    out, ans, inp = (np.stack(x) for x in zip(*batch, strict=True))
    hist, bins = run(("torch", step), out, ans, inp, return_bins=True)
    assert 0 < sum(converted) < out[..., 0].size // 2
    counts = counts_from_histograms(hist)
    for k in range(len(batch)):
        assert_matches_oracle(counts, k, out[k], ans[k], inp[k])
    assert np.array_equal(bins, run(("numba", None), out, ans, inp, return_bins=True)[1])


def test_torch_many_tiny_problems_keep_an_exact_index(rng):
    # 70,000 one-pixel problems fit one chunk by size; the combined float32 index must stay
    # below 2^24 (odd indices above it round), so a chunk holds fewer problems.
    n = 70_000
    ans = rng.integers(0, 256, (n, 1, 1, 3)).astype(np.uint8)
    inp = ans.copy()
    inp[::3] = 255 - inp[::3]
    out = np.clip(ans.astype(int) + rng.integers(-9, 10, ans.shape), 0, 255).astype(np.uint8)
    hist = run(("torch", None), out, ans, inp)
    flat = (x.reshape(n, 3) for x in (out, ans, inp))
    o, a, i = flat
    expected = []
    for ref in (a, i):
        de = oracle.delta_e(oracle.lab(o), oracle.lab(ref))
        expected.append((np.minimum(np.ceil(de), NUM_BINS - 1).astype(int),
                         np.abs(de - np.round(de)) > 1e-3))
    edit = (a != i).any(-1)
    (bin_oa, far_oa), (bin_oi, far_oi) = expected
    k = np.arange(n)
    assert np.array_equal(hist[k, np.where(edit, 0, 1), bin_oa][far_oa], np.ones(far_oa.sum()))
    assert np.array_equal(hist[k, 2, bin_oi][far_oi], np.ones(far_oi.sum()))
    assert np.array_equal(hist.sum(axis=2), np.stack([edit, ~edit, edit | ~edit], 1))

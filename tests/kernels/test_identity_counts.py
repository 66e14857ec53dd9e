"""identity_counts: edit pixels and ΔE(I, A) bins of the "do nothing" output, exactly.

Checked against the metric's definition written out in NumPy (tests/support/metric_oracle)
and against the metric's own counting kernel with the output set to the input, on images
whose widths do and do not fill whole 8-pixel words, on colour pairs next to an integer ΔE
and on images with more distinct pairs than the kernel caches.
"""

import numpy as np
import pytest

from paintkit.kernels.counting.bins import HIST_EDIT
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.identity import _MAX_PAIRS, identity_counts
from paintkit.tasks.base import identity_check
from tests.support import metric_oracle as oracle
from tests.support.metric_images import near_integer_colors, palette_pair


def oracle_counts(inp, ans):
    """docs/metric-definition.md §4-5 in NumPy: ``(|E|, bins of min(ceil(ΔE(I, A)), 11))``."""
    edit = np.any(inp != ans, axis=-1)
    d = oracle.delta_e(oracle.lab(inp[edit]), oracle.lab(ans[edit]))
    bins = np.minimum(np.ceil(d), 11).astype(np.int64)
    return int(edit.sum()), np.bincount(bins, minlength=12)


def metric_kernel_counts(inp, ans):
    hist = tolerance_histograms_numba(inp[None], ans[None], inp[None])[0, HIST_EDIT]
    return int(hist.sum()), hist


def assert_exact(inp, ans):
    edit, hist = identity_counts(inp, ans)
    want_edit, want_hist = oracle_counts(inp, ans)
    assert edit == want_edit
    assert hist.tolist() == want_hist.tolist()
    assert (edit, hist.tolist()) == tuple(
        v.tolist() if isinstance(v, np.ndarray) else v for v in metric_kernel_counts(inp, ans))


@pytest.mark.parametrize("width", [1, 7, 8, 53, 64, 100])
def test_palette_images_equal_the_oracle_and_the_metric_kernel(width):
    rng = np.random.default_rng(width)
    for _ in range(6):
        inp, ans = palette_pair(rng, 37, width)
        assert_exact(inp, ans)


def test_single_byte_edits_at_every_position_of_a_word():
    """Edits in the first, middle and last pixel of 8-pixel groups and in the tail."""
    rng = np.random.default_rng(3)
    for width in (16, 24, 29):
        inp = np.full((6, width, 3), 90, np.uint8)
        for x in range(width):
            ans = inp.copy()
            ans[x % 6, x, rng.integers(3)] ^= np.uint8(1 << rng.integers(8))
            assert_exact(inp, ans)


def test_colours_next_to_an_integer_delta_e():
    """ΔE within 1e-2 of 1..10: bins decided by the canonical arithmetic alone."""
    rng = np.random.default_rng(4)
    a, b = near_integer_colors(rng, n=256)
    inp, ans = a.reshape(16, 16, 3), b.reshape(16, 16, 3)
    assert_exact(inp, ans)
    assert_exact(ans, inp)


@pytest.mark.parametrize("pairs", [_MAX_PAIRS // 2 + 5, _MAX_PAIRS - 3, _MAX_PAIRS + 1, 20000])
def test_many_distinct_pairs_fill_the_cache_or_hand_over(pairs):
    """Past half the table new pairs are computed uncached; past the pair budget the
    metric's own kernel counts (noise, photographs)."""
    rng = np.random.default_rng(pairs)
    inp = rng.integers(0, 256, (pairs, 3), dtype=np.uint8)
    ans = rng.integers(0, 256, (pairs, 3), dtype=np.uint8)
    width = 64
    rows = -(-pairs // width)
    inp = np.resize(inp, (rows * width, 3)).reshape(rows, width, 3)
    ans = np.resize(ans, (rows * width, 3)).reshape(rows, width, 3)
    assert_exact(inp, ans)


def test_identical_images_and_empty_images():
    inp = np.full((5, 9, 3), 17, np.uint8)
    edit, hist = identity_counts(inp, inp.copy())
    assert edit == 0 and hist.tolist() == [0] * 12
    assert identity_check(inp, inp) == (0, 0.0)
    assert identity_counts(np.zeros((0, 4, 3), np.uint8), np.zeros((0, 4, 3), np.uint8))[0] == 0


def test_non_contiguous_inputs():
    rng = np.random.default_rng(5)
    inp, ans = palette_pair(rng, 20, 48)
    assert identity_counts(inp[:, ::2], ans[:, ::2])[1].tolist() == \
        oracle_counts(inp[:, ::2], ans[:, ::2])[1].tolist()


def test_identity_check_gives_the_mean_iou_of_the_oracle():
    rng = np.random.default_rng(6)
    inp, ans = palette_pair(rng, 30, 40)
    edit, miou = identity_check(inp, ans)
    expected = oracle.problem_stats(inp, ans, inp)["cie76_mean"]["iou"]
    assert edit == int(np.any(inp != ans, axis=-1).sum())
    assert miou == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("bad, match", [
    (np.zeros((4, 4, 3), np.float32), "uint8"),
    (np.zeros((4, 4), np.uint8), "shape"),
    (np.zeros((4, 4, 4), np.uint8), "shape"),
    (np.zeros((4, 5, 3), np.uint8), "shape"),
    ([[0, 0, 0]], "uint8"),
])
def test_bad_input_is_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        identity_counts(np.zeros((4, 4, 3), np.uint8), bad)

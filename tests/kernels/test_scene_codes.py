"""decode_codes / renders_exactly against a plain NumPy reading of the code-render rules:
element number ``(code + 1) // 2``, the image is ``palette[code]`` (the background where
code is 0), a code past ``2n`` is never exact."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from paintkit.kernels.scene_codes import decode_codes, index_dtype, renders_exactly


def oracle(words, n, palette=None, background=None, image=None):
    codes = words.astype(np.int64) & 0xFFFFFF
    index = (codes + 1) // 2
    area = np.zeros(n + 1, np.int64)
    boxes = np.zeros((n + 1, 4), np.int64)
    for k in range(1, n + 1):
        ys, xs = np.nonzero(index == k)
        area[k] = ys.size
        if ys.size:
            boxes[k] = ys.min(), xs.min(), ys.max(), xs.max()
    exact = bool((codes <= 2 * n).all())
    if image is not None:
        painted = palette[np.minimum(codes, 2 * n)]
        bg = np.broadcast_to(background[..., :3], image.shape)
        painted = np.where((codes == 0)[..., None], bg, painted)
        exact = exact and bool((painted == image).all())
    index[codes > 2 * n] = 0
    return index, area, boxes, exact


def _case(rng, h, w, n, striped):
    """Words with runs (like a render: long stretches of one code), a palette, a
    background and the image they paint."""
    words = np.zeros((h, w), np.uint32)
    for _ in range(3 * n + 2):
        y, x = rng.integers(h), rng.integers(w)
        words[y:y + rng.integers(1, h + 1), x:x + rng.integers(1, w + 1)] = rng.integers(0, 2 * n + 1)
    words |= np.uint32(255 << 24)  # the alpha byte of the RGBA word is ignored
    palette = rng.integers(0, 256, (2 * n + 1, 3), dtype=np.uint8)
    if striped:
        background = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    else:
        background = rng.integers(0, 256, (1, 1, 3), dtype=np.uint8)
    codes = words & 0xFFFFFF
    image = np.where((codes == 0)[..., None], np.broadcast_to(background[..., :3], (h, w, 3)),
                     palette[codes]).astype(np.uint8)
    return words, palette, background, image


@pytest.mark.parametrize("striped", [False, True])
@pytest.mark.parametrize("h, w, n", [(1, 1, 1), (7, 300, 3), (64, 33, 20), (3, 5, 300)])
def test_decode_matches_the_oracle(striped, h, w, n):
    rng = np.random.default_rng(h * 1000 + w + n + striped)
    words, palette, background, image = _case(rng, h, w, n, striped)
    index, area, boxes, exact = decode_codes(words, n, palette, background, image)
    want = oracle(words, n, palette, background, image)
    assert index.dtype == index_dtype(n)
    np.testing.assert_array_equal(index, want[0])
    np.testing.assert_array_equal(area, want[1])
    np.testing.assert_array_equal(boxes, want[2])
    assert exact and want[3]
    assert renders_exactly(words, n, palette, background, image)
    # one changed channel of one pixel is not exact, wherever it is
    for _ in range(5):
        y, x, c = rng.integers(h), rng.integers(w), rng.integers(3)
        bad = image.copy()
        bad[y, x, c] ^= 1
        assert not decode_codes(words, n, palette, background, bad)[3]
        assert not renders_exactly(words, n, palette, background, bad)


def test_decode_without_an_image_and_codes_past_the_scene():
    rng = np.random.default_rng(3)
    words, *_ = _case(rng, 40, 50, 4, False)
    words[5, 7:12] = 9 | (255 << 24)  # 9 > 2n: no element of a 4-element scene draws it
    index, area, boxes, exact = decode_codes(words, 4)
    want = oracle(words, 4)
    np.testing.assert_array_equal(index, want[0])
    np.testing.assert_array_equal(area, want[1])
    np.testing.assert_array_equal(boxes, want[2])
    assert not exact and not want[3]


@pytest.mark.parametrize("threads", [1, 2])
def test_bands_join_to_the_same_boxes(threads):
    """Areas and boxes are counted per row band and joined: any thread count, any band
    split (more bands than rows too) gives the oracle's."""
    rng = np.random.default_rng(threads)
    words, palette, background, image = _case(rng, 97, 61, 12, False)
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        got = decode_codes(words, 12, palette, background, image)
    finally:
        numba.set_num_threads(before)
    want = oracle(words, 12, palette, background, image)
    for g, w in zip(got[:3], want[:3], strict=True):
        np.testing.assert_array_equal(g, w)


def test_index_dtype_holds_every_element_number():
    assert index_dtype(0) is np.uint8 and index_dtype(255) is np.uint8
    assert index_dtype(256) is np.uint16 and index_dtype(65535) is np.uint16
    assert index_dtype(65536) is np.int32


@pytest.mark.parametrize("kwargs, match", [
    ({"words": np.zeros((4, 4), np.int32)}, "words"),
    ({"image": np.zeros((4, 5, 3), np.uint8)}, "image"),
    ({"palette": np.zeros((4, 3), np.uint8)}, "palette"),
    ({"background": np.zeros((2, 2, 3), np.uint8)}, "background"),
    ({"palette": None}, "palette and background"),
])
def test_bad_arguments_are_named(kwargs, match):
    args = {"words": np.zeros((4, 4), np.uint32), "n_elements": 2,
            "palette": np.zeros((5, 3), np.uint8), "background": np.zeros((1, 1, 3), np.uint8),
            "image": np.zeros((4, 4, 3), np.uint8), **kwargs}
    with pytest.raises(ValueError, match=match):
        decode_codes(**args)

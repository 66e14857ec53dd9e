"""PNG encoding is lossless for every encoder, on random and real benchmark images."""

import io

import imagecodecs
import numpy as np
import pytest
from PIL import Image

from paintkit.io.png_encode import ENCODERS, encode_png, encoder_info, resolve_encoder
from paintkit.slots import generate_slot


def _images():
    rng = np.random.default_rng(0)
    yield rng.integers(0, 256, (1, 1, 3), dtype=np.uint8)
    yield rng.integers(0, 256, (7, 3, 3), dtype=np.uint8)
    yield rng.integers(0, 256, (64, 97, 3), dtype=np.uint8)
    yield np.full((33, 20, 3), 255, np.uint8)
    problem = generate_slot("translation", "striped", None, 0)
    yield problem.input
    yield generate_slot("translation", "horizontal", None, 1).answer
    yield problem.input[::2, 1::3]  # not C-contiguous


@pytest.mark.parametrize("encoder", ENCODERS)
def test_round_trip_is_exact(encoder):
    for image in _images():
        data = encode_png(image, encoder)
        assert np.array_equal(np.asarray(Image.open(io.BytesIO(data)).convert("RGB")), image)
        assert np.array_equal(imagecodecs.png_decode(data), image)


def test_default_is_deterministic_and_described():
    image = next(iter(_images()))
    assert encode_png(image) == encode_png(image)
    info = encoder_info()
    assert info["name"] == resolve_encoder("auto") and "version" in info


@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.uint8), np.zeros((4, 4, 4), np.uint8),
                                 np.zeros((4, 4, 3), np.float32), np.zeros((0, 4, 3), np.uint8)])
def test_bad_arrays_are_refused(bad):
    with pytest.raises(ValueError, match=r"uint8 \(H, W, 3\)"):
        encode_png(bad)


def test_unknown_encoder_lists_allowed():
    with pytest.raises(ValueError, match="allowed: auto, zlibng, zlib, pillow"):
        encode_png(np.zeros((2, 2, 3), np.uint8), "jpeg")

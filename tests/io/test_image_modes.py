"""Every mode a Pillow decoder returns from a file decodes as documented (paintkit/io/
images.py): 16-bit grayscale keeps its high byte, everything else is ``convert("RGB")``
(issue 23, item 5: a 16-bit PGM, Pillow mode ``I``, decoded as white)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from paintkit.io.images import load_rgb


def _pgm(maxval: int, values, plain: bool = False) -> bytes:
    if plain:
        return f"P2\n{len(values)} 1\n{maxval}\n{' '.join(map(str, values))}\n".encode()
    return f"P5\n{len(values)} 1\n{maxval}\n".encode() + b"".join(
        int(v).to_bytes(2, "big") for v in values)


@pytest.mark.parametrize("plain", [False, True])
def test_16_bit_pgm_keeps_its_high_byte(plain):
    decoded = load_rgb(_pgm(65535, [0x8040, 0, 0xFFFF, 0x00FF, 0x0100], plain))
    assert decoded[0, :, 0].tolist() == [128, 0, 255, 0, 1]
    assert (decoded == decoded[..., :1]).all()  # gray: R = G = B


def test_pgm_with_another_maxval_is_scaled_to_its_full_range():
    # Pillow scales maxval 1000 to 0..65535: 500 is half way, 1000 the top.
    assert load_rgb(_pgm(1000, [0, 500, 1000]))[0, :, 0].tolist() == [0, 128, 255]


def test_8_bit_pgm_is_unchanged():
    data = b"P5\n3 1\n255\n" + bytes([0, 128, 255])
    assert load_rgb(data)[0, :, 0].tolist() == [0, 128, 255]


def _source(mode: str, rng) -> Image.Image:
    if mode.startswith("I;16"):
        values = rng.integers(0, 65536, (6, 5)).astype(">u2" if mode == "I;16B" else "<u2")
        return Image.frombytes(mode, (5, 6), values.tobytes())
    if mode == "I":
        return Image.fromarray(rng.integers(-20, 300, (6, 5)).astype(np.int32), "I")
    if mode == "F":
        return Image.fromarray(rng.uniform(-20, 300, (6, 5)).astype(np.float32), "F")
    rgb = Image.fromarray(rng.integers(0, 256, (6, 5, 3), dtype=np.uint8))
    if mode in ("LA", "PA", "RGBA"):
        rgba = np.dstack([np.asarray(rgb), rng.integers(0, 256, (6, 5), dtype=np.uint8)])
        return Image.fromarray(rgba, "RGBA").convert(mode)
    return rgb.convert(mode)


# (mode written, format) -> the mode Pillow's decoder returns when reading it back; together
# every mode a decoder returns from a file (1, CMYK, F, I, I;16, I;16B, I;16L, L, LA, LAB, P,
# PA, RGB, RGBA, YCbCr).
CASES = [
    ("1", "PNG", "1"), ("1", "BMP", "1"), ("1", "PCX", "1"), ("1", "XBM", "1"),
    ("CMYK", "TIFF", "CMYK"), ("CMYK", "JPEG", "CMYK"),
    ("F", "TIFF", "F"), ("F", "PPM", "F"), ("F", "SPIDER", "F"),
    ("I", "TIFF", "I"), ("I;16", "PPM", "I"), ("I", "IM", "I"),
    ("I;16", "PNG", "I;16"), ("I;16", "TIFF", "I;16"), ("I;16B", "TIFF", "I;16B"),
    ("I;16L", "IM", "I;16L"),
    ("L", "PNG", "L"), ("L", "PPM", "L"), ("L", "SGI", "L"), ("L", "TGA", "L"),
    ("LA", "PNG", "LA"), ("LA", "TGA", "LA"), ("LAB", "TIFF", "LAB"),
    ("P", "PNG", "P"), ("P", "GIF", "P"), ("PA", "TIFF", "PA"),
    ("RGB", "PNG", "RGB"), ("RGB", "PPM", "RGB"), ("RGB", "BMP", "RGB"), ("RGB", "QOI", "RGB"),
    ("RGBA", "PNG", "RGBA"), ("RGBA", "TGA", "RGBA"), ("RGBA", "WEBP", "RGBA"),
    ("YCbCr", "TIFF", "YCbCr"), ("YCbCr", "JPEG", "RGB"),
]
GRAY16_FROM_16_BIT = {("I;16", "PPM")}  # mode I holding 16-bit samples


@pytest.mark.filterwarnings("ignore:IM image format is deprecated:DeprecationWarning")
@pytest.mark.parametrize("mode, fmt, opened", CASES)
def test_every_decoded_mode(mode, fmt, opened):
    image = _source(mode, np.random.default_rng(len(mode) * 31 + len(fmt)))
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    data = buffer.getvalue()
    reopened = Image.open(io.BytesIO(data))
    assert reopened.mode == opened
    if opened.startswith("I;16") or (mode, fmt) in GRAY16_FROM_16_BIT:
        high = (np.clip(np.asarray(reopened), 0, 65535).astype(np.uint16) >> 8).astype(np.uint8)
        expected = np.repeat(high[..., None], 3, -1)
    else:
        expected = np.asarray(reopened.convert("RGB"))
    decoded = load_rgb(data)
    assert decoded.dtype == np.uint8 and decoded.flags.c_contiguous
    assert np.array_equal(decoded, expected)
    assert np.array_equal(load_rgb(Image.open(io.BytesIO(data))), expected)  # a PIL image too

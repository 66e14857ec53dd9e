"""PNG encoding is lossless for every encoder, on random and real benchmark images."""

import io

import imagecodecs
import numpy as np
import pytest
from PIL import Image

from paintkit.io.png_encode import ENCODERS, encode_png, encoder_info, resolve_encoder
from paintkit.sources import generate


def _images():
    rng = np.random.default_rng(0)
    yield rng.integers(0, 256, (1, 1, 3), dtype=np.uint8)
    yield rng.integers(0, 256, (7, 3, 3), dtype=np.uint8)
    yield rng.integers(0, 256, (64, 97, 3), dtype=np.uint8)
    yield np.full((33, 20, 3), 255, np.uint8)
    problem = generate("translation", 0, "striped", None)
    yield problem.input
    yield generate("translation", 1, "horizontal", None).answer
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


# File bytes of benchmark PNGs are part of the benchmark (manifests pin their SHA-256): the
# encoder may get faster, never write other bytes. Pinned under the zlib-ng they were made with.
PINNED_PNG_SHA256 = {
    ("translation", "striped"): ("ca217d92ce9f2c806591b6e0b022c29aec6b274497f38c80adc53df20a3a45ff",
                                 "f9bd175a6f81c239a78bda90c5f68175623ad734ff19cad8170e152492d85794"),
    ("flood_fill", "baseline"): ("74cea8093d13b885b0828559397e183a29552fbcdb7e806c285683e9a4ba30c8",
                                 "c9a60889d4e7fa8f5d70a65b7f7b94dbc60dd3681249fdf8610dd2112989327d"),
    ("rotation", "n_xhigh"): ("48dafb1c8018e0e2b7f4ebcd99a8c036884402ab2d13a51b22df00e4f78fb82d",
                              "7cb9ede95deaa0d2389ef28286269002974e325589c1d9bc007d386c04b45f3f"),
}
PINNED_ZLIBNG = "zlib_ng 2.3.3"


def _png_from_spec(image: np.ndarray) -> bytes:
    """PNG of ``image`` written from the format's definition: signature, IHDR (8-bit RGB),
    one IDAT holding zlib-ng level 2 of every row prefixed by filter byte 0, IEND."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height, width, _ = image.shape
    rows = b"".join(b"\x00" + image[y].tobytes() for y in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", bytes(imagecodecs.zlibng_encode(rows, level=2)))
            + chunk(b"IEND", b""))


@pytest.mark.skipif(resolve_encoder() != "zlibng", reason="zlib-ng not available")
def test_default_bytes_are_the_format_definition():
    for image in _images():
        assert encode_png(image) == _png_from_spec(np.ascontiguousarray(image))


@pytest.mark.skipif(resolve_encoder() != "zlibng"
                    or str(imagecodecs.zlibng_version()) != PINNED_ZLIBNG,
                    reason=f"the pinned PNG bytes were made with {PINNED_ZLIBNG}")
def test_benchmark_png_bytes_are_pinned():
    import hashlib

    for (task, condition), expected in PINNED_PNG_SHA256.items():
        problem = generate(task, 0, condition, None)
        got = tuple(hashlib.sha256(encode_png(image)).hexdigest()
                    for image in (problem.input, problem.answer))
        assert got == expected, f"{task}/{condition}: the PNG file bytes changed"


def test_plain_decoder_reads_what_the_encoder_writes():
    from paintkit.io.images import decode_rgb_bytes
    from paintkit.io.png_encode import decode_plain_png

    for image in _images():
        for encoder in ("zlibng", "zlib"):
            data = encode_png(image, encoder)
            pixels = decode_plain_png(data)
            assert pixels is not None and pixels.flags.writeable
            assert np.array_equal(pixels, image) and np.array_equal(decode_rgb_bytes(data), image)


def test_plain_decoder_leaves_everything_else_to_the_general_one():
    from paintkit.io.images import ImageDecodeError, decode_rgb_bytes
    from paintkit.io.png_encode import decode_plain_png

    image = generate("translation", 0, "striped", None).input
    data = encode_png(image)
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF  # inside the IDAT: its CRC no longer matches
    idat_start = data.index(b"IDAT") + 4
    payload_bad = bytearray(data)
    payload_bad[idat_start + 100] ^= 0xFF  # and with the CRC recomputed: the stream is corrupt
    length = int.from_bytes(data[idat_start - 8:idat_start - 4], "big")
    import zlib

    crc = zlib.crc32(bytes(payload_bad[idat_start - 4:idat_start + length]))
    payload_bad[idat_start + length:idat_start + length + 4] = crc.to_bytes(4, "big")
    lying = bytearray(data)  # IHDR claims 64x the rows (CRC fixed): the stream cannot fill it
    lying[20:24] = (1024 * 64).to_bytes(4, "big")
    lying[29:33] = zlib.crc32(bytes(lying[12:29])).to_bytes(4, "big")
    others = [b"", data[:40], data[:-12], bytes(flipped), bytes(payload_bad), bytes(lying),
              bytes(imagecodecs.png_encode(image)),  # libpng: filtered rows
              bytes(imagecodecs.png_encode(np.dstack([image, image[..., :1]]))),  # RGBA
              Image.fromarray(image).tobytes()]
    for other in others:
        assert decode_plain_png(other) is None
    assert np.array_equal(decode_rgb_bytes(bytes(imagecodecs.png_encode(image))), image)
    for small in (image[:40, :50], np.zeros((40, 50, 3), np.uint8)):  # one IDAT, by Pillow
        buffer = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(small)).save(buffer, format="PNG")
        pixels = decode_plain_png(buffer.getvalue())  # turned away, or read right
        assert pixels is None or np.array_equal(pixels, small)
    assert np.array_equal(decode_rgb_bytes(data[:-12]), image)  # libpng accepts a missing IEND
    for corrupt in (bytes(flipped), bytes(payload_bad)):
        with pytest.raises(ImageDecodeError):
            decode_rgb_bytes(corrupt)

"""decode_png_rgb: other writers' 8-bit RGB/RGBA PNGs, read exactly, or turned away.

The oracle is a PNG writer written from the format's definition (every filter type on
chosen rows, IDAT split anywhere, ancillary chunks): the pixels it started from must come
back, and they must equal what libpng and Pillow decode. Anything the reader does not
fully understand or that is corrupt must give ``None`` (the caller's libpng path decides,
as before), never other pixels.
"""

import io
import struct
import zlib

import imagecodecs
import numpy as np
import pytest
from PIL import Image

from paintkit.io.images import load_rgb
from paintkit.io.png_decode import decode_png_rgb
from paintkit.kernels.png_unfilter import unfilter_rows

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + \
        struct.pack(">I", zlib.crc32(kind + payload))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def filter_row(kind: int, row: np.ndarray, above: np.ndarray, bpp: int) -> np.ndarray:
    """The PNG specification's filters, §9.2, in int arithmetic mod 256."""
    x = row.astype(np.int64)
    b = above.astype(np.int64)
    a = np.concatenate([np.zeros(bpp, np.int64), x[:-bpp]])
    c = np.concatenate([np.zeros(bpp, np.int64), b[:-bpp]])
    predictor = [np.zeros_like(x), a, b, (a + b) // 2, paeth(a, b, c)][kind]
    return ((x - predictor) % 256).astype(np.uint8)


def write_png(pixels: np.ndarray, filters, *, split=None, extra=(), color=None) -> bytes:
    """An 8-bit RGB (or RGBA) PNG with row ``y`` filtered by ``filters[y % len(filters)]``,
    the zlib stream cut into IDAT chunks at ``split`` offsets, ``extra`` chunks before it."""
    height, width, channels = pixels.shape
    bpp = channels
    flat = pixels.reshape(height, width * bpp)
    rows, above = [], np.zeros(width * bpp, np.uint8)
    for y in range(height):
        kind = filters[y % len(filters)]
        rows.append(bytes([kind]) + filter_row(kind, flat[y], above, bpp).tobytes())
        above = flat[y]
    stream = zlib.compress(b"".join(rows), 6)
    cuts = [0, *sorted(split or []), len(stream)]
    idat = b"".join(chunk(b"IDAT", stream[s:e]) for s, e in zip(cuts, cuts[1:], strict=False))
    header = struct.pack(">IIBBBBB", width, height, 8, color or (2 if bpp == 3 else 6), 0, 0, 0)
    return SIGNATURE + chunk(b"IHDR", header) + b"".join(extra) + idat + chunk(b"IEND", b"")


def libpng_rgb(data: bytes) -> np.ndarray:
    return imagecodecs.png_decode(data)[..., :3]


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("filters", [[0], [1], [2], [3], [4], [4, 0, 3, 1, 2, 3, 4]])
@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (13, 1), (17, 29)])
def test_every_filter_on_random_pixels_gives_the_pixels_back(channels, filters, shape):
    rng = np.random.default_rng(len(filters) * 100 + channels * 10 + shape[1])
    pixels = rng.integers(0, 256, (*shape, channels), dtype=np.uint8)
    data = write_png(pixels, filters)
    got = decode_png_rgb(data)
    assert got is not None and got.dtype == np.uint8 and got.shape == (*shape, 3)
    assert np.array_equal(got, pixels[..., :3])
    assert np.array_equal(got, libpng_rgb(data))
    assert np.array_equal(got, np.asarray(Image.open(io.BytesIO(data)).convert("RGB")))


def test_smooth_images_exercise_every_paeth_branch():
    """Gradients make a, b and c the nearest predictor in turn (and tie)."""
    y, x = np.mgrid[0:40, 0:50]
    pixels = np.stack([(3 * x + y) % 256, (x * y) % 256, (255 - 2 * y + x // 3) % 256],
                      axis=-1).astype(np.uint8)
    for filters in ([4], [3], [4, 3, 2, 1]):
        data = write_png(pixels, filters)
        assert np.array_equal(decode_png_rgb(data), pixels)


def test_split_idat_and_ancillary_chunks():
    rng = np.random.default_rng(1)
    pixels = rng.integers(0, 256, (31, 40, 3), dtype=np.uint8)
    extra = [chunk(b"gAMA", struct.pack(">I", 45455)), chunk(b"tEXt", b"Software\x00test"),
             chunk(b"PLTE", bytes(range(9)))]
    data = write_png(pixels, [1, 2, 3, 4], split=[1, 2, 50, 51, 700], extra=extra)
    assert np.array_equal(decode_png_rgb(data), pixels)


@pytest.mark.parametrize("level", [0, 1, 6, 9])
@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_other_writers_files(level, mode):
    """Pillow's adaptive filters and 64 KiB IDATs; libpng through imagecodecs."""
    rng = np.random.default_rng(level)
    pixels = rng.integers(0, 256, (70, 90, len(mode)), dtype=np.uint8)
    pixels[10:40, 20:60] = pixels[10, 20]  # flat parts pick other filters
    buffer = io.BytesIO()
    Image.fromarray(pixels, mode).save(buffer, "PNG", compress_level=level)
    for data in (buffer.getvalue(), imagecodecs.png_encode(pixels, level=max(level, 1))):
        got = decode_png_rgb(data)
        assert got is not None and np.array_equal(got, pixels[..., :3])
        assert np.array_equal(load_rgb(data), pixels[..., :3])


def _with_header(data: bytes, **fields) -> bytes:
    names = ("width", "height", "depth", "color", "compression", "filter", "interlace")
    values = dict(zip(names, struct.unpack(">IIBBBBB", data[16:29]), strict=True))
    values.update(fields)
    header = struct.pack(">IIBBBBB", *(values[n] for n in names))
    return data[:8] + chunk(b"IHDR", header) + data[33:]


def _turned_away_cases():
    rng = np.random.default_rng(2)
    pixels = rng.integers(0, 256, (12, 10, 3), dtype=np.uint8)
    good = write_png(pixels, [1, 4])
    yield "interlaced", _with_header(good, interlace=1)
    yield "16-bit", _with_header(good, depth=16)
    yield "palette", _with_header(good, color=3)
    yield "grey", _with_header(good, color=0)
    yield "zero width", _with_header(good, width=0)
    yield "bad CRC", good[:-20] + bytes([good[-20] ^ 1]) + good[-19:]
    yield "truncated", good[:-30]
    yield "no IEND", good[:-12]
    yield "not a PNG", b"GIF89a" + good[6:]
    yield "unknown critical chunk", good[:33] + chunk(b"ABCD", b"x") + good[33:]
    yield "IDATs apart", _idats_apart(pixels)
    yield "filter type 5", _bad_filter(pixels)
    yield "short stream", _with_header(good, height=13)
    yield "long stream", _with_header(good, height=11)
    yield "lies about its size", _with_header(good, width=1 << 20, height=1 << 12)


def _idats_apart(pixels) -> bytes:
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(len(pixels)))
    stream = zlib.compress(raw)
    header = struct.pack(">IIBBBBB", pixels.shape[1], pixels.shape[0], 8, 2, 0, 0, 0)
    return SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", stream[:20]) + \
        chunk(b"tEXt", b"a\x00b") + chunk(b"IDAT", stream[20:]) + chunk(b"IEND", b"")


def _bad_filter(pixels) -> bytes:
    raw = b"".join(bytes([5 if y == 3 else 0]) + pixels[y].tobytes() for y in range(len(pixels)))
    header = struct.pack(">IIBBBBB", pixels.shape[1], pixels.shape[0], 8, 2, 0, 0, 0)
    return SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + \
        chunk(b"IEND", b"")


@pytest.mark.parametrize("name, data", list(_turned_away_cases()))
def test_what_it_does_not_understand_is_turned_away(name, data):
    assert decode_png_rgb(data) is None


def test_corrupt_streams_never_give_other_pixels_than_libpng():
    """Bytes flipped inside the IDAT data, CRCs made to match: the reader returns None or
    exactly what libpng decodes, and None whenever libpng refuses the file."""
    rng = np.random.default_rng(3)
    pixels = rng.integers(0, 256, (16, 20, 3), dtype=np.uint8)
    pixels[4:12] = 77
    raw = b"".join(bytes([y % 5]) + filter_row(y % 5, pixels[y].reshape(-1),
                                                 pixels[y - 1].reshape(-1) if y else
                                                 np.zeros(60, np.uint8), 3).tobytes()
                   for y in range(16))
    stream = bytearray(zlib.compress(raw, 6))
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 20, 16, 8, 2, 0, 0, 0))
    gave_pixels = 0
    for trial in range(300):
        damaged = bytearray(stream)
        for _ in range(1 + trial % 3):
            damaged[rng.integers(len(damaged))] ^= 1 << rng.integers(8)
        data = SIGNATURE + header + chunk(b"IDAT", bytes(damaged)) + chunk(b"IEND", b"")
        got = decode_png_rgb(data)
        try:
            want = libpng_rgb(data)
        except Exception:  # noqa: BLE001 - libpng refuses it
            assert got is None
            continue
        if got is not None:
            gave_pixels += 1
            assert np.array_equal(got, want)
    assert gave_pixels < 300


def test_unfilter_rows_refuses_bad_arguments():
    with pytest.raises(ValueError, match="bpp"):
        unfilter_rows(np.zeros((2, 7), np.uint8), 2)
    with pytest.raises(ValueError, match="raw must be uint8"):
        unfilter_rows(np.zeros((2, 8), np.uint8), 3)
    with pytest.raises(ValueError, match="raw must be uint8"):
        unfilter_rows(np.zeros((2, 7), np.int16), 3)

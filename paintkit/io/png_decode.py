"""A fast reader for the common PNGs: 8-bit RGB or RGBA, not interlaced.

Model outputs arrive as PNGs from many writers (libpng, Pillow, OpenCV, browsers): their
IDAT data is split into chunks and their rows use adaptive filters. libpng inflates them
with zlib and unfilters row by row: a noisy 1024² output takes ~23 ms here, of which ~16 ms
is zlib's inflate. :func:`decode_png_rgb` inflates the same stream with libdeflate (~3x
faster, adler32 checked) into a buffer of exactly the size the header promises and
unfilters it with a Numba kernel (:mod:`paintkit.kernels.png_unfilter`): the same pixels,
~2-3x sooner.

It reads only what it fully understands and returns ``None`` for anything else, so the
caller's general decoder (libpng, then Pillow) decides as before, and reports what is wrong
with a bad file:

- the signature, then IHDR first (13 bytes): 8-bit, colour type 2 (RGB) or 6 (RGBA),
  compression 0, filter 0, no interlacing, width and height > 0;
- every chunk's CRC checked; IDAT chunks consecutive; IEND last; other chunks skipped only
  when ancillary (lower-case first letter) or ``PLTE`` (a suggested palette in RGB files);
- the concatenated IDAT data a zlib stream that inflates to exactly ``H * (1 + W * bpp)``
  bytes (a stream that could not reach that size is refused before allocating);
- every row's filter type 0-4.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from paintkit.kernels.png_unfilter import unfilter_rows

try:
    import imagecodecs as _imagecodecs

    _HAVE_LIBDEFLATE = bool(getattr(_imagecodecs.DEFLATE, "available", False))
except (ImportError, AttributeError):  # pragma: no cover - exercised where imagecodecs is absent
    _imagecodecs = None
    _HAVE_LIBDEFLATE = False

__all__ = ["decode_chunks", "decode_png_rgb", "png_chunks"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_MAX_INFLATE_RATIO = 1032  # deflate's limit: 258 bytes per (at least 2-bit) match code
_BYTES_PER_PIXEL = {2: 3, 6: 4}


def _chunks(data: bytes):
    """``(kind, payload)`` of each chunk up to IEND, or None on a bad CRC or truncation."""
    view = memoryview(data)
    pos, found = 8, []
    while pos + 12 <= len(data):
        length = int.from_bytes(view[pos:pos + 4], "big")
        end = pos + 8 + length
        if length > 0x7FFFFFFF or end + 4 > len(data) \
                or zlib.crc32(view[pos + 4:end]) != int.from_bytes(view[end:end + 4], "big"):
            return None
        kind = bytes(view[pos + 4:pos + 8])
        found.append((kind, view[pos + 8:end]))
        if kind == b"IEND":
            return found
        pos = end + 4
    return None


def decode_png_rgb(data: bytes) -> np.ndarray | None:
    """uint8 ``(H, W, 3)`` pixels of an 8-bit RGB or RGBA PNG (alpha dropped), or ``None``
    when ``data`` is anything else or anything is off (see the module docstring).

    Example:
        >>> from paintkit.io.png_encode import encode_png
        >>> image = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
        >>> bool((decode_png_rgb(encode_png(image, "imagecodecs")) == image).all())
        True
    """
    chunks = png_chunks(data)
    return None if chunks is None else decode_chunks(chunks)


def png_chunks(data: bytes) -> list[tuple[bytes, memoryview]] | None:
    """``(kind, payload)`` of each chunk of a PNG up to IEND, every CRC checked; None when
    ``data`` is not one (or this reader cannot decode anything: no libdeflate)."""
    if not _HAVE_LIBDEFLATE or len(data) < 57 or data[:8] != _SIGNATURE:
        return None
    return _chunks(data)


def decode_chunks(chunks: list[tuple[bytes, memoryview]]) -> np.ndarray | None:
    """:func:`decode_png_rgb` of the chunks :func:`png_chunks` found."""
    if not chunks or chunks[0][0] != b"IHDR" or len(chunks[0][1]) != 13:
        return None
    width, height, depth, color, compression, filtering, interlace = \
        struct.unpack(">IIBBBBB", chunks[0][1])
    bpp = _BYTES_PER_PIXEL.get(color)
    if depth != 8 or bpp is None or (compression, filtering, interlace) != (0, 0, 0) \
            or not width or not height:
        return None
    idat, state = [], "before"  # IDAT chunks must be consecutive
    for kind, payload in chunks[1:-1]:
        if kind == b"IDAT":
            if state == "after":
                return None
            state = "in"
            idat.append(payload)
        elif kind[0:1].isupper() and kind != b"PLTE":
            return None  # a critical chunk this reader does not know
        elif state == "in":
            state = "after"
    if not idat:
        return None
    stream = b"".join(idat)
    size = height * (1 + width * bpp)
    if size > _MAX_INFLATE_RATIO * len(stream) + 64:  # cannot inflate that far
        return None
    try:
        raw = _imagecodecs.deflate_decode(stream, out=size)
    except Exception:  # noqa: BLE001 - corrupt, short or long: the general decoder says why
        return None
    if len(raw) != size:
        return None
    return unfilter_rows(np.frombuffer(raw, np.uint8).reshape(height, 1 + width * bpp), bpp)

"""Fast lossless PNG encoding for generated problems (chosen by measurement).

Generated images are large flat-color areas. Measured on this machine (1024x1024 benchmark
images, mean of 36 from translation under six conditions; ``bench/generate_png_encoders.py``):

    encoder                                   encode ms   size KiB   decode ms (libpng)
    Pillow compress_level 0 / 1 / 6 / 9       10/13/16/35  2850/24/11/8.5   2.1 (level 1)
    imagecodecs.png_encode level 1            17           24
    imagecodecs.png_encode 1, RLE, SUB        4.0          16         6.8
    fpng (PyPI "fpng")                        1.3          29         3.0
    this module: filter None + zlib-ng lvl 2  0.9          26         2.1

So the default writes one IDAT of unfiltered scanlines deflated by zlib-ng (shipped inside
``imagecodecs``, already a dependency) at level 2: the fastest encoder measured, small files
and the fastest to decode again. Without zlib-ng it falls back to the standard library's
zlib (level 1, ~3.7 ms); ``encoder="pillow"`` uses Pillow (level 1);
``encoder="imagecodecs"`` is ``imagecodecs.png_encode`` at level 1 (Pillow level 1 without
imagecodecs): what :func:`paintkit.io.images.write_png` writes (diff images, baseline and
model outputs). Every encoder is lossless; the bytes depend on the encoder (and the zlib
build), the pixels never do.

:func:`decode_plain_png` reads such files back about twice as fast as libpng (1024²:
~0.7 against ~1.8 ms) with :func:`paintkit.io.png_decode.decode_png_rgb`: one checked
inflate (libdeflate) and, rows all unfiltered, a strided copy.
"""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np

from paintkit.io.png_decode import decode_chunks, png_chunks

try:  # zlib-ng ships inside imagecodecs; the standard library's zlib is the fallback
    import imagecodecs as _imagecodecs

    _HAVE_ZLIBNG = bool(getattr(_imagecodecs.ZLIBNG, "available", True))
except (ImportError, AttributeError):  # pragma: no cover - exercised where imagecodecs is absent
    _imagecodecs = None
    _HAVE_ZLIBNG = False

ENCODERS: tuple[str, ...] = ("auto", "zlibng", "zlib", "pillow", "imagecodecs")
ZLIBNG_LEVEL = 2
ZLIB_LEVEL = 1
PILLOW_LEVEL = 1
IMAGECODECS_LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_IEND = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def resolve_encoder(encoder: str = "auto") -> str:
    """The concrete encoder ``encoder`` stands for (``auto``: zlib-ng if present, else zlib)."""
    if encoder not in ENCODERS:
        raise ValueError(f"unknown PNG encoder {encoder!r}; allowed: {', '.join(ENCODERS)}")
    if encoder == "auto":
        return "zlibng" if _HAVE_ZLIBNG else "zlib"
    if encoder == "zlibng" and not _HAVE_ZLIBNG:
        raise ValueError("PNG encoder 'zlibng' needs imagecodecs with zlib-ng; use 'zlib' or 'pillow'")
    if encoder == "imagecodecs" and _imagecodecs is None:
        return "pillow"
    return encoder


def encoder_info(encoder: str = "auto") -> dict:
    """JSON-able description of the encoder (name, level, library version) for manifests."""
    name = resolve_encoder(encoder)
    if name == "zlibng":
        return {"name": "zlibng", "level": ZLIBNG_LEVEL, "filter": "none",
                "version": str(_imagecodecs.zlibng_version())}
    if name == "zlib":
        return {"name": "zlib", "level": ZLIB_LEVEL, "filter": "none", "version": zlib.ZLIB_VERSION}
    if name == "imagecodecs":
        return {"name": "imagecodecs", "level": IMAGECODECS_LEVEL,
                "version": str(_imagecodecs.__version__)}
    import PIL

    return {"name": "pillow", "level": PILLOW_LEVEL, "version": PIL.__version__}


def _scanlines(array: np.ndarray) -> np.ndarray:
    """Raw PNG image data: every row prefixed by filter byte 0 (None), as one flat uint8
    array. Flat on purpose: handed a two-dimensional buffer, ``zlibng_encode`` spends
    more time taking it apart than deflating it (3.0 against 1.4 ms on a 1024² image)."""
    height, width, _ = array.shape
    raw = np.empty((height, width * 3 + 1), np.uint8)
    raw[:, 0] = 0
    raw[:, 1:] = array.reshape(height, width * 3)
    return raw.reshape(-1)


def encode_png(array: np.ndarray, encoder: str = "auto") -> bytes:
    """Lossless PNG bytes (8-bit RGB) of a uint8 ``(H, W, 3)`` array.

    Example:
        >>> data = encode_png(np.zeros((4, 5, 3), np.uint8))
        >>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
        True
    """
    if not isinstance(array, np.ndarray) or array.dtype != np.uint8 or array.ndim != 3 \
            or array.shape[2] != 3 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"encode_png needs a uint8 (H, W, 3) array, got "
                         f"{getattr(array, 'dtype', type(array).__name__)} {getattr(array, 'shape', '')}")
    name = resolve_encoder(encoder)
    if name == "imagecodecs":
        return bytes(_imagecodecs.png_encode(np.ascontiguousarray(array), level=IMAGECODECS_LEVEL))
    if name == "pillow":
        from PIL import Image

        buffer = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(array)).save(buffer, format="PNG",
                                                          compress_level=PILLOW_LEVEL)
        return buffer.getvalue()
    raw = _scanlines(array)
    if name == "zlibng":
        data = bytes(_imagecodecs.zlibng_encode(raw, level=ZLIBNG_LEVEL))
    else:
        data = zlib.compress(raw, ZLIB_LEVEL)
    height, width, _ = array.shape
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", data), _IEND))


def decode_plain_png(data: bytes) -> np.ndarray | None:
    """uint8 ``(H, W, 3)`` pixels of a PNG shaped as :func:`encode_png` writes it (IHDR for
    8-bit RGB, one IDAT, IEND), or ``None`` for anything else, or when
    :func:`~paintkit.io.png_decode.decode_png_rgb`, which reads it, turns it away (a bad
    CRC, a stream that does not inflate to exactly ``H * (3W + 1)`` bytes).

    Example:
        >>> image = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
        >>> bool((decode_plain_png(encode_png(image)) == image).all())
        True
    """
    chunks = png_chunks(data)
    if chunks is None or [kind for kind, _ in chunks] != [b"IHDR", b"IDAT", b"IEND"] \
            or bytes(chunks[0][1][8:10]) != b"\x08\x02":  # depth 8, colour type 2 (RGB)
        return None
    return decode_chunks(chunks)

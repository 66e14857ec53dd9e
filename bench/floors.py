"""The floors ``bench/stage_breakdown.py`` compares each stage with, measured on this machine:
single-thread copy bandwidth and every installed PNG encoder and decoder, timed in CPU
milliseconds of one thread (``time.thread_time``)."""

from __future__ import annotations

import time

import numpy as np

CORES = 2
thread_time = time.thread_time


def best_ms(fn, repeats: int = 3, number: int = 1) -> float:
    """Best thread-CPU milliseconds of one ``fn()`` call (after a warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = thread_time()
        for _ in range(number):
            fn()
        best = min(best, (thread_time() - start) / number)
    return 1000 * best


# ------------------------------------------------------------------------------------ floors


def copy_bandwidth(nbytes: int = 12 << 20) -> float:
    """Single-thread memcpy bandwidth in bytes/s (a buffer larger than the caches)."""
    src = np.random.default_rng(0).integers(0, 255, nbytes, np.uint8)
    dst = np.empty_like(src)
    ms = best_ms(lambda: np.copyto(dst, src), repeats=5)
    return nbytes / (ms / 1000)


def codec_candidates():
    """``{name: (encode(rgb) -> bytes, writes the pinned bytes?)}`` of the installed PNG encoders."""
    import imagecodecs

    from paintkit.io.png_encode import encode_png

    found = {"paintkit (zlib-ng 2, filter none)": (encode_png, True),
             "paintkit before (2-D buffer to zlib-ng)": (previous_encode_png, True)}
    if imagecodecs.ZLIBNG.available:
        found["  its deflate call alone"] = (None, True)
    if imagecodecs.SPNG.available:
        found["libspng (imagecodecs) level 1"] = (
            lambda a: bytes(imagecodecs.spng_encode(a, level=1)), False)
    if imagecodecs.PNG.available:
        found["libpng (imagecodecs) level 1"] = (
            lambda a: bytes(imagecodecs.png_encode(a, level=1)), False)
    if imagecodecs.DEFLATE.available:
        from paintkit.io.png_encode import _scanlines

        found["libdeflate 1 + filter none"] = (
            lambda a: bytes(imagecodecs.deflate_encode(_scanlines(a), level=1)), False)
    try:
        import fpng  # noqa: F401 - optional: pip install fpng

        found["fpng"] = (lambda a: fpng.encode_image_to_memory(a), False)  # pragma: no cover
    except ImportError:
        pass
    return found


def previous_encode_png(array: np.ndarray) -> bytes:
    """paintkit's encoder before it flattened the scanlines (same bytes, for side by side)."""
    import imagecodecs

    from paintkit.io import png_encode as png

    height, width, _ = array.shape
    raw = np.empty((height, width * 3 + 1), np.uint8)
    raw[:, 0] = 0
    raw[:, 1:] = array.reshape(height, width * 3)
    data = bytes(imagecodecs.zlibng_encode(raw.data, level=png.ZLIBNG_LEVEL))
    header = png.struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join((png._SIGNATURE, png._chunk(b"IHDR", header), png._chunk(b"IDAT", data),
                     png._IEND))


def encode_floors(images: list[np.ndarray], repeats: int) -> dict[str, float]:
    """ms per image of each PNG encoder on ``images`` (``  its deflate call alone``: the
    zlib-ng call of paintkit's encoder on prepared scanlines, what identical bytes cost)."""
    import imagecodecs

    from paintkit.io.png_encode import ZLIBNG_LEVEL, _scanlines

    out = {}
    raws = [bytes(_scanlines(a)) for a in images]
    for name, (encode, _) in codec_candidates().items():
        if encode is None:
            ms = best_ms(lambda: [imagecodecs.zlibng_encode(r, level=ZLIBNG_LEVEL) for r in raws],
                         repeats)
        else:
            ms = best_ms(lambda e=encode: [e(a) for a in images], repeats)
        out[name] = ms / len(images)
    return out


def decode_floors(pngs: list[bytes], repeats: int) -> dict[str, float]:
    """ms per image of each installed PNG decoder on ``pngs`` (paintkit's own encoding)."""
    import io

    import imagecodecs
    from PIL import Image

    from paintkit.io.images import decode_rgb_bytes

    idats = [_idat(p) for p in pngs]
    out = {"paintkit decode_rgb_bytes": lambda: [decode_rgb_bytes(p) for p in pngs],
           "libpng (imagecodecs; paintkit before)": lambda: [imagecodecs.png_decode(p) for p in pngs]}
    if imagecodecs.SPNG.available:
        out["libspng (imagecodecs)"] = lambda: [imagecodecs.spng_decode(p) for p in pngs]
    if imagecodecs.ZLIBNG.available:
        out["zlib-ng inflate of the IDAT alone"] = lambda: [imagecodecs.zlibng_decode(d) for d in idats]
    if imagecodecs.DEFLATE.available:
        out["libdeflate inflate of the IDAT alone"] = lambda: [
            imagecodecs.deflate_decode(d, out=_raw_size(p)) for d, p in zip(idats, pngs, strict=True)]
    out["Pillow"] = lambda: [np.asarray(Image.open(io.BytesIO(p)).convert("RGB")) for p in pngs]
    return {name: best_ms(fn, repeats) / len(pngs) for name, fn in out.items()}


def _idat(png: bytes) -> bytes:
    """The concatenated IDAT payload (zlib stream) of a PNG."""
    import struct

    pos, parts = 8, []
    while pos < len(png):
        (length,), kind = struct.unpack(">I", png[pos:pos + 4]), png[pos + 4:pos + 8]
        if kind == b"IDAT":
            parts.append(png[pos + 8:pos + 8 + length])
        pos += 12 + length
    return b"".join(parts)


def _raw_size(png: bytes) -> int:
    import struct

    width, height = struct.unpack(">II", png[16:24])
    return height * (3 * width + 1)

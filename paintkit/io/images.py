"""Decode any image to 8-bit RGB (docs/metric-definition.md §1) and write PNGs atomically.

``load_rgb`` accepts a path, raw bytes, a PIL image or a NumPy array and returns a
C-contiguous uint8 ``(H, W, 3)`` array, exactly what Pillow's ``Image.convert("RGB")``
gives (RGBA: alpha dropped, not composited; L and P expanded). Well-formed 8-bit RGB/RGBA
PNGs are decoded by paintkit's own reader (:func:`~paintkit.io.png_decode.decode_png_rgb`:
libdeflate, then a copy for the unfiltered rows ``paintkit generate`` writes or a Numba
unfilter for other writers' rows); what it turns away goes to
``imagecodecs`` (libpng, ~2.5x faster than Pillow on benchmark images) when it is
installed, which also names what is wrong with a bad file; everything else goes through
Pillow. Files above :data:`MAX_FILE_BYTES` (1 GiB) are
refused from their size before a byte is read, and images above :data:`MAX_PIXELS` are
refused from their header, before any pixel is decoded (decompression bombs); formats other
than PNG also stay under Pillow's own decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``
x 2, about 179M pixels). 16-bit grayscale (``I;16*``, and mode ``I`` from a 16-bit PGM)
keeps its high byte, as 16-bit RGB does (Pillow's ``convert("RGB")`` would clip it to 255:
white); every other mode a decoder returns follows ``convert("RGB")``.

Hostile files never escape as anything but :class:`ImageDecodeError`: only regular files
are opened (a FIFO, a folder or a device is refused without blocking), a symlink loop or a
permission problem is named, and any decoder exception becomes a one-line reason without
object addresses, so two runs over the same files write the same text.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import struct
import warnings
from pathlib import Path

import numpy as np
from PIL import Image

from paintkit.errors import PaintkitError
from paintkit.io import png_encode
from paintkit.io.atomic import write_bytes_atomic
from paintkit.io.png_decode import decode_png_rgb

#: Largest image accepted, in pixels (W * H).
MAX_PIXELS = 1 << 28
#: Largest image file read, in bytes (1 GiB): a bigger file is refused from its size, before
#: a byte is read (an uncompressed 8-bit RGBA image of :data:`MAX_PIXELS` pixels is 1 GiB).
MAX_FILE_BYTES = 1 << 30
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

try:  # optional fast codec; Pillow is the fallback
    import imagecodecs as _imagecodecs
except ImportError:  # pragma: no cover - exercised where imagecodecs is absent
    _imagecodecs = None


class ImageDecodeError(PaintkitError, ValueError):
    """An image could not be read: missing, empty, corrupt, truncated or unsupported."""


class ImageTooLargeError(ImageDecodeError):
    """An image has more than :data:`MAX_PIXELS` pixels, or its file more than
    :data:`MAX_FILE_BYTES` bytes, and was not decoded."""


_ADDRESS = re.compile(r"<[^<>]* at 0x[0-9a-fA-F]+>")
_GRAY16_MODES = ("I;16", "I;16B", "I;16L", "I;16N")


def _reason(exc: BaseException) -> str:
    """One stable line for ``exc``: its type (when the text alone is unclear) and message,
    with object reprs like ``<_io.BytesIO object at 0x7f...>`` replaced."""
    text = _ADDRESS.sub("the image data", " ".join(str(exc).split()))
    name = type(exc).__name__
    if not text:
        return name
    return text if isinstance(exc, OSError | ValueError | SyntaxError) else f"{name}: {text}"


def _check_size(width: int, height: int, where: str, limit: int = MAX_PIXELS,
                limit_text: str = "") -> None:
    if width * height > limit:
        raise ImageTooLargeError(
            f"{where}: {width}x{height} = {width * height} pixels exceeds the limit of "
            f"{limit} ({limit_text or ('2^28' if limit == MAX_PIXELS else 'pixels')}); "
            "refusing to decode"
        )


def png_header(data: bytes, where: str = "PNG") -> tuple[int, int, int, int] | None:
    """``(width, height, bit_depth, color_type)`` from a PNG's IHDR, or None if not a PNG.

    The chunks up to the first IDAT are walked (their headers only): a second IHDR there
    raises :class:`ImageDecodeError`, since Pillow would decode the size the last one
    declares while this header (and every size check made from it) reads the first."""
    if len(data) < 26 or not data.startswith(_PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    width, height, depth, color = struct.unpack(">IIBB", data[16:26])
    pos = 20 + int.from_bytes(data[8:12], "big")  # past IHDR: length, type, data, CRC
    while pos + 8 <= len(data):
        kind = bytes(data[pos + 4:pos + 8])
        if kind in (b"IDAT", b"IEND"):
            break
        if kind == b"IHDR":
            raise ImageDecodeError(f"{where}: more than one IHDR chunk (a PNG has exactly "
                                   "one); refused before decoding")
        pos += 12 + int.from_bytes(data[pos:pos + 4], "big")
    return width, height, depth, color


def rgb_from_array(array: np.ndarray, name: str = "image") -> np.ndarray:
    """uint8 ``(H, W, 3)`` from an array ``(H, W)``, ``(H, W, 1|3|4)``.

    uint8 is taken as is (gray expanded, alpha dropped); floats must lie in [0, 1] and
    become ``round(x * 255)`` (docs/metric-definition.md §1).
    """
    if array.ndim == 2:
        array = array[..., None]
    if array.ndim != 3 or array.shape[-1] not in (1, 3, 4):
        raise ValueError(
            f"{name}: expected an image array of shape (H, W), (H, W, 3) or (H, W, 4), "
            f"got shape {array.shape}"
        )
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array < 0) | (array > 1)
        if bad.any():
            raise ValueError(
                f"{name}: float images must lie in [0, 1] without NaN; got {int(bad.sum())} "
                f"values outside (dtype {array.dtype}, shape {array.shape})"
            )
        array = np.round(array * 255).astype(np.uint8)
    elif array.dtype != np.uint8:
        raise ValueError(f"{name}: expected dtype uint8 or float in [0, 1], got {array.dtype}")
    if array.shape[-1] == 1:
        array = np.repeat(array, 3, axis=-1)
    elif array.shape[-1] == 4:
        array = array[..., :3]
    return np.ascontiguousarray(array)


def _is_gray16(image: Image.Image) -> bool:
    """16-bit grayscale: the ``I;16*`` modes, and mode ``I`` holding 16-bit samples (a PGM
    with maxval above 255, which Pillow scales to 0..65535; a raw ``I;16*`` tile). Mode
    ``I`` from a 32-bit file (TIFF) is not: it follows ``convert("RGB")``."""
    if image.mode in _GRAY16_MODES:
        return True
    if image.mode != "I":
        return False
    if image.format == "PPM":
        return True
    for tile in image.tile or ():
        args = tile.args if isinstance(tile.args, tuple) else (tile.args,)
        if args and str(args[0]).startswith("I;16"):
            return True
    return False


def _rgb_from_pil(image: Image.Image, where: str) -> np.ndarray:
    _check_size(image.width, image.height, where)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            if _is_gray16(image):  # high byte, like 16-bit RGB (convert clips)
                gray = (np.clip(np.asarray(image), 0, 65535).astype(np.uint16) >> 8
                        ).astype(np.uint8)
                return rgb_from_array(gray, where)
            rgb = image.convert("RGB")
            return np.array(rgb)  # a writable copy (np.asarray of a PIL image is read-only)
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(f"{where}: {_reason(exc)}") from exc
    except Exception as exc:  # noqa: BLE001 - any decoder failure is a bad file, not a crash
        raise ImageDecodeError(f"{where}: cannot decode image: {_reason(exc)}") from exc


def decode_rgb_bytes(data: bytes, where: str = "<bytes>", max_pixels: int = MAX_PIXELS,
                     limit_text: str = "") -> np.ndarray:
    """Decode encoded image bytes to uint8 ``(H, W, 3)`` (see module docstring).

    ``max_pixels`` (at most :data:`MAX_PIXELS`) lowers the size refused from the header,
    before anything is decoded; ``limit_text`` says where that limit comes from."""
    if not data:
        raise ImageDecodeError(f"{where}: empty file")
    max_pixels = min(max_pixels, MAX_PIXELS)
    header = png_header(data, where)
    if header is not None:
        width, height, depth, color = header
        _check_size(width, height, where, max_pixels, limit_text)
        if depth == 8 and color in (2, 6) and (pixels := decode_png_rgb(data)) is not None:
            return pixels  # well formed: ~3x faster than libpng on paintkit's own files
        if _imagecodecs is not None and depth == 8 and color in (2, 6):
            try:
                pixels = _imagecodecs.png_decode(data)
            except Exception as exc:  # noqa: BLE001 - libpng reports corrupt data this way
                raise ImageDecodeError(f"{where}: cannot decode PNG: {_reason(exc)}") from exc
            if pixels.ndim == 3 and pixels.shape[-1] in (3, 4) and pixels.size:
                return np.ascontiguousarray(pixels[..., :3])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(f"{where}: {_reason(exc)}") from exc
    except Exception as exc:  # noqa: BLE001 - e.g. NotImplementedError from a DDS plugin
        raise ImageDecodeError(f"{where}: cannot identify image: {_reason(exc)}") from exc
    _check_size(*image.size, where, max_pixels, limit_text)  # from the header, not decoded yet
    return _rgb_from_pil(image, where)


def read_regular_file(path: str | os.PathLike, limit: int = -1) -> bytes:
    """The bytes of ``path`` (the first ``limit`` if given) if it is a regular file (after
    symlinks), without ever blocking: a FIFO, socket, device or folder is refused with
    :class:`ImageDecodeError`, as are a symlink loop and a file that cannot be read (the
    reason says which); a file above :data:`MAX_FILE_BYTES` is refused from its size with
    :class:`ImageTooLargeError` before anything is read."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise ImageDecodeError(f"{path}: no such file") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ImageDecodeError(f"{path}: symlink loop (too many levels of symbolic "
                                   "links)") from exc
        if exc.errno == errno.ENXIO:  # a socket (or a FIFO without a writer on some systems)
            raise ImageDecodeError(f"{path}: not a regular file") from exc
        raise ImageDecodeError(f"{path}: cannot read: {exc.strerror or _reason(exc)}") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
            raise ImageDecodeError(f"{path}: not a regular file ({kind}); not opened")
        size = os.fstat(fd).st_size
        if (limit < 0 or limit > MAX_FILE_BYTES) and size > MAX_FILE_BYTES:
            raise ImageTooLargeError(f"{path}: file of {size} bytes exceeds the limit of "
                                     f"{MAX_FILE_BYTES} bytes (1 GiB); not read")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read(limit)
    except OSError as exc:
        raise ImageDecodeError(f"{path}: cannot read: {exc.strerror or _reason(exc)}") from exc
    finally:
        if fd >= 0:
            os.close(fd)


def load_rgb(source) -> np.ndarray:
    """Any image -> C-contiguous uint8 ``(H, W, 3)``, as Pillow's ``convert("RGB")``.

    Args:
        source: a path (str or os.PathLike), encoded bytes, a PIL image, or a NumPy
            array ``(H, W[, 1|3|4])`` (uint8, or float in [0, 1]).

    Raises:
        ImageDecodeError: missing, empty, corrupt or truncated file (also a ``ValueError``).
        ImageTooLargeError: more than 2^28 pixels (refused before decoding).

    Example:
        >>> load_rgb(np.zeros((2, 3), np.uint8)).shape
        (2, 3, 3)
    """
    if isinstance(source, np.ndarray):
        return rgb_from_array(source)
    if isinstance(source, Image.Image):
        return _rgb_from_pil(source, "<PIL image>")
    if isinstance(source, bytes | bytearray | memoryview):
        return decode_rgb_bytes(bytes(source))
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        return decode_rgb_bytes(read_regular_file(path), str(path))
    raise TypeError(
        f"expected a path, bytes, PIL image or NumPy array, got {type(source).__name__}"
    )


def image_size(path: str | os.PathLike) -> tuple[int, int]:
    """``(W, H)`` of an image file, read from its header without decoding pixels."""
    header = png_header(read_regular_file(path, 32))
    if header is not None:
        return header[0], header[1]
    limit = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = None
        with Image.open(path) as image:
            return image.size
    except Exception as exc:  # noqa: BLE001 - any decoder failure names the file
        raise ImageDecodeError(f"{path}: cannot identify image: {_reason(exc)}") from exc
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def _png_bytes(array, level: int = 1) -> bytes:
    if level != png_encode.IMAGECODECS_LEVEL:
        raise ValueError(f"level: PNGs are written at level {png_encode.IMAGECODECS_LEVEL}, got "
                         f"{level!r}; paintkit.io.png_encode.encode_png chooses among encoders")
    return png_encode.encode_png(np.ascontiguousarray(array, dtype=np.uint8), "imagecodecs")


def write_png(path: str | os.PathLike, array: np.ndarray, level: int = 1) -> None:
    """Write ``array`` as a PNG at ``path`` atomically (temporary file, then rename); the
    bytes of :func:`paintkit.io.png_encode.encode_png` with ``encoder="imagecodecs"``."""
    write_bytes_atomic(path, _png_bytes(array, level))

"""Decode any image to 8-bit RGB (SPEC 1.1) and write PNGs atomically.

``load_rgb`` accepts a path, raw bytes, a PIL image or a NumPy array and returns a
C-contiguous uint8 ``(H, W, 3)`` array, exactly what Pillow's ``Image.convert("RGB")``
gives (RGBA: alpha dropped, not composited; L and P expanded). 8-bit RGB/RGBA PNGs are
decoded with ``imagecodecs`` (libpng, ~2.5x faster than Pillow on benchmark images) when it
is installed; everything else goes through Pillow. Images above :data:`MAX_PIXELS` are
refused from their header, before any pixel is decoded (decompression bombs).
"""

from __future__ import annotations

import io
import os
import struct
import warnings
from pathlib import Path

import numpy as np
from PIL import Image

from paintkit.errors import PaintkitError
from paintkit.io.atomic import write_bytes_atomic

#: Largest image accepted, in pixels (W * H).
MAX_PIXELS = 1 << 28
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

try:  # optional fast codec; Pillow is the fallback
    import imagecodecs as _imagecodecs
except ImportError:  # pragma: no cover - exercised where imagecodecs is absent
    _imagecodecs = None


class ImageDecodeError(PaintkitError, ValueError):
    """An image could not be read: missing, empty, corrupt, truncated or unsupported."""


class ImageTooLargeError(ImageDecodeError):
    """An image has more than :data:`MAX_PIXELS` pixels and was not decoded."""


def _check_size(width: int, height: int, where: str) -> None:
    if width * height > MAX_PIXELS:
        raise ImageTooLargeError(
            f"{where}: {width}x{height} = {width * height} pixels exceeds the limit of "
            f"{MAX_PIXELS} (2^28); refusing to decode"
        )


def png_header(data: bytes) -> tuple[int, int, int, int] | None:
    """``(width, height, bit_depth, color_type)`` from a PNG's IHDR, or None if not a PNG."""
    if len(data) < 26 or not data.startswith(_PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    width, height, depth, color = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, color


def rgb_from_array(array: np.ndarray, name: str = "image") -> np.ndarray:
    """uint8 ``(H, W, 3)`` from an array ``(H, W)``, ``(H, W, 1|3|4)``.

    uint8 is taken as is (gray expanded, alpha dropped); floats must lie in [0, 1] and
    become ``round(x * 255)`` (SPEC 1.1).
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


def _rgb_from_pil(image: Image.Image, where: str) -> np.ndarray:
    _check_size(image.width, image.height, where)
    try:
        rgb = image.convert("RGB")
    except (OSError, ValueError, SyntaxError) as exc:  # truncated / corrupt data
        raise ImageDecodeError(f"{where}: cannot decode image: {exc}") from exc
    return np.array(rgb)  # a writable copy (np.asarray of a PIL image is read-only)


def decode_rgb_bytes(data: bytes, where: str = "<bytes>") -> np.ndarray:
    """Decode encoded image bytes to uint8 ``(H, W, 3)`` (see module docstring)."""
    if not data:
        raise ImageDecodeError(f"{where}: empty file")
    header = png_header(data)
    if header is not None:
        width, height, depth, color = header
        _check_size(width, height, where)
        if _imagecodecs is not None and depth == 8 and color in (2, 6):
            try:
                pixels = _imagecodecs.png_decode(data)
            except Exception as exc:  # libpng reports corrupt/truncated data this way
                raise ImageDecodeError(f"{where}: cannot decode PNG: {exc}") from exc
            if pixels.ndim == 3 and pixels.shape[-1] in (3, 4):
                return np.ascontiguousarray(pixels[..., :3])
    limit = Image.MAX_IMAGE_PIXELS
    try:
        # Our own limit (checked from the header below) replaces Pillow's lower one.
        Image.MAX_IMAGE_PIXELS = MAX_PIXELS
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise ImageTooLargeError(f"{where}: {exc}") from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageDecodeError(f"{where}: cannot identify image: {exc}") from exc
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    return _rgb_from_pil(image, where)


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
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise ImageDecodeError(f"{path}: no such file") from exc
        except OSError as exc:
            raise ImageDecodeError(f"{path}: cannot read: {exc}") from exc
        return decode_rgb_bytes(data, str(path))
    raise TypeError(
        f"expected a path, bytes, PIL image or NumPy array, got {type(source).__name__}"
    )


def image_size(path: str | os.PathLike) -> tuple[int, int]:
    """``(W, H)`` of an image file, read from its header without decoding pixels."""
    with open(path, "rb") as fh:
        head = fh.read(32)
    header = png_header(head)
    if header is not None:
        return header[0], header[1]
    limit = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = None
        with Image.open(path) as image:
            return image.size
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageDecodeError(f"{path}: cannot identify image: {exc}") from exc
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def encode_png(array: np.ndarray, level: int = 1) -> bytes:
    """PNG bytes of a uint8 ``(H, W, 3)`` array (zlib ``level``; lossless either way)."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    if _imagecodecs is not None:
        return bytes(_imagecodecs.png_encode(array, level=level))
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


def write_png(path: str | os.PathLike, array: np.ndarray, level: int = 1) -> None:
    """Write ``array`` as a PNG at ``path`` atomically (temporary file, then rename)."""
    write_bytes_atomic(path, encode_png(array, level))

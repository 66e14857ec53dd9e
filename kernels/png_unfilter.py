"""PNG scanline unfiltering (the PNG specification, §9 "Filtering") for 8-bit RGB and RGBA.

A decoded PNG stream is ``H`` rows of one filter-type byte followed by ``W * bpp`` filtered
bytes. Each byte is reconstructed from the byte ``bpp`` to its left (``a``), the byte above
(``b``) and the one above-left (``c``), modulo 256:

- 0 None: ``x``; 1 Sub: ``x + a``; 2 Up: ``x + b``;
- 3 Average: ``x + floor((a + b) / 2)``;
- 4 Paeth: ``x + `` whichever of ``a``, ``b``, ``c`` is nearest to ``p = a + b - c``
  (ties: ``a``, then ``b``).

Bytes left of the first pixel and above the first row count as 0. An RGBA image's alpha
is reconstructed, then dropped: what ``imagecodecs.png_decode(...)[..., :3]`` and Pillow's
``convert("RGB")`` give. Numba is imported on first use only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from paintkit.kernels.pixels import rgba_to_rgb

__all__ = ["unfilter_rows"]


@lru_cache(maxsize=1)
def _kernel() -> Any:
    import numba

    @numba.njit(cache=True, nogil=True)
    def unfilter(raw, bpp, full, zeros):  # pragma: no cover - jitted
        # raw: uint8 (H, 1 + n) with n = W * bpp; full: uint8 (H, n), row y-1 is "above";
        # zeros: uint8 (n,) of 0, "above" the first row
        height = raw.shape[0]
        n = raw.shape[1] - 1
        for y in range(height):
            kind = raw[y, 0]
            row = raw[y, 1:]
            cur = full[y]
            prev = full[y - 1] if y > 0 else zeros
            if kind == 0:
                for k in range(n):
                    cur[k] = row[k]
            elif kind == 1:
                for k in range(bpp):
                    cur[k] = row[k]
                for k in range(bpp, n):
                    cur[k] = row[k] + cur[k - bpp]
            elif kind == 2:
                for k in range(n):
                    cur[k] = row[k] + prev[k]
            elif kind == 3:
                for k in range(bpp):
                    cur[k] = row[k] + (prev[k] >> 1)
                for k in range(bpp, n):
                    cur[k] = row[k] + ((np.int32(cur[k - bpp]) + np.int32(prev[k])) >> 1)
            elif kind == 4:
                for k in range(bpp):
                    cur[k] = row[k] + prev[k]  # a = c = 0: Paeth picks b
                for k in range(bpp, n):
                    a = np.int32(cur[k - bpp])
                    b = np.int32(prev[k])
                    c = np.int32(prev[k - bpp])
                    pa = abs(b - c)
                    pb = abs(a - c)
                    pc = abs(a + b - 2 * c)
                    if pa <= pb and pa <= pc:
                        pred = a
                    elif pb <= pc:
                        pred = b
                    else:
                        pred = c
                    cur[k] = row[k] + pred
            else:
                return y  # not a filter type: a corrupt stream
        return -1

    return unfilter


def unfilter_rows(raw: np.ndarray, bpp: int) -> np.ndarray | None:
    """Reconstruct the pixels of an inflated 8-bit PNG stream.

    Args:
        raw: uint8 ``(H, 1 + W * bpp)``: each row's filter-type byte and filtered bytes.
        bpp: bytes per pixel, 3 (RGB) or 4 (RGBA).

    Returns:
        uint8 ``(H, W, 3)`` (RGBA: alpha dropped), or ``None`` when a row names a filter
        type other than 0-4.
    """
    if bpp not in (3, 4):
        raise ValueError(f"bpp must be 3 (RGB) or 4 (RGBA), got {bpp!r}")
    if not (isinstance(raw, np.ndarray) and raw.dtype == np.uint8 and raw.ndim == 2
            and raw.shape[1] >= 1 and (raw.shape[1] - 1) % bpp == 0):
        raise ValueError(f"raw must be uint8 (H, 1 + W * {bpp}), got "
                         f"{getattr(raw, 'dtype', type(raw).__name__)} {getattr(raw, 'shape', '')}")
    height, width = raw.shape[0], (raw.shape[1] - 1) // bpp
    if bpp == 3 and not raw[:, 0].any():  # every row unfiltered (paintkit's own files): a copy
        return raw[:, 1:].reshape(height, width, 3).copy()
    full = np.empty((height, width * bpp), np.uint8)
    zeros = np.zeros(width * bpp, np.uint8)
    if _kernel()(np.ascontiguousarray(raw), bpp, full, zeros) >= 0:
        return None
    if bpp == 3:
        return full.reshape(height, width, 3)
    return rgba_to_rgb(full.reshape(height, width, 4))

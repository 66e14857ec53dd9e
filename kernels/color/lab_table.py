"""The canonical L*a*b* of every 8-bit sRGB colour as a torch lookup table, one per device.

The torch counting kernels look each pixel's L*a*b* up instead of computing it. The table
is :func:`~paintkit.kernels.color.lab_canonical.canonical_lab_table` (the definition of
docs/metric-definition.md §3, built once per process on the CPU), so ΔE computed from
looked-up Lab with separate IEEE float32 operations in the definition's order (subtract,
square, add, add, square root) equals the definition's ΔE bit for bit on any device:
counts are exact by construction, with no band of doubtful pixels to recompute.

Why a table: the canonical cube root costs ~50 float64 operations per channel; a lookup
costs one gather of three floats. The price: 3 x 2^24 float32 = 192 MiB per device (the
CPU tensor shares the NumPy table's memory), built once per process (about a second on
two cores) and copied once to each other device.
"""

from __future__ import annotations

import sys
import threading
import warnings

from paintkit.kernels.color.lab_canonical import NUM_COLOURS, canonical_lab_table

__all__ = ["NUM_COLOURS", "colour_codes", "held_tables", "lab_of_codes", "lab_table", "pixel_codes",
           "srgb_to_lab_exact"]

_TABLES: dict = {}
_LOCK = threading.Lock()


def held_tables() -> dict:
    """The Lab tables this process holds, by device (what a rank keeps resident)."""
    return dict(_TABLES)


def lab_table(device):
    """Planar L*a*b* of every colour code: float32 ``(3, 2^24)`` on ``device``, built once.

    Column ``code`` is the canonical Lab of colour ``(code >> 16, (code >> 8) & 255,
    code & 255)``.
    """
    import torch

    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    table = _TABLES.get(device)
    if table is not None:
        return table
    with _LOCK:  # two threads scoring at once build it once
        table = _TABLES.get(device)
        if table is None:
            with warnings.catch_warnings():  # read-only on purpose: nothing writes to it
                warnings.simplefilter("ignore", UserWarning)
                table = torch.from_numpy(canonical_lab_table())
            _TABLES[device] = table = table.to(device)
    return table


def colour_codes(red, green, blue, out=None):
    """``r * 65536 + g * 256 + b`` of uint8 channel tensors of one shape: int32, that shape.

    ``out``: an int32 tensor of that shape to write into (three passes, no temporaries).
    """
    import torch

    if out is None:
        out = torch.empty(red.shape, dtype=torch.int32, device=red.device)
    out.copy_(red)
    torch.add(green, out, alpha=256, out=out)  # int32 arithmetic: out sets the dtype
    return torch.add(blue, out, alpha=256, out=out)


def pixel_codes(rgb, scratch=None):
    """Colour codes ``r * 65536 + g * 256 + b`` of uint8 pixels ``(..., 3)``: int32 ``(...)``.

    The same numbers as :func:`colour_codes`, in three byte copies instead of three int32
    passes over strided channels: each pixel's bytes go into a 4-byte word as ``b, g, r,
    0``, which read as a little-endian int32 is the code (``r`` goes in widened to int16, so
    the zero byte is written with it). ``scratch``: a uint8 tensor
    ``(..., 4)`` on the pixels' device to build the words in (the result is a view of it).
    On a big-endian host this is :func:`colour_codes`.
    """
    import torch

    if sys.byteorder != "little":
        return colour_codes(rgb[..., 0], rgb[..., 1], rgb[..., 2])
    if scratch is None:
        scratch = torch.empty((*rgb.shape[:-1], 4), dtype=torch.uint8, device=rgb.device)
    scratch[..., 0].copy_(rgb[..., 2])
    scratch[..., 1].copy_(rgb[..., 1])
    # r widened to int16 writes the bytes r, 0 (little-endian): the top byte needs no fill
    scratch.view(torch.int16)[..., 1].copy_(rgb[..., 0])
    return scratch.view(torch.int32).view(rgb.shape[:-1])


def lab_of_codes(codes, out=None):
    """Canonical L*a*b* of colour codes: int32 ``(...)`` -> float32 planar ``(3, ...)``.

    One gather from :func:`lab_table` on the codes' device; ``out`` (float32 ``(3, ...)``,
    contiguous) receives it.
    """
    import torch

    table = lab_table(codes.device)
    if out is None:
        out = torch.empty((3, *codes.shape), dtype=torch.float32, device=codes.device)
    torch.index_select(table, 1, codes.reshape(-1), out=out.view(3, -1))
    return out


def srgb_to_lab_exact(rgb):
    """Canonical L*a*b* of an sRGB tensor: uint8 ``(..., 3)`` -> float32 ``(..., 3)``.

    Bit-identical to docs/metric-definition.md §3 on any device. The result
    is a channels-last view of planar storage (``movedim(-1, 0)`` is contiguous), like
    :func:`~paintkit.kernels.color.lab.srgb_to_lab_torch`.

    Example:
        >>> import torch
        >>> srgb_to_lab_exact(torch.tensor([[255, 0, 0]], dtype=torch.uint8)).round(decimals=2)
        tensor([[53.2400, 80.0900, 67.2000]])
    """
    import torch

    if not isinstance(rgb, torch.Tensor) or rgb.dtype != torch.uint8 or rgb.shape[-1:] != (3,):
        got = f"{getattr(rgb, 'dtype', type(rgb).__name__)} {tuple(getattr(rgb, 'shape', ()))}"
        raise ValueError(f"rgb: expected a uint8 tensor of shape (..., 3), got {got}")
    codes = colour_codes(rgb[..., 0], rgb[..., 1], rgb[..., 2])
    return lab_of_codes(codes).movedim(0, -1)

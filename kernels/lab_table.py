"""L*a*b* of every 8-bit sRGB colour in the reference arithmetic: one lookup table per device.

The torch counting kernel looks each pixel's L*a*b* up instead of computing it. The table
holds, for all 2^24 colours, the Lab of
:func:`~paintkit.kernels.lab.srgb_planes_to_lab_reference` (bit-identical to the plain
NumPy definition of docs/metric-definition.md §3), so ΔE computed from looked-up Lab with
separate IEEE float32 operations in the definition's order (subtract, square, add, add,
square root) equals the definition's ΔE bit for bit: counts are exact by construction, with
no band of doubtful pixels to recompute.

Why a table: on CPU the cube root alone costs ~4 ns per channel (``pow``), three per pixel,
more than everything else together; a lookup costs one gather of three floats.
The price: 3 x 2^24 float32 = 192 MiB per device, built once per process and device the
first time it is needed (about 1-4 s on a CPU, milliseconds on a GPU).
"""

from __future__ import annotations

import threading

#: Number of 8-bit sRGB colours; a colour's code is ``r * 65536 + g * 256 + b``.
NUM_COLOURS = 1 << 24
_BUILD_STEP = 1 << 20  # colours converted per step while building (bounds temporaries)

_TABLES: dict = {}
_LOCK = threading.Lock()


def lab_table(device):
    """Planar L*a*b* of every colour code: float32 ``(3, 2^24)`` on ``device``, built once.

    Column ``code`` is the reference Lab of colour ``(code >> 16, (code >> 8) & 255,
    code & 255)``.
    """
    import torch

    from paintkit.kernels.lab import srgb_planes_to_lab_reference

    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    table = _TABLES.get(device)
    if table is not None:
        return table
    with _LOCK:  # two threads scoring at once build it once
        table = _TABLES.get(device)
        if table is None:
            # the reference arithmetic needs float64: devices without it (Apple's MPS) get
            # the table built on the CPU and copied over once
            build = device if device.type in ("cpu", "cuda") else torch.device("cpu")
            table = torch.empty((3, NUM_COLOURS), dtype=torch.float32, device=build)
            for start in range(0, NUM_COLOURS, _BUILD_STEP):
                code = torch.arange(start, start + _BUILD_STEP, dtype=torch.int32,
                                    device=build)
                planes = torch.stack((code >> 16, (code >> 8) & 255, code & 255))
                table[:, start:start + _BUILD_STEP] = srgb_planes_to_lab_reference(
                    planes.to(torch.uint8))
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


def lab_of_codes(codes, out=None):
    """Reference L*a*b* of colour codes: int32 ``(...)`` -> float32 planar ``(3, ...)``.

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
    """Reference L*a*b* of an sRGB tensor: uint8 ``(..., 3)`` -> float32 ``(..., 3)``.

    Bit-identical to docs/metric-definition.md §3 evaluated in float32 NumPy. The result
    is a channels-last view of planar storage (``movedim(-1, 0)`` is contiguous), like
    :func:`~paintkit.kernels.lab.srgb_to_lab_torch`.

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

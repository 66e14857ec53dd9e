"""The score kernels as they were before issue 28's second round, for side-by-side benches.

``previous_torch_counting()`` is a context manager that swaps the torch counting kernel's
per-pixel steps (:mod:`paintkit.kernels.tolerance_counts_torch`) back to the previous
implementation: colour codes from three strided int32 passes, ``ΔE²`` over all three Lab
planes at once, bins from a library ``sqrt`` plus a recheck of the pixels near an integer,
the ``O == A == I`` sample taken pixel by pixel, and the edit flag of the pair index
converted and scaled in two passes. Both give the same counts (the tests
check the current one against the NumPy oracle); only the time differs.
"""

from __future__ import annotations

import contextlib

from paintkit.kernels import tolerance_counts_torch as tct
from paintkit.kernels.lab import Workspace
from paintkit.kernels.lab_table import colour_codes

_NEAR_INTEGER = 4e-6
_THRESHOLDS_ON: dict = {}


def squared_delta_e_before(lab_a, lab_b, work=None, name="bins"):
    import torch

    work = work or Workspace(lab_a.device)
    shape = torch.broadcast_shapes(lab_a.shape, lab_b.shape)
    d = torch.sub(lab_a, lab_b, out=work.get("bins_d3", shape, torch.float32))
    d.mul_(d)
    dist = torch.add(d[0], d[1], out=work.get(name, shape[1:], torch.float32))
    return dist.add_(d[2])


def bins_of_squared_before(squared, work=None, name="bins_int"):
    import torch

    work = work or Workspace(squared.device)
    root = torch.sqrt(squared, out=work.get(name + "_root", squared.shape, torch.float32))
    up = torch.ceil(root, out=work.get(name + "_up", squared.shape, torch.float32))
    gap = torch.sub(up, root, out=root).sub_(0.5).abs_()
    near = torch.gt(gap, 0.5 - _NEAR_INTEGER, out=work.get(name + "_near", squared.shape,
                                                            torch.bool))
    near.logical_and_(torch.gt(up, 0.5, out=work.get(name + "_pos", squared.shape,
                                                       torch.bool)))
    bins = work.get(name, squared.shape, torch.int32).copy_(up.clamp_(max=tct.NUM_BINS - 1))
    if bool(near.any()):
        device = squared.device
        thresholds = _THRESHOLDS_ON.get(device)
        if thresholds is None:
            thresholds = _THRESHOLDS_ON[device] = torch.from_numpy(tct.BIN_THRESHOLDS).to(device)
        flat = bins.view(-1)
        where = near.view(-1).nonzero().view(-1)
        flat.index_copy_(0, where, torch.bucketize(
            squared.reshape(-1).index_select(0, where), thresholds, out_int32=True))
    return bins


def mostly_changed_before(o, a, i):
    o_s, a_s, i_s = (x[:, ::31] for x in (o, a, i))
    same = ((o_s == a_s) & (o_s == i_s)).all(dim=-1)
    return 4 * int(same.sum()) < same.numel()


def pixel_codes_before(rgb, scratch=None):
    import torch

    out = torch.empty(rgb.shape[:-1], dtype=torch.int32, device=rgb.device)
    return colour_codes(rgb[..., 0], rgb[..., 1], rgb[..., 2], out)


def pair_counts_before(lab_o, lab_a, lab_i, edit, offsets, minlength, work):
    import torch

    bin_oa = tct.delta_e_bins(lab_o, lab_a, work, "bin_oa")
    bin_oi = tct.delta_e_bins(lab_o, lab_i, work, "bin_oi")
    index = torch.mul(bin_oi, tct.NUM_BINS, out=work.get("index", bin_oi.shape, torch.int32))
    index.add_(bin_oa).add_(edit.to(torch.int32).mul_(tct.NUM_BINS * tct.NUM_BINS))
    if offsets is not None:
        index.add_(offsets)
    return torch.bincount(index.view(-1), minlength=minlength), bin_oa


@contextlib.contextmanager
def previous_torch_counting():
    """Run :func:`~paintkit.kernels.tolerance_counts_torch.tolerance_histograms_torch` with
    the previous per-pixel steps inside the ``with`` block."""
    swaps = {"squared_delta_e": squared_delta_e_before, "bins_of_squared": bins_of_squared_before,
             "_mostly_changed": mostly_changed_before, "pixel_codes": pixel_codes_before,
             "_pair_counts": pair_counts_before}
    saved = {name: getattr(tct, name) for name in swaps}
    try:
        for name, fn in swaps.items():
            setattr(tct, name, fn)
        yield
    finally:
        for name, fn in saved.items():
            setattr(tct, name, fn)


__all__ = ["previous_torch_counting"]

"""Torch implementation of the fused tolerance histograms (see ``tolerance_counts``).

Runs wherever its tensors are (CPU or CUDA), in chunks of pixels so temporaries stay in
cache on CPU and bounded on GPU. Per chunk:

- pixels where ``O == A == I`` (uint8 comparison) need no Lab at all: ``ΔE = 0`` twice.
  When they are the majority (palette outputs) only the other pixels are gathered;
- the outputs' L*a*b* is looked up in :func:`~paintkit.kernels.color.lab_table.lab_table`, the
  canonical Lab of every 8-bit colour (the answers' and inputs' Lab come from the same
  table, see :class:`paintkit.metrics.Targets`); ``ΔE²`` is then computed with separate
  float32 operations in the definition's order and each bin ``min(ceil(ΔE), 11)`` read from
  it by comparison with :data:`BIN_THRESHOLDS` (no library square root), so every count is
  the definition's (docs/metric-definition.md §3-6) exactly, on any device;
- one ``bincount`` on a combined index ``288 * problem + 144 * in_edit + 12 * bin_oi +
  bin_oa`` gives both histograms (on CUDA ``bincount`` reads its maximum back to the host:
  this kernel is the fallback there; an accumulating scatter instead measured 20x slower on
  an H200).
"""

from __future__ import annotations

import numpy as np

from paintkit.kernels.color.lab import Workspace
from paintkit.kernels.color.lab_table import (
    colour_codes,
    lab_of_codes,
    pixel_codes,
    srgb_to_lab_exact,
)
from paintkit.kernels.counting.bins import (
    BIN_THRESHOLDS,
    HIST_CHANGED,
    HIST_EDIT,
    HIST_PRESERVATION,
    NUM_BINS,
)

_PAIRS = NUM_BINS * NUM_BINS  # (bin_oa, bin_oi) combinations per region
#: Pixels per chunk by device type: CPU keeps temporaries near cache, CUDA amortises launches.
DEFAULT_PIXELS_PER_STEP = {"cpu": 1 << 18, "cuda": 1 << 24}


def changed_mask_torch(answers, inputs):
    """Edit region ``E`` (metric §5): bool ``(B, H, W)`` from uint8 ``(B, H, W, 3)`` tensors."""
    return (answers != inputs).any(dim=-1)




def squared_delta_e(lab_a, lab_b, work=None, name="bins"):
    """CIE76 ``ΔE²`` per pixel, float32 ``(...)``, from planar Lab ``(3, ...)``.

    Separate float32 operations in the definition's order, ``(dL*dL + da*da) + db*db``
    (docs/metric-definition.md §4). With a :class:`~paintkit.kernels.color.lab.Workspace` the
    result lives in its buffer ``name``.
    """
    import torch

    work = work or Workspace(lab_a.device)
    shape = torch.broadcast_shapes(lab_a.shape, lab_b.shape)
    # plane by plane: two buffers of one plane stay in cache between the passes
    d = work.get("bins_d", shape[1:], torch.float32)
    dist = torch.sub(lab_a[0], lab_b[0], out=work.get(name, shape[1:], torch.float32))
    dist.mul_(dist)
    for c in (1, 2):  # (dL^2 + da^2) + db^2, the definition's order
        torch.sub(lab_a[c], lab_b[c], out=d)
        dist.add_(d.mul_(d))
    return dist


_BUCKET_SHIFT = 20  # float32 bits >> 20: 2^20 ulps per bucket, at most one threshold each


def _bucket_tables():
    """``(base, threshold)``: int32 and float32 ``(n,)`` over buckets of float32 bit
    patterns (``bits >> _BUCKET_SHIFT``; non-negative floats order like their bits). Bucket
    ``j`` holds at most one :data:`BIN_THRESHOLDS` entry: ``base[j]`` counts the thresholds
    below the bucket, ``threshold[j]`` is the one inside it (``+inf`` if none). The last
    bucket collects everything from 128 up (all bin 11)."""
    top = int(np.float32(128).view(np.int32)) >> _BUCKET_SHIFT
    bits = BIN_THRESHOLDS.view(np.int32).astype(np.int64)
    buckets = bits >> _BUCKET_SHIFT
    assert np.all(np.diff(buckets) > 0) and buckets[-1] < top  # one threshold per bucket
    lows = np.arange(top + 1, dtype=np.int64) << _BUCKET_SHIFT
    base = np.searchsorted(bits, lows, side="left").astype(np.int32)  # thresholds < low
    threshold = np.full(top + 1, np.inf, np.float32)
    threshold[buckets] = BIN_THRESHOLDS
    return base, threshold


_BUCKET_BASE, _BUCKET_THRESHOLD = _bucket_tables()
_BUCKETS_ON: dict = {}


def held_bucket_tables() -> dict:
    """The ``ΔE²`` bucket tables this process holds, by device: ``(base, threshold)`` pairs."""
    return dict(_BUCKETS_ON)


def bins_of_squared(squared, work=None, name="bins_int"):
    """``min(ceil(ΔE), 11)`` per pixel, int32, from float32 ``ΔE²`` (non-negative, not NaN):
    exactly the bin of the definition's correctly rounded ``sqrt``, on every device.

    No square root at all: the bin is the number of :data:`BIN_THRESHOLDS` below ``ΔE²``.
    Non-negative floats order like their bit patterns, so the high bits pick a bucket that
    holds at most one threshold; the bin is the bucket's count of thresholds below it plus
    one where ``ΔE²`` exceeds the threshold inside it (read from the sign of
    ``threshold - ΔE²``, which is zero only when the two are equal). Two gathers from
    1,073-entry tables and four passes, and no library function whose rounding could vary
    (torch's CPU ``sqrt`` is off by an ulp on ~0.7 % of inputs on AVX-512 machines).
    """
    import torch

    work = work or Workspace(squared.device)
    device = squared.device
    tables = _BUCKETS_ON.get(device)
    if tables is None:
        tables = _BUCKETS_ON[device] = (torch.from_numpy(_BUCKET_BASE).to(device),
                                        torch.from_numpy(_BUCKET_THRESHOLD).to(device))
    flat = squared.reshape(-1)
    index = torch.bitwise_right_shift(flat.view(torch.int32), _BUCKET_SHIFT,
                                      out=work.get(name + "_bucket", flat.shape, torch.int32))
    index.clamp_(max=tables[0].shape[0] - 1)
    bins = torch.index_select(tables[0], 0, index,
                              out=work.get(name, flat.shape, torch.int32))
    above = torch.index_select(tables[1], 0, index,
                               out=work.get(name + "_gap", flat.shape, torch.float32))
    above.sub_(flat)  # threshold - ΔE²: negative exactly where ΔE² > threshold
    sign = torch.bitwise_right_shift(above.view(torch.int32), 31, out=index)  # -1 or 0
    return bins.sub_(sign).view(squared.shape)


def delta_e_bins(lab_a, lab_b, work=None, name="bins"):
    """``min(ceil(ΔE), 11)`` per pixel as int32 ``(...)`` from planar Lab ``(3, ...)``."""
    return bins_of_squared(squared_delta_e(lab_a, lab_b, work, name), work,
                           name + "_int")


def _group_need(o, a, i):
    """Which 8-pixel groups differ from A or I: bool ``(k, m // 8)`` (24 bytes = 3 int64)."""
    import torch

    k, m = o.shape[:2]
    words = [x.reshape(k, 3 * m).view(torch.int64) for x in (o, a, i)]
    same = (words[0] == words[1]).logical_and_(words[0] == words[2]).view(k, m // 8, 3)
    return ~(same[..., 0] & same[..., 1] & same[..., 2])


def _mostly_changed(o, a, i):
    """True when a sample of the 8-pixel groups (every 31st; all of them in a chunk of
    fewer than 1,024 pixels; compared as three int64 words, like :func:`_group_need`) says
    most differ from ``A`` or ``I``: then the group-by-group check cannot pay for itself
    (it costs ~10 % of a chunk of new colours).
    Needs ``m % 8 == 0`` and 8-byte aligned storage, as :func:`_group_need`."""
    import torch

    k, m = o.shape[:2]
    stride = max(1, min(31, m // 512))  # small chunks: every group
    o_s, a_s, i_s = (x.reshape(k, 3 * m).view(torch.int64).view(k, m // 8, 3)[:, ::stride]
                     for x in (o, a, i))
    same = ((o_s == a_s) & (o_s == i_s)).all(dim=-1)
    return 4 * int(same.sum()) < same.numel()


def _pair_counts(lab_o, lab_a, lab_i, edit, offsets, minlength, work):
    """Pair counts ``(minlength,)`` and ``bin_oa`` int32 ``(...)`` of Lab ``(3, ...)``.

    ``edit``: bool ``(...)``; ``offsets``: int32 ``288 * problem`` broadcastable to
    ``(...)``, or None for one problem.
    """
    import torch

    bin_oa = delta_e_bins(lab_o, lab_a, work, "bin_oa")
    bin_oi = delta_e_bins(lab_o, lab_i, work, "bin_oi")
    index = torch.mul(bin_oi, NUM_BINS, out=work.get("index", bin_oi.shape, torch.int32))
    index.add_(bin_oa).add_(edit, alpha=_PAIRS)  # bool edit: 0 or 144, one pass
    if offsets is not None:
        index.add_(offsets)
    return torch.bincount(index.view(-1), minlength=minlength), bin_oa


def _chunk_counts(o, a, i, lab_a, lab_i, edit, want_bins, work):
    """Pair counts ``(k * 288,)`` and (``want_bins``) ``bin_oa`` float ``(k, m)`` of a chunk.

    ``o``, ``a``, ``i``: uint8 ``(k, m, 3)``; ``lab_a``, ``lab_i``: float32 ``(3, k, m)``
    exact Lab; ``edit``: bool ``(k, m)``. Index layout ``288 * problem + 144 * in_edit +
    12 * bin_oi + bin_oa``.
    """
    import torch

    k, m = edit.shape
    device = edit.device
    offsets = None if k == 1 else torch.arange(
        k, device=device, dtype=torch.int32).mul_(2 * _PAIRS).view(k, 1)
    minlength = k * 2 * _PAIRS
    pix = None
    # The O == A == I shortcut decides on the host from data on the device (a count read
    # back): on CPU that is free, on CUDA it would stall every call, so CUDA runs dense.
    if device.type == "cpu" and m % 8 == 0 and all(x.storage_offset() % 8 == 0
                                                   for x in (o, a, i)) \
            and not _mostly_changed(o, a, i):
        need = _group_need(o, a, i)
        if 2 * int(need.sum()) < need.numel():  # mostly O == A == I: only the other groups
            groups = need.view(-1).nonzero().view(-1, 1)
            pix = (groups * 8 + torch.arange(8, device=device)).view(-1)
    if pix is None:
        codes = pixel_codes(o, work.get("code_bytes", (k, m, 4), torch.uint8))
        lab_o = lab_of_codes(codes, work.get("lab_o", (3, k, m), torch.float32))
        counts, bin_oa = _pair_counts(lab_o, lab_a, lab_i, edit, offsets, minlength, work)
        return counts, (bin_oa if want_bins else None)
    o_sel = o.reshape(-1, 3).index_select(0, pix).t()
    codes = colour_codes(o_sel[0], o_sel[1], o_sel[2], work.get("codes", pix.shape, torch.int32))
    lab_o = lab_of_codes(codes, work.get("lab_o", (3, *pix.shape), torch.float32))
    counts, bin_oa = _pair_counts(
        lab_o, lab_a.reshape(3, -1).index_select(1, pix), lab_i.reshape(3, -1).index_select(1, pix),
        edit.view(-1).index_select(0, pix), None if offsets is None else
        (pix // m).to(torch.int32).mul_(2 * _PAIRS), minlength, work)
    # The pixels left out have both bins 0: add them to pair (0, 0) of their region.
    pairs = counts.view(k, 2, _PAIRS)
    n_edit = edit.sum(dim=1)
    pairs[:, :, 0] += torch.stack((m - n_edit, n_edit), dim=1) - pairs.sum(dim=2)
    full = None
    if want_bins:
        full = torch.zeros(k * m, dtype=torch.int32, device=device)
        full.index_copy_(0, pix, bin_oa)
        full = full.view(k, m)
    return counts, full


def _fold(counts, k):
    """``(k * 288,)`` pair counts -> ``(k, 3, 12)`` histograms."""
    import torch

    pairs = counts.view(k, 2, NUM_BINS, NUM_BINS)  # problem, in_edit, bin_oi, bin_oa
    hist = torch.empty((k, 3, NUM_BINS), dtype=counts.dtype, device=counts.device)
    hist[:, HIST_EDIT] = pairs[:, 1].sum(dim=1)
    hist[:, HIST_PRESERVATION] = pairs[:, 0].sum(dim=1)
    hist[:, HIST_CHANGED] = pairs.sum(dim=(1, 3))
    return hist


def tolerance_histograms_torch(
    outputs,
    answers=None,
    inputs=None,
    *,
    lab_answers=None,
    lab_inputs=None,
    edit_mask=None,
    return_bins: bool = False,
    max_pixels_per_step: int | None = None,
):
    """Per-problem ``(3, 12)`` ΔE histograms with torch, on the tensors' device.

    Args:
        outputs: uint8 ``(B, H, W, 3)`` (normalised to the answer size).
        answers, inputs: uint8 ``(B, H, W, 3)`` (the ``O == A == I`` shortcut reads them).
        lab_answers, lab_inputs, edit_mask: float32 ``(B, H, W, 3)`` reference Lab (from
            :func:`~paintkit.kernels.color.lab_table.srgb_to_lab_exact`; approximate Lab would
            make the counts approximate) and bool ``(B, H, W)`` edit region of the
            answers/inputs, precomputed once and reused for many outputs (see
            :class:`paintkit.metrics.Targets`); computed if omitted.
        return_bins: also return ``ceil(ΔE(O, A))`` clipped to 11, uint8 ``(B, H, W)``.
        max_pixels_per_step: pixels per chunk (bounds temporary memory); default
            :data:`DEFAULT_PIXELS_PER_STEP` for the device type.

    Returns:
        int64 ``(B, 3, 12)`` on the outputs' device, or ``(histograms, bins)``.
    """
    import torch

    if answers is None or inputs is None:
        raise ValueError("answers, inputs: the uint8 answers and inputs are required (the "
                         "O == A == I shortcut reads them), got None")
    if lab_answers is None:
        lab_answers = srgb_to_lab_exact(answers)
    if lab_inputs is None:
        lab_inputs = srgb_to_lab_exact(inputs)
    if edit_mask is None:
        edit_mask = changed_mask_torch(answers, inputs)
    n, height, width = outputs.shape[:3]
    hw = height * width
    device = outputs.device
    step = max_pixels_per_step or DEFAULT_PIXELS_PER_STEP.get(device.type, 1 << 24)
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bins_all = torch.empty((n, height, width), dtype=torch.uint8, device=device) \
        if return_bins else None
    if n == 0 or hw == 0:
        return (hist, bins_all) if return_bins else hist
    out = outputs.reshape(n, hw, 3)
    ans = answers.reshape(n, hw, 3)
    inp = inputs.reshape(n, hw, 3)
    lab_a = lab_answers.reshape(n, hw, 3).movedim(-1, 0)
    lab_i = lab_inputs.reshape(n, hw, 3).movedim(-1, 0)
    edit = edit_mask.reshape(n, hw)
    # Whole problems per chunk (bounded so the combined index stays small), or ...
    k = max(1, min(n, step // hw, (1 << 24) // (2 * _PAIRS)))
    m = min(hw, max(1, step))  # ... pixels of one problem per chunk
    work = Workspace(device)
    for p0 in range(0, n, k):
        p1 = min(n, p0 + k)
        for u in range(0, hw, m):
            v = min(hw, u + m)
            counts, bin_oa = _chunk_counts(
                out[p0:p1, u:v], ans[p0:p1, u:v], inp[p0:p1, u:v], lab_a[:, p0:p1, u:v],
                lab_i[:, p0:p1, u:v], edit[p0:p1, u:v], bins_all is not None, work)
            hist[p0:p1] += _fold(counts, p1 - p0)
            if bins_all is not None:
                bins_all.view(n, hw)[p0:p1, u:v] = bin_oa.to(torch.uint8)
    return (hist, bins_all) if return_bins else hist

"""The torch update step: outputs on one device -> histograms on that device, in input order.

Nothing crosses between host and device inside a batch: problems are grouped by canvas size
(a :class:`~paintkit.metrics.targets.TargetGroup` each, prepared once), the outputs of a
group are normalised and stacked on the device, each group runs as one sub-batch of
:func:`~paintkit.kernels.tolerance_counts_torch.tolerance_histograms_torch`, and its rows
are scattered back to their input positions with ``index_copy_``.
"""

from __future__ import annotations

from paintkit.kernels.normalize import normalize_output_torch
from paintkit.metrics.coerce import MissingImage, output_on_device
from paintkit.metrics.histograms import torch_histograms

NUM_BINS = 12


def _outputs_of(outs, positions, samples, g, size, group, device):
    """Sample ``g`` of each problem of a group, normalised: uint8 ``(G, H, W, 3)``, and
    whether each is present (Python bools)."""
    import torch  # heavy: loaded on first use

    # heavy: paintkit.kernels.normalize compiles with Numba at import
    if not isinstance(outs, list):  # a batch tensor: a strided view per sample, ...
        batch = outs if samples == 1 else outs.view(-1, samples, *outs.shape[1:])[:, g]
        if len(positions) != len(batch):  # ... and the group's rows when sizes are mixed
            batch = batch.index_select(0, group.index)
        return normalize_output_torch(output_on_device(batch, device, "outputs"), size), None
    images, present = [], []
    for j, k in enumerate(positions):
        out = outs[k * samples + g]
        if isinstance(out, MissingImage):
            images.append(group.answers[j])  # counted, then zeroed by has_output
            present.append(False)
        else:
            images.append(normalize_output_torch(
                output_on_device(out, device, f"outputs[{k * samples + g}]"), size))
            present.append(True)
    return torch.stack(images), present


def torch_statistics(outs, reference, device, samples: int, return_bins: bool,
                     delta_e: str = "cie76"):
    """``(hist, has_output, output_sizes, answer_sizes, errors, bins)`` of a batch.

    ``hist``: int64 ``(N, 3, 12)`` on ``device``; ``has_output``: bool ``(N,)`` on ``device``;
    ``bins``: with ``return_bins`` a list of uint8 ``(H, W)`` tensors (None when missing).
    ``delta_e``: the formula (:func:`~paintkit.metrics.histograms.torch_histograms` picks
    the kernel).
    """
    import torch  # heavy: loaded on first use

    n = len(outs)
    answer_sizes = [reference.answer_size(k // samples) for k in range(n)]
    if isinstance(outs, list):
        missing = [isinstance(o, MissingImage) for o in outs]
        errors = [o.error if m else None for o, m in zip(outs, missing, strict=True)]
        output_sizes = [None if m else (int(o.shape[-2]), int(o.shape[-3]))
                        for o, m in zip(outs, missing, strict=True)]
    else:
        missing, errors = [False] * n, [None] * n
        output_sizes = [(int(outs.shape[-2]), int(outs.shape[-3]))] * n
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bins = [None] * n if return_bins else None
    for group in reference.torch_groups(device):
        for g in range(samples):
            o, _ = _outputs_of(outs, group.positions, samples, g, group.size, group, device)
            res = torch_histograms(o, group, delta_e, return_bins)
            h, b = res if return_bins else (res, None)
            rows = group.index * samples + g if samples > 1 else group.index
            hist.index_copy_(0, rows, h)
            if return_bins:
                for j, k in enumerate(group.positions):
                    if not missing[k * samples + g]:
                        bins[k * samples + g] = b[j]
    has_output = ~torch.tensor(missing, dtype=torch.bool).to(device) if any(missing) else \
        torch.ones(n, dtype=torch.bool, device=device)
    return hist, has_output, output_sizes, answer_sizes, errors, bins

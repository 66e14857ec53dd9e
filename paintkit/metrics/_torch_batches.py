"""The torch update step: outputs on one device -> histograms on that device, in input order.

Nothing crosses between host and device inside a batch: problems are grouped by canvas size
(a :class:`~paintkit.metrics.targets.TargetGroup` each, prepared once), the outputs of a
group are normalised and stacked on the device, each group runs as one sub-batch of
:func:`~paintkit.kernels.counting.cie76_torch.tolerance_histograms_torch`, and its rows
are scattered back to their input positions with ``index_copy_``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paintkit.kernels.normalize import normalize_output_torch
from paintkit.metrics.coerce import MissingImage, output_on_device, tensor_nhwc
from paintkit.metrics.counts import NUM_BINS, cuda_histograms, cuda_rewards, torch_histograms

if TYPE_CHECKING:
    import torch

    from paintkit.metrics.targets import TargetGroup, Targets
    from paintkit.types import DeviceLike


def _outputs_of(outs: Any, positions: list[int], samples: int, g: int, size: tuple[int, int],
                group: TargetGroup, device: DeviceLike) -> tuple[torch.Tensor, Any]:
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


def fused_cuda_arrays(outputs: torch.Tensor, reference: Targets, samples: int
                      ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None:
    """``(outputs, answers, inputs)`` as the fused Numba CUDA kernel reads them: uint8 or
    float32 ``(N, H, W, 3)`` (a view of the batch) and the prepared uint8 ``(B, H, W, 3)``
    targets; or None when the batch needs the general path (several canvas sizes, outputs
    of another size, a dtype other than uint8 / float32)."""
    import torch  # heavy: loaded on first use

    nhwc = tensor_nhwc(outputs, "outputs")
    if nhwc.dtype not in (torch.uint8, torch.float32):
        return None
    groups = reference.torch_groups(nhwc.device)
    if len(groups) != 1 or groups[0].positions != list(range(len(reference))) \
            or len(nhwc) != len(reference) * samples \
            or (int(nhwc.shape[2]), int(nhwc.shape[1])) != tuple(groups[0].size):
        return None
    return nhwc, groups[0].answers, groups[0].inputs


def fused_cuda_batch(outputs: torch.Tensor, reference: Targets, samples: int,
                     delta_e: str = "cie76") -> tuple[torch.Tensor, torch.Tensor, bool] | None:
    """Counts of a CUDA batch tensor in one launch of the fused Numba CUDA kernel:
    ``(hist, outside, is_float)``: int64 ``(N, 3, 12)``, int32 ``(N,)`` float values outside
    [0, 1] per output (always 0 for uint8) and whether the outputs were floats; or None
    when the batch needs the general path (:func:`fused_cuda_arrays`).

    Floats are converted inside the kernel, so nothing is read back to the host: the range
    check's result stays on the device in ``outside``.
    """
    arrays = fused_cuda_arrays(outputs, reference, samples)
    if arrays is None:
        return None
    hist, outside = cuda_histograms(*arrays, samples=samples, delta_e=delta_e)
    return hist, outside, arrays[0].dtype.is_floating_point


def fused_cuda_rewards(outputs: torch.Tensor, reference: Targets, samples: int,
                       tolerance: int | None, delta_e: str = "cie76") -> torch.Tensor | None:
    """float32 ``(N,)`` rewards of a CUDA batch tensor, counted and computed in one launch
    of the fused Numba CUDA kernel (NaN for float outputs outside [0, 1]); or None when the
    batch needs the general path (:func:`fused_cuda_arrays`)."""
    arrays = fused_cuda_arrays(outputs, reference, samples)
    if arrays is None:
        return None
    return cuda_rewards(*arrays, samples=samples, tolerance=tolerance, delta_e=delta_e)


def torch_statistics(outs: Any, reference: Targets, device: DeviceLike, samples: int,
                     return_bins: bool, delta_e: str = "cie76", fused: bool = False
                     ) -> tuple[Any, ...]:
    """``(hist, has_output, output_sizes, answer_sizes, errors, bins)`` of a batch.

    ``hist``: int64 ``(N, 3, 12)`` on ``device``; ``has_output``: bool ``(N,)`` on ``device``;
    ``bins``: with ``return_bins`` a list of uint8 ``(H, W)`` tensors (None when missing).
    ``delta_e``: the formula (:func:`~paintkit.metrics.counts.torch_histograms` picks
    the kernel); ``fused``: CIE76 counts on CUDA by the fused Numba CUDA kernel.
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
    bins: Any = [None] * n if return_bins else None
    for group in reference.torch_groups(device):
        for g in range(samples):
            o, _ = _outputs_of(outs, group.positions, samples, g, group.size, group, device)
            res = torch_histograms(o, group, delta_e, return_bins, fused)
            b: Any
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

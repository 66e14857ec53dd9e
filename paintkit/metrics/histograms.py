"""Which kernel counts a batch: the one place where the ΔE formula picks an implementation.

Every scorer (``score``, rewards, ``paintkit eval``, turns) gets its per-problem ``(3, 12)``
ΔE histograms (docs/metric-definition.md §6) through :func:`numpy_histograms` (NumPy
batches, Numba on the CPU) or :func:`torch_histograms` (tensors, on their device):

- CIE76, the benchmark's formula: the fused exact kernels
  (:mod:`paintkit.kernels.tolerance_counts` on the CPU, on CUDA
  :mod:`paintkit.kernels.tolerance_counts_cuda` where Numba's CUDA target runs, else
  :mod:`paintkit.kernels.tolerance_counts_torch`, the fallback and reference on any device);
- CIE94 and CIEDE2000 (opt-in): the formula-generic kernels of
  :mod:`paintkit.kernels.delta_e_counts`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from paintkit.kernels.delta_e import check_delta_e
from paintkit.kernels.delta_e_counts import tolerance_histograms_delta_e
from paintkit.kernels.tolerance_counts import tolerance_histograms_numba
from paintkit.kernels.tolerance_counts_torch import tolerance_histograms_torch

if TYPE_CHECKING:
    import torch

    from paintkit.metrics.targets import TargetGroup

__all__ = ["fused_cuda_available", "numpy_histograms", "torch_histograms"]


def fused_cuda_available() -> bool:
    """Whether CIE76 counts of CUDA tensors can run in the fused Numba CUDA kernel (Numba's
    CUDA target and a driver are present; imported on first ask)."""
    from paintkit.kernels.tolerance_counts_cuda import cuda_kernel_available  # numba.cuda

    return cuda_kernel_available()


def numpy_histograms(delta_e: str = "cie76") -> Callable[..., Any]:
    """The CPU histogram kernel of ``delta_e``: ``kernel(outputs, answers, inputs,
    return_bins=False, samples_per_problem=1)`` on uint8 ``(B, H, W, 3)`` outputs and
    ``(B / G, H, W, 3)`` answers and inputs (``G = samples_per_problem``) -> int64
    ``(B, 3, 12)`` (and uint8 ``(B, H, W)`` bins).

    Raises:
        ValueError: an unknown formula.
    """
    if check_delta_e(delta_e) == "cie76":
        return tolerance_histograms_numba

    def kernel(outputs: Any, answers: Any, inputs: Any, return_bins: bool = False,
               samples_per_problem: int = 1) -> Any:
        return tolerance_histograms_delta_e(outputs, answers, inputs, delta_e,
                                            return_bins=return_bins,
                                            samples_per_problem=samples_per_problem)

    return kernel


def torch_histograms(outputs: torch.Tensor, group: TargetGroup, delta_e: str = "cie76",
                     return_bins: bool = False, fused: bool = False) -> Any:
    """Histograms of uint8 ``(G, H, W, 3)`` outputs against a prepared
    :class:`~paintkit.metrics.targets.TargetGroup` on the outputs' device: int64
    ``(G, 3, 12)``, or ``(histograms, bins)``.

    ``fused``: count CIE76 CUDA batches with the fused Numba CUDA kernel (without
    ``return_bins``; the caller checked :func:`fused_cuda_available`).
    """
    if check_delta_e(delta_e) == "cie76" and fused and not return_bins:
        from paintkit.kernels.tolerance_counts_cuda import tolerance_histograms_cuda  # numba.cuda

        return tolerance_histograms_cuda(outputs, group.answers, group.inputs)[0]
    if delta_e == "cie76":
        return tolerance_histograms_torch(
            outputs, group.answers, group.inputs, lab_answers=group.lab_answers,
            lab_inputs=group.lab_inputs, edit_mask=group.edit, return_bins=return_bins)

    return tolerance_histograms_delta_e(outputs, group.answers, group.inputs, delta_e,
                                        return_bins=return_bins)

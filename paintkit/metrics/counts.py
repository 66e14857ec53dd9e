"""The update step's one dispatch: a batch -> per-tolerance counts, for every backend and ΔE formula.

This module is the only importer of the counting kernels (:mod:`paintkit.kernels.counting`);
everything that scores (``score``, ``reward``, the accumulator, ``paintkit eval``, the
explainer, the generator's identity rule, the report's gallery, the service) asks it, and the
compute step (:func:`~paintkit.metrics.compute_step.tolerance_figures`) turns what it returns into
figures. Counts come back in the caller's array type: NumPy in, NumPy out (the CPU path never
imports torch), tensors in, tensors out on their device.

The kernel each case runs (docs/metric-definition.md §4-6):

- CIE76, the benchmark's formula: the fused exact kernels (on the CPU
  :mod:`~paintkit.kernels.counting.cie76_numba`; on CUDA
  :mod:`~paintkit.kernels.counting.cie76_cuda` where Numba's CUDA target runs, else
  :mod:`~paintkit.kernels.counting.cie76_torch`, the fallback and reference on any device);
- CIE94 and CIEDE2000 (opt-in): the formula-generic kernels of
  :mod:`~paintkit.kernels.counting.formulas`;
- the unchanged input scored as an output (``identity=True`` of :func:`count_problem`): one
  pass of :mod:`~paintkit.kernels.counting.identity` gives the same counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.kernels.counting.bins import (
    HIST_CHANGED,
    HIST_EDIT,
    HIST_PRESERVATION,
    NUM_BINS,
    NUM_TOLERANCES,
    counts_from_histograms,
)
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.cie76_torch import changed_mask_torch, tolerance_histograms_torch
from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e
from paintkit.kernels.counting.identity import identity_counts
from paintkit.kernels.normalize import normalize_output_numba

if TYPE_CHECKING:
    import torch

__all__ = ["NUM_BINS", "NUM_TOLERANCES", "PreparedGroup", "count_problem", "counts_from_histograms",
           "FUSED_FORMULAS", "cuda_histograms", "cuda_rewards", "edit_mask_torch",
           "fused_cuda_available",
           "numpy_histograms", "torch_histograms"]

#: The counts of a problem whose output is missing (docs/metric-definition.md §8): 0.
_ZEROED = ("edit_correct", "preservation_correct", "changed")


class PreparedGroup(Protocol):
    """What :func:`torch_histograms` reads of prepared targets of one canvas size
    (:class:`~paintkit.metrics.targets.TargetGroup`): uint8 ``(G, H, W, 3)`` answers and
    inputs, their float32 reference Lab and the bool ``(G, H, W)`` edit region."""

    answers: torch.Tensor
    inputs: torch.Tensor

    @property
    def lab_answers(self) -> torch.Tensor: ...

    @property
    def lab_inputs(self) -> torch.Tensor: ...

    @property
    def edit(self) -> torch.Tensor: ...


#: The ΔE formulas the fused CUDA kernel counts (all three, bit for bit with the CPU).
FUSED_FORMULAS = ("cie76", "cie94", "ciede2000")


def fused_cuda_available() -> bool:
    """Whether CIE76 counts of CUDA tensors can run in the fused Numba CUDA kernel (Numba's
    CUDA target and a driver are present; imported on first ask)."""
    from paintkit.kernels.counting.cie76_cuda import cuda_kernel_available  # numba.cuda

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


def count_problem(output: np.ndarray | None, answer: np.ndarray, inp: np.ndarray, *,
                  delta_e: str = "cie76", return_bins: bool = False, identity: bool = False
                  ) -> tuple[dict[str, np.ndarray], np.ndarray | None]:
    """The counts of one problem, NumPy in and out (no torch): ``(counts, bins)``.

    Args:
        output: uint8 ``(H_o, W_o, 3)`` of any size (normalised to the answer's,
            docs/metric-definition.md §2), or None for a missing output (every count 0, the
            regions' sizes kept, §8; no bins).
        answer, inp: uint8 ``(H, W, 3)``.
        delta_e: the formula.
        return_bins: also the uint8 ``(H, W)`` bins ``min(ceil(ΔE(O, A)), 11)``.
        identity: score the unchanged input as the output (``output`` is ignored): the
            generator's "doing nothing must not score" rule, in one pass over the two images
            (CIE76; no bins).

    Returns:
        ``counts`` as :func:`counts_from_histograms` gives them, each with a leading axis of
        1, and the bins or None.
    """
    if identity:
        if check_delta_e(delta_e) != "cie76" or return_bins:
            raise ValueError("identity: counts the benchmark's CIE76 without bins")
        edit_pixels, edit_bins = identity_counts(inp, answer)
        hist = np.zeros((1, 3, NUM_BINS), np.int64)
        hist[0, HIST_EDIT] = edit_bins
        pixels = answer.shape[0] * answer.shape[1]  # O = I: every ΔE(O, A) on P and ΔE(O, I) is 0
        hist[0, HIST_PRESERVATION, 0], hist[0, HIST_CHANGED, 0] = pixels - edit_pixels, pixels
        return counts_from_histograms(hist), None
    missing = output is None
    size = (int(answer.shape[1]), int(answer.shape[0]))
    o = answer if output is None else np.ascontiguousarray(normalize_output_numba(output, size))
    want_bins = return_bins and not missing
    result = numpy_histograms(delta_e)(o[None], answer[None], inp[None], return_bins=want_bins)
    hist, bins = result if want_bins else (result, None)
    counts = counts_from_histograms(hist)
    if missing:
        for key in _ZEROED:
            counts[key] = np.zeros_like(counts[key])
    return counts, (None if bins is None else bins[0])


def edit_mask_torch(answers: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    """The edit region ``E`` (metric §5): bool ``(B, H, W)`` of uint8 ``(B, H, W, 3)`` tensors."""
    return changed_mask_torch(answers, inputs)


def torch_histograms(outputs: torch.Tensor, group: PreparedGroup, delta_e: str = "cie76",
                     return_bins: bool = False, fused: bool = False) -> Any:
    """Histograms of uint8 ``(G, H, W, 3)`` outputs against prepared targets of one canvas
    size on the outputs' device: int64 ``(G, 3, 12)``, or ``(histograms, bins)``.

    ``fused``: count CUDA batches with the fused Numba CUDA kernel, any formula (without
    ``return_bins``; the caller checked :func:`fused_cuda_available`).
    """
    if check_delta_e(delta_e) in FUSED_FORMULAS and fused and not return_bins:
        return cuda_histograms(outputs, group.answers, group.inputs, delta_e=delta_e)[0]
    if delta_e == "cie76":
        return tolerance_histograms_torch(
            outputs, group.answers, group.inputs, lab_answers=group.lab_answers,
            lab_inputs=group.lab_inputs, edit_mask=group.edit, return_bins=return_bins)
    return tolerance_histograms_delta_e(outputs, group.answers, group.inputs, delta_e,
                                        return_bins=return_bins)


def cuda_histograms(outputs: torch.Tensor, answers: torch.Tensor, inputs: torch.Tensor,
                    samples: int = 1, delta_e: str = "cie76"
                    ) -> tuple[torch.Tensor, torch.Tensor]:
    """``(hist, outside)`` of a CUDA batch in one launch of the fused Numba CUDA kernel:
    int64 ``(N, 3, 12)`` and int32 ``(N,)`` float values outside [0, 1] per output."""
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda  # numba.cuda

    return tolerance_histograms_cuda(outputs, answers, inputs, samples=samples, delta_e=delta_e)


def cuda_rewards(outputs: torch.Tensor, answers: torch.Tensor, inputs: torch.Tensor,
                 samples: int = 1, tolerance: int | None = None, delta_e: str = "cie76"
                 ) -> torch.Tensor:
    """float32 ``(N,)`` rewards of a CUDA batch, counted and computed in one launch of the
    fused kernel (the in-kernel reward: the compute step's figures, bit for bit)."""
    from paintkit.kernels.counting.cie76_cuda import rewards_cuda  # numba.cuda

    return rewards_cuda(outputs, answers, inputs, samples=samples, tolerance=tolerance,
                        delta_e=delta_e)

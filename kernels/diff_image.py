"""Diff images (docs/metric-definition.md §11): where an output is right or wrong, at one tolerance.

Colours: green (0, 128, 0) changed-and-correct, blue (0, 0, 255) unchanged-and-correct,
red (255, 0, 0) changed-and-incorrect, orange (255, 165, 0) unchanged-and-incorrect, where
"changed" means the pixel is in the edit region ``E`` and "correct" means
``ΔE(O, A) <= t``.
"""

from __future__ import annotations

import numpy as np

#: Indexed by ``(not edit) + 2 * (not correct)``.
DIFF_COLORS = np.array(
    [[0, 128, 0], [0, 0, 255], [255, 0, 0], [255, 165, 0]], dtype=np.uint8
)


def diff_image(edit_mask, correct):
    """Diff image from bool masks ``(..., H, W)`` -> uint8 ``(..., H, W, 3)``.

    Works on NumPy arrays and on torch tensors (on their device).
    """
    if isinstance(edit_mask, np.ndarray):
        code = (~edit_mask).astype(np.intp) + 2 * (~correct).astype(np.intp)
        return DIFF_COLORS[code]
    import torch

    palette = torch.from_numpy(DIFF_COLORS).to(edit_mask.device)
    code = (~edit_mask).long() + 2 * (~correct).long()
    return palette[code]


def diff_image_from_bins(edit_mask, bins, tolerance: int):
    """Diff image at ``tolerance`` from per-pixel ``ceil(ΔE(O, A))`` bins ``(..., H, W)``.

    ``bins`` is what the counting kernels return with ``return_bins=True``; a pixel is
    correct at ``t`` iff its bin is ``<= t``.
    """
    return diff_image(edit_mask, bins <= tolerance)

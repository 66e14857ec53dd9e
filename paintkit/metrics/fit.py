"""Outputs whose size differs from the answer's: what the trainer's pipeline did to them.

``fit="cover"`` (default): the metric's normalisation (metric §2), applied by the metric itself: scale
to cover the answer (nearest neighbour), centre crop. It is right when the policy renders
at its own resolution with the answer's aspect ratio (e.g. 512x384 for 1024x768), and also
when the pipeline **letterboxed** the canvas (scaled to fit inside a square, centred,
padded): covering scales by the inverse of the letterbox factor, so the centre crop removes
exactly the padding.

``fit="stretch"``: the pipeline resized the canvas to its resolution *without keeping the
aspect ratio* (e.g. 1024x768 squeezed into 512x512): each axis is resized back to the
answer's on its own (nearest neighbour, Pillow's sampling), no crop.

``fit="exact"``: sizes must agree; a mismatch is an error (catches silent resizes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import numpy as np

from paintkit.kernels.normalize import pillow_nearest_sources

if TYPE_CHECKING:
    import torch

FITS = ("cover", "stretch", "exact")
#: An image batch of either kind, returned as the same kind.
_Image = TypeVar("_Image", "np.ndarray", "torch.Tensor")


def check_fit(fit: str) -> str:
    if fit not in FITS:
        raise ValueError(f"fit: expected one of {FITS}, got {fit!r}")
    return fit


def fit_output(image: _Image, answer_size: tuple[int, int], fit: str = "cover") -> _Image:
    """``image`` ``(..., H_o, W_o, C)`` (channels last, tensor or array) prepared for scoring
    against an answer of ``answer_size = (W_a, H_a)``.

    ``cover`` returns the image itself (the metric normalises it); ``stretch`` returns the
    image resampled to the answer's size on its device; ``exact`` checks the size.
    """
    check_fit(fit)
    h_o, w_o = int(image.shape[-3]), int(image.shape[-2])
    w_a, h_a = answer_size
    if (w_o, h_o) == (w_a, h_a) or fit == "cover":
        return image
    if fit == "exact":
        raise ValueError(f"outputs: expected the answer's size {w_a}x{h_a} (fit='exact'), got "
                         f"{w_o}x{h_o}")
    ys, xs = pillow_nearest_sources(h_o, h_a), pillow_nearest_sources(w_o, w_a)
    if isinstance(image, np.ndarray):
        return image[..., ys, :, :][..., xs, :]
    import torch  # heavy: loaded on first use

    ys_t, xs_t = (torch.from_numpy(v).to(image.device) for v in (ys, xs))
    return image.index_select(-3, ys_t).index_select(-2, xs_t)

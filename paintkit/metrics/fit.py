"""Outputs whose size differs from the answer's: what the trainer's pipeline did to them.

Every reward path (``paintkit.reward``, ``soft_reward``, the trainer adapters in
``paintkit.rewards``, ``paintkit serve`` and ``RewardClient``) takes the same ``fit=`` with the
same default, :data:`DEFAULT_FIT`:

``fit="exact"`` (default): sizes must agree; a mismatch is a one-line error naming the other
two choices. Which resize a pipeline did decides which mapping back is right, and a wrong
guess is a quietly wrong reward (a stretched 1024x576 canvas read with ``cover`` scores a
perfect output 0.09), so the reward asks rather than guesses.

``fit="cover"``: the metric's normalisation (metric §2), the one ``paintkit eval`` and
:func:`paintkit.metrics.score` always apply: scale to cover the answer (nearest neighbour),
centre crop. It is right when the policy renders at its own resolution with the answer's
aspect ratio (e.g. 512x384 for 1024x768), and also when the pipeline **letterboxed** the
canvas (scaled to fit inside a square, centred, padded): covering scales by the inverse of
the letterbox factor, so the centre crop removes exactly the padding.

``fit="stretch"``: the pipeline resized the canvas to its resolution *without keeping the
aspect ratio* (e.g. 1024x768 squeezed into 512x512, as flow_grpo and Flow-Factory do): each
axis is resized back to the answer's on its own (nearest neighbour, Pillow's sampling), no
crop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from paintkit.kernels.normalize import pillow_nearest_sources

if TYPE_CHECKING:
    import torch

    from paintkit.metrics.targets import Targets

FITS = ("exact", "cover", "stretch")
#: The default of every reward path (the metric itself, ``score`` and ``paintkit eval``,
#: always normalises by ``cover``).
DEFAULT_FIT = "exact"
#: An image batch of either kind, returned as the same kind.
_Image = TypeVar("_Image", "np.ndarray", "torch.Tensor")


def check_fit(fit: str) -> str:
    if fit not in FITS:
        raise ValueError(f"fit: expected one of {', '.join(map(repr, FITS))}, got {fit!r}")
    return fit


def size_error(name: str, size: tuple[int, int], answer_size: tuple[int, int]) -> ValueError:
    """The one-line error for an output of ``size`` (W, H) against an answer of
    ``answer_size`` under ``fit="exact"``."""
    (w_o, h_o), (w_a, h_a) = size, answer_size
    return ValueError(
        f"{name}: {w_o}x{h_o}, the answer is {w_a}x{h_a}; with fit='exact' (the default) sizes "
        f"must match: pass fit='stretch' if the pipeline resized the canvas without keeping its "
        f"aspect ratio (flow_grpo, Flow-Factory), fit='cover' if it kept the aspect ratio or "
        f"letterboxed (verl-omni; the benchmark's own normalisation), see docs/rewards.md")


def fit_output(image: _Image, answer_size: tuple[int, int], fit: str = DEFAULT_FIT,
               name: str = "outputs") -> _Image:
    """``image`` ``(..., H_o, W_o, C)`` (channels last, tensor or array) prepared for scoring
    against an answer of ``answer_size = (W_a, H_a)``.

    ``cover`` returns the image itself (the metric normalises it); ``stretch`` returns the
    image resampled to the answer's size on its device (index selection: a float tensor
    keeps its gradient); ``exact`` checks the size (:func:`size_error`).
    """
    check_fit(fit)
    h_o, w_o = int(image.shape[-3]), int(image.shape[-2])
    w_a, h_a = answer_size
    if (w_o, h_o) == (w_a, h_a) or fit == "cover":
        return image
    if fit == "exact":
        raise size_error(name, (w_o, h_o), (w_a, h_a))
    ys, xs = pillow_nearest_sources(h_o, h_a), pillow_nearest_sources(w_o, w_a)
    if isinstance(image, np.ndarray):
        return image[..., ys, :, :][..., xs, :]
    import torch  # heavy: loaded on first use

    ys_t, xs_t = (torch.from_numpy(v).to(image.device) for v in (ys, xs))
    return image.index_select(-3, ys_t).index_select(-2, xs_t)


def fit_outputs(outputs: Any, targets: Targets, fit: str, samples_per_problem: int = 1) -> Any:
    """A batch of outputs (any form :func:`paintkit.metrics.reward` accepts) prepared for
    scoring against ``targets`` (output ``k`` against target ``k // samples_per_problem``).

    ``cover`` returns ``outputs`` unchanged (the metric normalises); ``exact`` checks every
    size from the shapes (a tensor or array batch is not converted; images in a list that
    are paths, bytes or PIL images are decoded once, here, and passed on decoded);
    ``stretch`` resamples each output to its answer's size (a batch stays a batch when all
    answers share one size). A batch whose length is not ``len(targets) *
    samples_per_problem`` is returned unchanged: the scoring step names that error.
    """
    from paintkit.metrics.coerce import (  # numba: the float -> uint8 kernel
        MissingImage,
        as_images,
        is_tensor,
        nhwc_view,
    )

    check_fit(fit)
    if fit == "cover":
        return outputs
    g = samples_per_problem
    sizes = [targets.answer_size(p) for p in range(len(targets))]
    if is_tensor(outputs) or isinstance(outputs, np.ndarray):
        view = nhwc_view(outputs, "outputs")
        if len(view) != len(sizes) * g:
            return outputs
        if fit == "exact":
            size = (int(view.shape[2]), int(view.shape[1]))
            for p, answer in enumerate(sizes):
                if size != answer:
                    raise size_error(f"outputs[{p * g}]", size, answer)
            return outputs
        if len(set(sizes)) == 1:
            return fit_output(view, sizes[0], fit)
        outputs = list(view)
    items = list(outputs) if isinstance(outputs, list | tuple) else [outputs]
    if len(items) != len(sizes) * g:
        return outputs
    fitted: list[Any] = []
    for k, item in enumerate(items):
        name = f"outputs[{k}]"
        if is_tensor(item):
            image = nhwc_view(item, name)[0]
        elif item is None or isinstance(item, MissingImage):
            fitted.append(item)
            continue
        else:  # an array, a path, bytes or a PIL image: converted once, here
            image = as_images([item], name, allow_missing=True)[0]
            if isinstance(image, MissingImage):
                fitted.append(image)
                continue
        fitted.append(fit_output(image, sizes[k // g], fit, name))
    return fitted

"""A differentiable surrogate of the reward, for gradient-based fine-tuning.

The metric counts pixels with ``ΔE(O, A) <= t``: a step, with zero gradient almost
everywhere. :func:`soft_reward` replaces the step by a one-sided heavy-tailed step,

    soft_t(ΔE) = 1 / sqrt(1 + (excess / tau)²),   excess = max(0, ΔE - t - margin),

and keeps everything else (L*a*b* of the float output without rounding to 8 bits, CIE76,
the edit/preservation regions, IoU per tolerance, the mean over t = 0..10). A pixel inside
the tolerance counts fully (a pixel-perfect output scores exactly 1), and a pixel far from
its answer still gets a gradient towards it (the tail decays like ``tau / excess``, where a
sigmoid or an exponential underflows to exactly 0): an editing model starts at its input, ΔE
tens of units away from the answer on every edited pixel. Near each tolerance the step is
smooth (quadratic in the excess), so gradient ascent settles on the answer instead of
circling it (a kink there keeps Adam stepping across it). It is a surrogate, not the
metric: use :func:`paintkit.metrics.reward` to report scores. As ``tau -> 0`` it tends to
the exact mIoU for outputs on the 8-bit grid.

It takes what :func:`~paintkit.metrics.reward` takes (batches or lists, float or uint8,
mixed canvas sizes, ``samples_per_problem``, ``fit``), read by the same coercion code
(:func:`paintkit.metrics.coerce.float_images`); float tensors keep their gradient.

``clamp=True`` is a straight-through clamp: the forward pass scores ``clamp(x, 0, 1)`` and
the backward pass hands the gradient to ``x`` unchanged (the identity), so a pixel pushed
out of range is pulled back in. Give it the outputs *before* the clamp a decoder applies
(``x / 2 + 0.5`` rather than ``(x / 2 + 0.5).clamp(0, 1)``): behind a real clamp a pixel
out of range has a gradient of exactly 0 and never moves again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paintkit.arguments import check_int
from paintkit.kernels.color.lab import LAB_EPSILON, LAB_KAPPA, LAB_OFFSET, SRGB_TO_XYZ, WHITE_D65
from paintkit.metrics.coerce import float_images, float_range_error
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.metrics.statistics import TOLERANCES
from paintkit.metrics.targets import prepare_targets
from paintkit.metrics.tolerance import check_tolerance

if TYPE_CHECKING:
    import torch

    from paintkit.metrics.targets import Targets
    from paintkit.types import DeviceLike, DTypeLike, ImageBatch

_MATRICES: dict[tuple[Any, Any], torch.Tensor] = {}


def _xyz_matrix(device: DeviceLike, dtype: DTypeLike) -> torch.Tensor:
    """The sRGB -> XYZ / white matrix on ``device`` (copied there once, not every call)."""
    import torch  # heavy: loaded on first use

    key = (device, dtype)
    if key not in _MATRICES:
        _MATRICES[key] = torch.as_tensor(SRGB_TO_XYZ / WHITE_D65[:, None], device=device,
                                         dtype=dtype)
    return _MATRICES[key]


def _lab_float(rgb: torch.Tensor) -> torch.Tensor:
    """Differentiable L*a*b* of float sRGB in [0, 1], planar ``(3, ...)`` -> ``(3, ...)``."""
    import torch  # heavy: loaded on first use

    low = rgb / 12.92
    high = ((rgb.clamp_min(0.04045) + 0.055) / 1.055) ** 2.4
    linear = torch.where(rgb <= 0.04045, low, high)
    m = _xyz_matrix(rgb.device, rgb.dtype)
    xyz = torch.einsum("ij,j...->i...", m, linear)
    eps = float(LAB_EPSILON)
    f = torch.where(xyz > eps, xyz.clamp_min(eps) ** (1.0 / 3.0),
                    float(LAB_KAPPA) * xyz + float(LAB_OFFSET))
    fx, fy, fz = f
    return torch.stack((116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)))


def _fitted(image: torch.Tensor, answer_size: tuple[int, int], fit: str, name: str
            ) -> torch.Tensor:
    """One float output ``(H, W, 3)`` -> ``(H_a, W_a, 3)`` through ``fit`` (index selection:
    gradients reach the selected source pixels)."""
    from paintkit.kernels.normalize import normalize_output_torch  # numba: compiles at import
    from paintkit.metrics.fit import fit_output  # numba (through kernels.normalize)

    if fit == "cover":
        return normalize_output_torch(image[None], answer_size)[0]
    return fit_output(image, answer_size, fit, name)


def _check_range(images: list[torch.Tensor], clamp: bool) -> list[torch.Tensor]:
    """Refuse values outside [0, 1] or NaN (``clamp``: NaN only), one device sync per
    tensor as reward's own check; with ``clamp`` the straight-through clamp of each."""
    import torch  # heavy: loaded on first use

    with torch.no_grad():
        for k, x in enumerate(images):
            bad = int(x.isnan().sum() if clamp else ((x < 0) | (x > 1) | x.isnan()).sum())
            if bad:
                error = float_range_error(f"outputs[{k}]", bad, x.dtype, x.shape)
                if clamp:
                    raise ValueError(f"outputs[{k}]: {bad} NaN values (dtype {x.dtype}, shape "
                                     f"{tuple(x.shape)})")
                raise ValueError(f"{error}: map [-1, 1] outputs with x / 2 + 0.5 first; for "
                                 "the values before a clamp pass clamp=True")
    if not clamp:
        return images
    return [x + (x.clamp(0, 1) - x).detach() for x in images]  # forward clamped, grad identity


def soft_reward(outputs: ImageBatch, targets: ImageBatch | Targets,
                inputs: ImageBatch | None = None, *, tau: float = 1.0, margin: float = 1e-5,
                tolerance: int | None = None, fit: str = DEFAULT_FIT,
                samples_per_problem: int = 1, clamp: bool = False) -> torch.Tensor:
    """Differentiable surrogate of :func:`paintkit.metrics.reward` (soft mIoU), ``(B,)``.

    Args:
        outputs: what :func:`~paintkit.metrics.reward` takes: a float ``(B, 3, H, W)`` (or
            ``(B, H, W, 3)``) tensor in [0, 1], uint8, or a list of per-sample images of
            mixed sizes (tensors, arrays, PIL images, paths, bytes); gradients flow back to
            float tensors. Values outside [0, 1] are refused (as ``reward`` refuses them)
            unless ``clamp``. bfloat16 / float16 outputs, and calls under
            ``torch.autocast``, are computed in float32.
        targets: a prepared :class:`~paintkit.metrics.Targets` (any canvas sizes), or the
            answers (with ``inputs``).
        tau: scale of the tail outside each tolerance, in ΔE units (smaller: closer to the
            step; the tail keeps a gradient at any distance).
        margin: added to each tolerance so ``ΔE = 0`` counts as correct at t = 0.
        tolerance: None for the soft mIoU, or an integer 0..10 for the soft IoU_t.
        fit: outputs of another size than the answers: ``"exact"`` (default: an error),
            ``"cover"`` (the metric's own normalisation) or ``"stretch"``, as in
            :func:`~paintkit.metrics.reward` (see :mod:`paintkit.metrics.fit`).
        samples_per_problem: G outputs per problem (GRPO), problem-major, as in ``reward``.
        clamp: score ``clamp(x, 0, 1)`` with a straight-through gradient (the identity), for
            outputs taken before a decoder's clamp (see the module docstring).

    Returns:
        float ``(B,)`` (float32, or float64 for float64 outputs) on the outputs' device: per
        output, the mean over t of ``soft_CE_t / (|E| + |P| - soft_CP_t)``.
    """
    import torch  # heavy: loaded on first use

    tolerance = check_tolerance(tolerance, allow_none=True)
    g = check_int(samples_per_problem, "samples_per_problem", 1)
    check_fit(fit)
    if not tau > 0:
        raise ValueError(f"tau: expected a positive temperature, got {tau!r}")
    images, device = float_images(outputs, "outputs")
    reference = prepare_targets(targets, inputs)
    if len(images) != len(reference) * g:
        raise ValueError(f"outputs: expected a batch of {len(reference) * g} ({len(reference)} "
                         f"problems x {g} samples), got {len(images)}")
    images = _check_range(list(images), clamp)
    dtype = torch.promote_types(images[0].dtype if images else torch.float32, torch.float32)
    pieces, order = [], []
    with torch.autocast(device.type, enabled=False):
        for group in reference.torch_groups(device):
            rows = [p * g + j for p in group.positions for j in range(g)]
            size = (int(group.answers.shape[2]), int(group.answers.shape[1]))
            nhwc = torch.stack([_fitted(images[r], size, fit, f"outputs[{r}]") for r in rows]
                               ).to(dtype)
            local = torch.arange(len(group.positions), device=device).repeat_interleave(g)
            pieces.append(_soft_iou(nhwc, group, local, dtype, tau, margin, tolerance))
            order += rows
    if not pieces:
        return torch.zeros(0, dtype=dtype, device=device)
    result = torch.cat(pieces)
    if order != list(range(len(order))):
        result = result[torch.as_tensor(order, device=device).argsort()]
    return result


def _soft_iou(nhwc: torch.Tensor, group: Any, local: torch.Tensor, dtype: Any, tau: float,
              margin: float, tolerance: int | None) -> torch.Tensor:
    """The soft IoUs ``(n,)`` of float outputs ``(n, H, W, 3)`` against the problems of
    ``group`` (output ``k`` against its problem ``local[k]``), averaged over t."""
    import torch  # heavy: loaded on first use

    lab_o = _lab_float(nhwc.movedim(-1, 0))  # (3, n, H, W)
    # The answers' Lab in the same arithmetic, once per problem: an output pixel equal to its
    # answer has ΔE exactly sqrt(1e-12), below ``margin``.
    lab_a = _lab_float(group.answers.movedim(-1, 0).to(dtype) / 255)[:, local]
    delta_e = ((lab_o - lab_a) ** 2).sum(0).add(1e-12).sqrt()  # (n, H, W); finite grad at 0
    edit = group.edit.to(dtype)[local]
    n_edit = edit.sum(dim=(1, 2))
    n_pres = edit[0].numel() - n_edit
    ts = TOLERANCES if tolerance is None else (tolerance,)
    ious = []
    for t in ts:
        excess = (delta_e - (t + margin)).clamp_min(0) / tau
        soft = torch.rsqrt(1 + excess * excess)
        ce = (soft * edit).sum(dim=(1, 2))
        cp = (soft * (1 - edit)).sum(dim=(1, 2))
        den = n_edit + n_pres - cp
        ious.append(torch.where(den > 0, ce / den.clamp_min(1e-12), torch.ones_like(ce)))
    return torch.stack(ious, dim=1).mean(dim=1)

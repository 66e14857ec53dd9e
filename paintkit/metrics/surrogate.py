"""A differentiable surrogate of the reward, for gradient-based fine-tuning.

The metric counts pixels with ``ΔE(O, A) <= t``: a step, with zero gradient almost
everywhere. :func:`soft_reward` replaces the step by ``sigmoid((t + margin - ΔE) / tau)`` and
keeps everything else (L*a*b* of the float output without rounding to 8 bits, CIE76, the
edit/preservation regions, IoU per tolerance, the mean over t = 0..10). It is a surrogate,
not the metric: use :func:`paintkit.metrics.reward` to report scores. As ``tau -> 0`` it
tends to the exact mIoU for outputs on the 8-bit grid (``margin`` makes ``ΔE = 0`` count
as correct at ``t = 0``, as the step does, instead of one half).
"""

from __future__ import annotations

from paintkit.kernels.lab import LAB_EPSILON, LAB_KAPPA, LAB_OFFSET, SRGB_TO_XYZ, WHITE_D65
from paintkit.metrics.coerce import _channels_last_axis
from paintkit.metrics.statistics import TOLERANCES
from paintkit.metrics.targets import prepare_targets
from paintkit.metrics.tolerance import check_tolerance


def _lab_float(rgb):
    """Differentiable L*a*b* of float sRGB in [0, 1], planar ``(3, ...)`` -> ``(3, ...)``."""
    import torch  # heavy: loaded on first use

    low = rgb / 12.92
    high = ((rgb.clamp_min(0.04045) + 0.055) / 1.055) ** 2.4
    linear = torch.where(rgb <= 0.04045, low, high)
    m = torch.as_tensor(SRGB_TO_XYZ / WHITE_D65[:, None], device=rgb.device, dtype=rgb.dtype)
    xyz = torch.einsum("ij,j...->i...", m, linear)
    eps = float(LAB_EPSILON)
    f = torch.where(xyz > eps, xyz.clamp_min(eps) ** (1.0 / 3.0),
                    float(LAB_KAPPA) * xyz + float(LAB_OFFSET))
    fx, fy, fz = f
    return torch.stack((116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)))


def soft_reward(outputs, targets, inputs=None, *, tau: float = 0.5, margin: float = 1e-5,
                tolerance: int | None = None):
    """Differentiable surrogate of :func:`paintkit.metrics.reward` (soft mIoU), ``(B,)``.

    Args:
        outputs: float ``(B, 3, H, W)`` (or ``(B, H, W, 3)``) in [0, 1] at the answers' size;
            gradients flow back to it.
        targets: a prepared :class:`~paintkit.metrics.Targets` of one canvas size, or the
            answers (with ``inputs``).
        tau: temperature of the sigmoid in ΔE units (smaller: closer to the step, sparser
            gradients).
        margin: added to each tolerance so ``ΔE = 0`` counts as correct at t = 0.
        tolerance: None for the soft mIoU, or an integer 0..10 for the soft IoU_t.

    Returns:
        float ``(B,)`` on the outputs' device: per problem, the mean over t of
        ``soft_CE_t / (|E| + |P| - soft_CP_t)`` with ``soft = sigmoid((t + margin - ΔE) / tau)``.
    """
    import torch  # heavy: loaded on first use

    tolerance = check_tolerance(tolerance, allow_none=True)
    if not (isinstance(outputs, torch.Tensor) and outputs.is_floating_point() and outputs.ndim == 4):
        raise ValueError(f"outputs: expected a float tensor (B, 3, H, W) in [0, 1], got "
                         f"{getattr(outputs, 'dtype', type(outputs).__name__)} "
                         f"{tuple(getattr(outputs, 'shape', ()))}")
    if not tau > 0:
        raise ValueError(f"tau: expected a positive temperature, got {tau!r}")
    reference = prepare_targets(targets, inputs)
    groups = reference.torch_groups(outputs.device)
    if len(groups) != 1 or groups[0].positions != list(range(len(outputs))):
        raise ValueError("targets: soft_reward needs one batch of one canvas size with one "
                         f"target per output ({len(outputs)} outputs, {len(reference)} targets)")
    group = groups[0]
    planar = outputs if _channels_last_axis(tuple(outputs.shape), True) is False \
        else outputs.permute(0, 3, 1, 2)
    if tuple(planar.shape[2:]) != tuple(group.edit.shape[1:]):
        raise ValueError(f"outputs: expected (B, 3, H, W) with (H, W) = "
                         f"{tuple(group.edit.shape[1:])} (the answers'), got {tuple(outputs.shape)}")
    lab_o = _lab_float(planar.movedim(1, 0))  # (3, B, H, W)
    # The answers' Lab in the same arithmetic: an output pixel equal to its answer has ΔE
    # exactly sqrt(1e-12), far below ``margin``.
    lab_a = _lab_float(group.answers.movedim(-1, 0).to(lab_o.dtype) / 255)
    delta_e = ((lab_o - lab_a) ** 2).sum(0).add(1e-12).sqrt()  # (B, H, W); eps: finite grad at 0
    edit = group.edit.to(lab_o.dtype)
    n_edit = edit.sum(dim=(1, 2))
    n_pres = edit[0].numel() - n_edit
    ts = TOLERANCES if tolerance is None else (tolerance,)
    ious = []
    for t in ts:
        soft = torch.sigmoid((t + margin - delta_e) / tau)
        ce = (soft * edit).sum(dim=(1, 2))
        cp = (soft * (1 - edit)).sum(dim=(1, 2))
        den = n_edit + n_pres - cp
        ious.append(torch.where(den > 0, ce / den.clamp_min(1e-12), torch.ones_like(ce)))
    return torch.stack(ious, dim=1).mean(dim=1)

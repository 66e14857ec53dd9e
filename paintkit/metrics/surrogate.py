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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paintkit.kernels.color.lab import LAB_EPSILON, LAB_KAPPA, LAB_OFFSET, SRGB_TO_XYZ, WHITE_D65
from paintkit.metrics.fit import DEFAULT_FIT
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


def _channels_last(outputs: torch.Tensor, answer_size: tuple[int, int], fit: str
                   ) -> torch.Tensor:
    """Float outputs ``(B, 3, H, W)`` or ``(B, H, W, 3)`` -> ``(B, H_a, W_a, 3)`` through
    ``fit`` (index selection: gradients reach the selected source pixels)."""
    from paintkit.kernels.normalize import normalize_output_torch  # numba: compiles at import
    from paintkit.metrics.fit import check_fit, fit_output  # numba (through kernels.normalize)

    check_fit(fit)
    shape = tuple(outputs.shape)
    last = shape[-1] == 3 and shape[1] != 3
    nhwc = outputs if last else outputs.permute(0, 2, 3, 1)
    if fit == "cover":
        return normalize_output_torch(nhwc, answer_size)
    return fit_output(nhwc, answer_size, fit)


def _check_outputs(outputs: object) -> None:
    import torch  # heavy: loaded on first use

    if not (isinstance(outputs, torch.Tensor) and outputs.is_floating_point() and outputs.ndim == 4
            and 3 in (outputs.shape[1], outputs.shape[-1])):
        raise ValueError(f"outputs: expected a float tensor (B, 3, H, W) in [0, 1], got "
                         f"{getattr(outputs, 'dtype', type(outputs).__name__)} "
                         f"{tuple(getattr(outputs, 'shape', ()))}")
    with torch.no_grad():  # one device sync, as reward's own range check
        bad = int(((outputs < 0) | (outputs > 1) | outputs.isnan()).sum())
    if bad:
        raise ValueError(f"outputs: float images must lie in [0, 1] without NaN; got {bad} values "
                         f"outside (dtype {outputs.dtype}, shape {tuple(outputs.shape)}): map "
                         f"[-1, 1] outputs with (x + 1) / 2 first")


def soft_reward(outputs: torch.Tensor, targets: ImageBatch | Targets,
                inputs: ImageBatch | None = None, *, tau: float = 1.0, margin: float = 1e-5,
                tolerance: int | None = None, fit: str = DEFAULT_FIT) -> torch.Tensor:
    """Differentiable surrogate of :func:`paintkit.metrics.reward` (soft mIoU), ``(B,)``.

    Args:
        outputs: float ``(B, 3, H, W)`` (or ``(B, H, W, 3)``) in [0, 1] (values outside are
            refused, as :func:`~paintkit.metrics.reward` refuses them); gradients flow back to
            it. bfloat16 / float16 outputs, and calls under ``torch.autocast``, are computed
            in float32.
        targets: a prepared :class:`~paintkit.metrics.Targets` of one canvas size, or the
            answers (with ``inputs``).
        tau: scale of the tail outside each tolerance, in ΔE units (smaller: closer to the
            step; the tail keeps a gradient at any distance).
        margin: added to each tolerance so ``ΔE = 0`` counts as correct at t = 0.
        tolerance: None for the soft mIoU, or an integer 0..10 for the soft IoU_t.
        fit: outputs of another size than the answers: ``"exact"`` (default: an error),
            ``"cover"`` (the metric's own normalisation) or ``"stretch"``, as in
            :func:`~paintkit.metrics.reward` (see :mod:`paintkit.metrics.fit`).

    Returns:
        float ``(B,)`` (float32, or float64 for float64 outputs) on the outputs' device: per
        problem, the mean over t of ``soft_CE_t / (|E| + |P| - soft_CP_t)``.
    """
    import torch  # heavy: loaded on first use

    tolerance = check_tolerance(tolerance, allow_none=True)
    _check_outputs(outputs)
    if not tau > 0:
        raise ValueError(f"tau: expected a positive temperature, got {tau!r}")
    reference = prepare_targets(targets, inputs)
    groups = reference.torch_groups(outputs.device)
    if len(groups) != 1 or groups[0].positions != list(range(len(outputs))):
        raise ValueError("targets: soft_reward needs one batch of one canvas size with one "
                         f"target per output ({len(outputs)} outputs, {len(reference)} targets)")
    group = groups[0]
    dtype = torch.promote_types(outputs.dtype, torch.float32)
    with torch.autocast(outputs.device.type, enabled=False):
        nhwc = _channels_last(outputs, reference.answer_size(0), fit).to(dtype)
        lab_o = _lab_float(nhwc.movedim(-1, 0))  # (3, B, H, W)
        # The answers' Lab in the same arithmetic: an output pixel equal to its answer has
        # ΔE exactly sqrt(1e-12), below ``margin``.
        lab_a = _lab_float(group.answers.movedim(-1, 0).to(dtype) / 255)
        delta_e = ((lab_o - lab_a) ** 2).sum(0).add(1e-12).sqrt()  # (B, H, W); finite grad at 0
        edit = group.edit.to(dtype)
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

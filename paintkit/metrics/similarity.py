"""SSIM and PSNR with FigEdit's conventions: pixel-similarity figures reported beside the
benchmark's metric (they are not part of it; see ``docs/neighbour-metrics.md``).

- **SSIM** (Wang et al. 2004) on grayscale: each RGB image becomes 8-bit luma the way
  Pillow's ``convert("L")`` does it (``(19595 R + 38470 G + 7471 B + 32768) >> 16``); the
  local means, variances and covariance use an 11-tap Gaussian window with sigma 1.5 (the
  same in both directions, applied separably: through kornia on GPU tensors, with the Numba
  kernels of :mod:`paintkit.kernels.ssim` on CPU, which filter only the rows and columns
  near a difference); ``C1 = (0.01 * 255)²``,
  ``C2 = (0.03 * 255)²``; population (not sample) moments; the SSIM map is averaged over
  the pixels whose whole window lies inside the image (5 px dropped on every side). This
  equals scikit-image's ``structural_similarity(gaussian_weights=True, sigma=1.5,
  use_sample_covariance=False, data_range=255)`` on the same grayscale images.
- **PSNR** (Hore & Ziou 2010): ``10 log10(255² / MSE)`` with the MSE averaged over all
  pixels and the three RGB channels, on values in [0, 255]; ``+inf`` for identical images.
  This is scikit-image's ``peak_signal_noise_ratio(data_range=255)`` on the RGB images.

Both take batches in the forms :func:`paintkit.metrics.score` accepts (uint8 or float in
[0, 1], ``(B, 3, H, W)`` or ``(B, H, W, 3)``, or lists of per-problem images); an output of
another size is first normalised to its answer's size (docs/metric-definition.md §2). Work runs on the device
of the tensors given (CPU for arrays and lists) and returns float64 ``(B,)`` there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.kernels.normalize import normalize_output_torch
from paintkit.kernels.ssim import luma_pair, squared_error_sum, ssim_sum
from paintkit.metrics.coerce import MissingImage, as_images, tensor_of

if TYPE_CHECKING:
    import torch

    from paintkit.types import ImageBatch

__all__ = ["EXTRA_METRICS", "SSIM_SIGMA", "SSIM_WINDOW", "grayscale", "psnr", "similarity",
           "ssim"]

#: The extra figures ``paintkit eval --extra-metrics`` can add to a results row.
EXTRA_METRICS: tuple[str, ...] = ("ssim", "psnr")
SSIM_WINDOW = 11
SSIM_SIGMA = 1.5
_DATA_RANGE = 255.0
_C1 = (0.01 * _DATA_RANGE) ** 2
_C2 = (0.03 * _DATA_RANGE) ** 2


def grayscale(images: torch.Tensor) -> torch.Tensor:
    """Pillow's 8-bit luma of uint8 RGB ``(B, H, W, 3)`` -> float32 ``(B, 1, H, W)`` (values
    0..255, integers: the same rounding as ``Image.convert("L")``)."""
    import torch  # heavy: loaded on first use

    rgb = images.to(torch.int32)
    luma = (rgb[..., 0] * 19595 + rgb[..., 1] * 38470 + rgb[..., 2] * 7471 + 32768) >> 16
    return luma.to(torch.float32).unsqueeze(1)


def _pairs(outputs: Any, answers: Any) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Outputs and answers as lists of uint8 ``(1, H, W, 3)`` tensors of equal size per
    problem, or one pair of ``(B, H, W, 3)`` tensors when both are same-size batches."""

    outs: Any = as_images(outputs, "outputs")
    answers = as_images(answers, "answers")
    if len(outs) != len(answers):
        raise ValueError(f"outputs: expected a batch of {len(answers)} (the answers'), got "
                         f"{len(outs)}")
    if not isinstance(outs, list) and not isinstance(answers, list) \
            and tuple(outs.shape) == tuple(answers.shape):
        o, a = tensor_of(outs), tensor_of(answers)
        return [(o, a.to(o.device))]
    pairs = []
    for k in range(len(answers)):
        out, ans = outs[k], tensor_of(answers[k])
        if isinstance(out, MissingImage):
            raise ValueError(f"outputs[{k}]: missing ({out.error}); similarity needs an image")
        out = tensor_of(out).to(ans.device)
        if tuple(out.shape) != tuple(ans.shape):
            out = normalize_output_torch(out, (int(ans.shape[1]), int(ans.shape[0])))
        pairs.append((out[None], ans[None]))
    return pairs


def _ssim_map_mean(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, int]:
    """Mean SSIM map of grayscale float32 ``(B, 1, h, w)`` over its valid pixels, as float64
    ``(B,)`` together with the count of valid pixels."""
    import kornia  # heavy: loaded on first use
    import torch  # heavy: loaded on first use

    kernel = kornia.filters.get_gaussian_kernel1d(SSIM_WINDOW, SSIM_SIGMA, device=x.device,
                                                  dtype=x.dtype)
    # One separable pass over the five planes (11 + 11 taps, not 121).
    planes = torch.cat([x, y, x * x, y * y, x * y], dim=1)
    mu_x, mu_y, xx, yy, xy = kornia.filters.filter2d_separable(
        planes, kernel, kernel, padding="valid").double().unbind(1)
    var_x, var_y, cov = xx - mu_x * mu_x, yy - mu_y * mu_y, xy - mu_x * mu_y
    ssim_map = ((2 * mu_x * mu_y + _C1) * (2 * cov + _C2)) / (
        (mu_x * mu_x + mu_y * mu_y + _C1) * (var_x + var_y + _C2))
    return ssim_map.sum(dim=(1, 2)), ssim_map[0].numel()


def _changed_box(differs: np.ndarray, h: int, w: int) -> tuple[int, int, int, int] | None:
    """Rows/cols ``(top, bottom, left, right)`` (half-open) whose SSIM windows can see a
    differing pixel, or None when nothing differs."""
    rows = np.flatnonzero(differs.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(differs.any(axis=0))
    reach = 2 * (SSIM_WINDOW // 2)
    return (max(0, int(rows[0]) - reach), min(h, int(rows[-1]) + 1 + reach),
            max(0, int(cols[0]) - reach), min(w, int(cols[-1]) + 1 + reach))


def _ssim_batch(out: torch.Tensor, ans: torch.Tensor, use_numba: bool) -> torch.Tensor:
    import torch  # heavy: loaded on first use

    h, w = out.shape[1:3]
    if h < SSIM_WINDOW or w < SSIM_WINDOW:
        raise ValueError(f"ssim: images must be at least {SSIM_WINDOW}x{SSIM_WINDOW} px (the "
                         f"Gaussian window), got {w}x{h}")
    valid = (h - SSIM_WINDOW + 1) * (w - SSIM_WINDOW + 1)
    # Where a whole window has x == y the map is exactly 1 (numerator and denominator are
    # the same float expression), so only the box around differing pixels is computed.
    if use_numba:  # luma and a map of changes, then only the boxes near the changes

        values = []
        for o, a in zip(out.numpy(), ans.numpy(), strict=True):
            x, y, changed = luma_pair(o, a)
            if not changed.any():
                values.append(1.0)
                continue
            total, computed = ssim_sum(x, y, _C1, _C2, changed=changed)
            values.append(total / computed)
        return torch.tensor(values, dtype=torch.float64)
    x, y = grayscale(out), grayscale(ans)
    box = _changed_box((x != y).any(dim=0)[0].cpu().numpy(), h, w)
    if box is None:
        return torch.ones(out.shape[0], dtype=torch.float64, device=out.device)
    top, bottom, left, right = box
    total, computed = _ssim_map_mean(x[..., top:bottom, left:right], y[..., top:bottom, left:right])
    return (total + (valid - computed)) / valid


def _psnr_batch(out: torch.Tensor, ans: torch.Tensor, use_numba: bool) -> torch.Tensor:
    import torch  # heavy: loaded on first use

    if use_numba:
        sse = torch.tensor([squared_error_sum(o, a) for o, a in
                            zip(out.numpy(), ans.numpy(), strict=True)], dtype=torch.float64)
        return 10 * (_DATA_RANGE ** 2 / (sse / out[0].numel())).log10()
    # Exact integer sum of squared differences (int16 differences, int32 squares, int64 sum).
    diff = out.to(torch.int16) - ans.to(torch.int16)
    sse = (diff.to(torch.int32) * diff).sum(dim=(1, 2, 3), dtype=torch.int64)
    mse = sse.double() / out[0].numel()
    return 10 * (_DATA_RANGE ** 2 / mse).log10()  # mse == 0 -> +inf


BACKENDS = ("auto", "numba", "torch")


def _per_pair(metric: Callable[[torch.Tensor, torch.Tensor, bool], torch.Tensor],
              outputs: ImageBatch, answers: ImageBatch, backend: str) -> torch.Tensor:
    import torch  # heavy: loaded on first use

    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {BACKENDS}, got {backend!r}")
    values = []
    for o, a in _pairs(outputs, answers):
        if backend == "numba" and o.device.type != "cpu":
            raise ValueError(f"backend: 'numba' runs on CPU tensors, got tensors on {o.device}")
        use_numba = backend == "numba" or (backend == "auto" and o.device.type == "cpu")
        values.append(metric(o, a, use_numba))
    if not values:
        return torch.zeros(0, dtype=torch.float64)
    device = values[0].device
    return torch.cat([v.to(device) for v in values])


def ssim(outputs: ImageBatch, answers: ImageBatch, *, backend: str = "auto") -> torch.Tensor:
    """Mean SSIM of each output against its answer (module docstring): float64 ``(B,)``.

    ``backend``: ``"auto"`` (Numba for CPU data, torch/kornia elsewhere), ``"numba"`` or
    ``"torch"``. Raises ``ValueError`` for images smaller than 11x11 px and for missing
    outputs.

    Example:
        >>> import numpy as np
        >>> a = np.zeros((1, 16, 16, 3), np.uint8); a[0, 4:12, 4:12] = 200
        >>> float(ssim(a, a)[0])
        1.0
    """
    return _per_pair(_ssim_batch, outputs, answers, backend)


def psnr(outputs: ImageBatch, answers: ImageBatch, *, backend: str = "auto") -> torch.Tensor:
    """PSNR in dB of each output against its answer (module docstring): float64 ``(B,)``,
    ``+inf`` where the images are identical.

    Example:
        >>> import numpy as np
        >>> a = np.zeros((1, 4, 4, 3), np.uint8); b = a.copy(); b[0, 0, 0, 0] = 255
        >>> round(float(psnr(b, a)[0]), 3)  # MSE = 255² / 48
        16.812
    """
    return _per_pair(_psnr_batch, outputs, answers, backend)


def similarity(outputs: ImageBatch, answers: ImageBatch, names: Iterable[str] = EXTRA_METRICS,
               *, backend: str = "auto") -> dict[str, torch.Tensor]:
    """The extra figures named in ``names`` (a subset of :data:`EXTRA_METRICS`) for each
    problem: ``{name: float64 tensor (B,)}``. PSNR ``+inf`` (identical images) is kept;
    JSON writers should store it as ``null`` or a string (JSON has no infinity)."""
    names = tuple(names)
    unknown = [n for n in names if n not in EXTRA_METRICS]
    if unknown:
        raise ValueError(f"extra metrics: unknown {', '.join(unknown)}; allowed: "
                         f"{', '.join(EXTRA_METRICS)}")
    functions = {"ssim": ssim, "psnr": psnr}
    return {name: functions[name](outputs, answers, backend=backend) for name in names}


def finite_or_none(value: float) -> float | None:
    """``value`` for JSON: None for ``inf``/NaN (PSNR of identical images)."""
    return value if math.isfinite(value) else None

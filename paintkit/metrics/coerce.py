"""Turn what users pass to the metric into per-problem uint8 images, with clear errors.

Accepted for ``outputs``, ``answers`` and ``inputs``:

- a torch tensor, batch ``(B, 3, H, W)`` / ``(B, H, W, 3)`` or one image ``(3, H, W)`` /
  ``(H, W, 3)``; uint8, or float in [0, 1] (docs/metric-definition.md §1: ``round(x * 255)``). When both
  dimension 1 and the last are 3, torch tensors are read channels-first;
- a NumPy array, same shapes (ambiguous shapes are read channels-last);
- a list/tuple of per-problem images: tensors, arrays, PIL images, paths or bytes
  (outputs may also be ``None``: a missing output).

A batch tensor stays a tensor (on its device, channels last, uint8); a list becomes a list
of uint8 ``(H, W, 3)`` images: tensors stay tensors on their device (never copied to the
host), everything else becomes a NumPy array; :class:`MissingImage` stands for outputs that
cannot be decoded (docs/metric-definition.md §8: scored as missing, the error kept).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from paintkit.io.images import ImageDecodeError, load_rgb, rgb_from_array
from paintkit.kernels.pixels import float_to_uint8
from paintkit.metrics.code_drawers import CodeDrawer, drawer_for
from paintkit.metrics.device import same_device

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageArray


@dataclass(frozen=True)
class MissingImage:
    """An output that is absent or could not be decoded; ``error`` says why."""

    error: str | None = None


def tensor_of(value: Any) -> torch.Tensor:
    """``value`` as a torch tensor: NumPy arrays are wrapped without a copy, also when
    read-only (an image decoded with ``np.asarray(Image.open(...))``). The metric never
    writes into its inputs, so torch's "not writable" warning would only be noise."""
    import torch  # heavy: loaded on first use

    if isinstance(value, np.ndarray):
        if not value.flags.writeable:
            import warnings

            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "The given NumPy array is not writable",
                                        UserWarning)
                return torch.from_numpy(value)
        return torch.from_numpy(value)
    return torch.as_tensor(value)


def is_tensor(value: object) -> TypeGuard[torch.Tensor]:
    return type(value).__module__.startswith("torch") and hasattr(value, "device")


def _layout_error(name: str, shape: Any, dtype: Any) -> ValueError:
    return ValueError(
        f"{name}: expected a uint8 or float image batch of shape (B, 3, H, W) or "
        f"(B, H, W, 3) (or one image (3, H, W) / (H, W, 3)), got {dtype} {tuple(shape)}"
    )


def _channels_last_axis(shape: tuple, prefer_first: bool) -> bool | None:
    """True if channels are last, False if first (after the batch axis), None if neither."""
    first, last = shape[-3] == 3, shape[-1] == 3
    if first and last:
        return not prefer_first
    if last:
        return True
    if first:
        return False
    return None


def tensor_to_uint8_nhwc(tensor: torch.Tensor, name: str, numba: bool = True) -> torch.Tensor:
    """A torch image tensor -> uint8 ``(B, H, W, 3)`` on the same device (a view if uint8).

    ``numba``: convert float CPU tensors with the Numba pass (fast); False keeps to torch
    ops, for the torch backend: alternating Numba's and torch's OpenMP thread pools makes
    each wait for the other's spinning threads on a small machine (10x slower measured).
    """
    import torch  # heavy: loaded on first use

    tensor = tensor_nhwc(tensor, name)
    if tensor.dtype == torch.uint8:
        return tensor
    if not tensor.is_floating_point():
        raise ValueError(
            f"{name}: expected dtype torch.uint8 or a float dtype with values in [0, 1], "
            f"got {tensor.dtype} of shape {tuple(tensor.shape)}"
        )
    return _float_to_uint8(tensor, name, numba)


def tensor_nhwc(tensor: torch.Tensor, name: str) -> torch.Tensor:
    """A torch image tensor ``(B, 3, H, W)``, ``(B, H, W, 3)``, ``(3, H, W)`` or ``(H, W, 3)``
    as a channels-last ``(B, H, W, 3)`` view of the same storage and dtype (no copy).

    Raises:
        ValueError: another number of dimensions, or no axis of 3 channels.
    """
    if tensor.ndim not in (3, 4):
        raise _layout_error(name, tensor.shape, tensor.dtype)
    channels_last = _channels_last_axis(tuple(tensor.shape), prefer_first=True)
    if channels_last is None:
        raise _layout_error(name, tensor.shape, tensor.dtype)
    if tensor.ndim == 3:
        tensor = tensor.unsqueeze(0)
    if not channels_last:
        tensor = tensor.permute(0, 2, 3, 1)
    return tensor


def float_range_error(name: str, count: int, dtype: Any, shape: Any) -> ValueError:
    """The error for float images with ``count`` values outside [0, 1] or NaN."""
    return ValueError(f"{name}: float images must lie in [0, 1] without NaN; got {count} values "
                      f"outside (dtype {dtype}, shape {tuple(shape)})")


def _float_to_uint8(tensor: torch.Tensor, name: str, numba: bool = True) -> torch.Tensor:
    """docs/metric-definition.md §1 ``round(x * 255)`` of a float image tensor, checked to lie in [0, 1]."""
    import torch  # heavy: loaded on first use

    def bad_values(count: int) -> ValueError:
        return float_range_error(name, count, tensor.dtype, tensor.shape)

    if numba and tensor.device.type == "cpu" and tensor.dtype == torch.float32 and tensor.numel():
        # One parallel Numba pass over the storage (any permutation of a contiguous tensor).
        order = sorted(range(tensor.ndim), key=lambda d: -tensor.stride(d))  # type: ignore[operator]
        dense = tensor.permute(*order)
        if dense.is_contiguous():
            out, bad = float_to_uint8(dense.numpy())
            if bad:
                raise bad_values(bad)
            inverse = sorted(range(tensor.ndim), key=order.__getitem__)
            return torch.from_numpy(out).permute(*inverse)

    order = sorted(range(tensor.ndim), key=lambda d: -tensor.stride(d))  # type: ignore[operator]
    dense = tensor.permute(*order)
    step = _TORCH_STEP.get(tensor.device.type)
    if step is not None and tensor.numel() > step and dense.is_contiguous():
        out, low, high = _float_to_uint8_in_steps(dense.view(-1), step)
        out = out.view(dense.shape).permute(*sorted(range(tensor.ndim), key=order.__getitem__))
    else:  # round(x * 255), half to even; in place on one temporary
        low, high = torch.aminmax(tensor) if tensor.numel() else (tensor.new_zeros(()),) * 2
        out = torch.mul(tensor, 255).round_().to(torch.uint8)
    # Two scalars to the host (not the pixels); NaN propagates into both.
    if not (bool(low >= 0) and bool(high <= 1)):
        raise bad_values(int((~((tensor >= 0) & (tensor <= 1))).sum()))
    return out


def float_to_uint8_unchecked(tensor: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``round(x * 255)`` of a float image batch ``(B, ...)`` as uint8, and which images hold
    values outside [0, 1] or NaN: bool ``(B,)``, on the tensor's device.

    The same bytes as the checked conversion for valid images (out-of-range values are
    clamped, NaN becomes 0), with the check left on the device: nothing is read back, so a
    CUDA caller can flag the images (a NaN reward) without stalling the device.
    """
    import torch  # heavy: loaded on first use

    flat = tensor.reshape(len(tensor), -1)
    invalid = ~((flat >= 0) & (flat <= 1)).all(dim=1)
    scaled = torch.mul(tensor, 255).round_()
    return scaled.nan_to_num_(0.0).clamp_(0, 255).to(torch.uint8), invalid


#: Elements per step of the torch float -> uint8 pass by device type: on CPU the temporary
#: stays in cache (a fresh full-size one costs a page fault per 4 KiB on every call, ~40 % of
#: a 1024² reward measured); other devices take the batch in one step.
_TORCH_STEP = {"cpu": 1 << 18}


def _float_to_uint8_in_steps(flat: torch.Tensor, step: int
                             ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``round(flat * 255)`` as uint8 ``(n,)`` through one reused temporary, and the
    minimum and maximum of ``flat`` (0-d tensors, for the range check)."""
    import torch  # heavy: loaded on first use

    n = flat.numel()
    out = torch.empty(n, dtype=torch.uint8, device=flat.device)
    buf = torch.empty(step, dtype=flat.dtype, device=flat.device)
    extremes = torch.empty((2, -(-n // step)), dtype=flat.dtype, device=flat.device)
    for j, u in enumerate(range(0, n, step)):
        chunk = flat[u:u + step]
        torch.aminmax(chunk, out=(extremes[0, j], extremes[1, j]))
        out[u:u + step].copy_(torch.mul(chunk, 255, out=buf[:chunk.numel()]).round_())
    return out, extremes[0].min(), extremes[1].max()


def nhwc_view(value: Any, name: str) -> Any:
    """A tensor or NumPy image batch (or one image) as a channels-last ``(B, H, W, 3)`` view
    of the same storage and dtype: no copy, no conversion (tensors keep their gradient).
    Axes are read as :func:`as_images` reads them (tensors channels-first when ambiguous,
    arrays channels-last)."""
    if is_tensor(value):
        return tensor_nhwc(value, name)
    array = value
    if array.ndim not in (3, 4):
        raise _layout_error(name, array.shape, array.dtype)
    channels_last = _channels_last_axis(array.shape, prefer_first=False)
    if channels_last is None:
        raise _layout_error(name, array.shape, array.dtype)
    if array.ndim == 3:
        array = array[None]
    if not channels_last:
        array = array.transpose(0, 2, 3, 1)
    return array


def array_to_uint8_nhwc(array: np.ndarray, name: str) -> np.ndarray:
    """A NumPy image array -> uint8 ``(B, H, W, 3)`` (channels last)."""
    array = nhwc_view(array, name)
    if array.dtype != np.uint8 and array.dtype.kind != "f":
        raise ValueError(
            f"{name}: expected dtype uint8 or float in [0, 1], got {array.dtype} "
            f"of shape {array.shape}"
        )
    return np.stack([rgb_from_array(a, name) for a in array]) if array.dtype != np.uint8 \
        else array


def _one_image(item: Any, name: str, allow_missing: bool, numba: bool = True
               ) -> ImageArray | torch.Tensor | MissingImage:
    if isinstance(item, MissingImage) and allow_missing:
        return item
    try:
        if item is None:
            if allow_missing:
                return MissingImage("no output")
            raise ValueError(f"{name}: got None; only outputs may be missing")
        if is_tensor(item):
            if not (item.ndim == 3 or (item.ndim == 4 and item.shape[0] == 1)):
                raise _layout_error(name, item.shape, item.dtype)
            image: ImageArray | torch.Tensor = tensor_to_uint8_nhwc(item.detach(), name, numba)[0]
        elif isinstance(item, np.ndarray):
            if item.ndim == 3 and item.shape[0] == 3 and item.shape[-1] != 3:
                item = item.transpose(1, 2, 0)  # CHW
            image = rgb_from_array(item, name)
        elif is_svg(item):
            image = _svg_pixels(item, name)
        elif (drawer := drawer_for(item)) is not None:
            image = _drawn(drawer, item, name)
        else:
            image = load_rgb(item)
        if allow_missing and math.prod(image.shape) == 0:  # this output is missing, not the batch
            raise ImageDecodeError(f"{name}: empty image (shape {image.shape}); expected at "
                                   "least one pixel")
        return image
    except ImageDecodeError as exc:
        if allow_missing:
            return MissingImage(str(exc))
        raise


_SVG_START = re.compile(r"\s*<(?:svg[\s>/]|\?xml\b)", re.IGNORECASE)


def is_svg(item: Any) -> bool:
    """Whether ``item`` is an SVG output: text or bytes starting ``<svg`` / ``<?xml``, or
    the path of a ``.svg`` file."""
    if isinstance(item, str | bytes):
        head = item[:256].decode("latin-1") if isinstance(item, bytes) else item[:256]
        if _SVG_START.match(head):
            return True
    if isinstance(item, str | os.PathLike) and not isinstance(item, bytes):
        return os.fspath(item).lower().endswith(".svg")
    return False


def _drawn(drawer: CodeDrawer, item: Any, name: str) -> ImageArray:
    """A code output drawn by its registered drawer (:mod:`paintkit.metrics.code_drawers`);
    a refused one is an :class:`ImageDecodeError` naming why."""
    try:
        image = drawer.draw(item)
    except ValueError as exc:
        raise ImageDecodeError(f"{name}: {drawer.kind} output: {exc}") from None
    return rgb_from_array(np.asarray(image), name)


def _svg_pixels(item: Any, name: str) -> ImageArray:
    """An SVG output drawn under the benchmark's pixel rules (:mod:`paintkit.svg`); a
    document outside the subset or limits is an :class:`ImageDecodeError` naming why."""
    from paintkit.svg import SvgError, render_svg  # skia, svgelements: only to draw an SVG

    try:
        if isinstance(item, bytes) or (isinstance(item, str) and item.lstrip().startswith("<")):
            return render_svg(item)  # the document itself
        with open(os.fspath(item), "rb") as file:  # a path
            return render_svg(file.read())
    except SvgError as exc:
        raise ImageDecodeError(f"{name}: SVG output: {exc}") from None
    except OSError as exc:
        raise ImageDecodeError(f"{name}: cannot read {item}: {exc.strerror or exc}") from None


def as_images(value: Any, name: str, allow_missing: bool = False, numba: bool = True
              ) -> ImageArray | torch.Tensor | list[ImageArray | torch.Tensor | MissingImage]:
    """``value`` -> uint8 NHWC tensor / array, or a list of per-problem images.

    See the module docstring for what is accepted. Undecodable outputs become
    :class:`MissingImage` when ``allow_missing``; for answers and inputs they raise.
    ``numba=False``: float CPU tensors are converted with torch ops (the torch backend).
    """
    if is_tensor(value):
        return tensor_to_uint8_nhwc(value.detach(), name, numba)
    if isinstance(value, np.ndarray):
        return array_to_uint8_nhwc(value, name)
    if isinstance(value, list | tuple):
        return [_one_image(item, f"{name}[{k}]", allow_missing, numba)
                for k, item in enumerate(value)]
    if allow_missing and value is None:
        return [MissingImage("no output")]
    return [_one_image(value, name, allow_missing, numba)]


def float_images(value: Any, name: str) -> tuple[list[torch.Tensor], torch.device]:
    """``value`` (what :func:`as_images` accepts, outputs missing excepted) as float
    channels-last ``(H, W, 3)`` tensors in [0, 1] (unchecked) and their device, for the
    differentiable surrogate. Float tensors become views (gradients flow back to them, on
    their device); everything else goes through :func:`as_images` (uint8) and is divided by
    255, on the device of the first tensor given (CPU if none): it has no gradient to give.

    Raises:
        ValueError: as :func:`as_images`; tensors on two devices.
    """
    import torch  # heavy: loaded on first use

    def is_float_tensor(x: Any) -> bool:
        return is_tensor(x) and x.is_floating_point()

    if is_float_tensor(value):
        view = nhwc_view(value, name)
        return list(view), view.device
    items = list(value) if isinstance(value, list | tuple) else None
    tensors = [x for x in (items if items is not None else [value]) if is_tensor(x)]
    device = tensors[0].device if tensors else torch.device("cpu")
    if items is None:  # a uint8 tensor or an array batch, a PIL image, a path
        batch = as_images(value, name)
        found: list[Any] = list(batch) if not isinstance(batch, list) else batch
        return [tensor_of(np.ascontiguousarray(x)).to(device) / 255 if isinstance(x, np.ndarray)
                else x.to(device) / 255 for x in found], device
    out = []
    for k, item in enumerate(items):
        where = f"{name}[{k}]"
        if is_tensor(item) and not same_device(item.device, device):
            raise ValueError(f"{where}: expected a tensor on {device} (the batch's device), got "
                             f"one on {item.device}")
        if is_float_tensor(item):
            if not (item.ndim == 3 or (item.ndim == 4 and item.shape[0] == 1)):
                raise _layout_error(where, item.shape, item.dtype)
            out.append(nhwc_view(item, where)[0])
        else:
            image = as_images([item], where)[0]
            image = image if is_tensor(image) else tensor_of(np.ascontiguousarray(image))
            out.append(image.to(device) / 255)
    return out, device


def output_on_device(out: ImageArray | torch.Tensor, device: DeviceLike, name: str
                     ) -> torch.Tensor:
    """One output image as a tensor on ``device``: tensors elsewhere are refused (a hidden
    copy per image is what this path avoids); host arrays are moved once."""

    if isinstance(out, np.ndarray):
        return tensor_of(np.ascontiguousarray(out)).to(device)
    if not same_device(out.device, device):
        raise ValueError(f"{name}: expected a tensor on {device} (the batch's device), got "
                         f"one on {out.device}")
    return out

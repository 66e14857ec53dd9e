"""Up-front input checks shared by the pixel kernels.

Every check raises ``ValueError`` naming the argument, what was received (type, dtype, shape
or value) and what was expected, so a caller can act on the message alone. The checks work
on NumPy arrays and on torch tensors alike (they only read ``.shape``, ``.ndim`` and
``.dtype``), so this module imports neither torch nor numba.
"""

from __future__ import annotations

import math
import numbers
from typing import Any


def _describe(arr: Any) -> str:
    """Short description of what was received: type, dtype and shape when present."""
    kind = type(arr).__name__
    if hasattr(arr, "dtype") and hasattr(arr, "shape"):
        return f"{kind} with dtype {_dtype_name(arr)} and shape {tuple(arr.shape)}"
    return f"{kind} {arr!r}"


def _dtype_name(arr: Any) -> str:
    return str(arr.dtype).removeprefix("torch.")


def _is_array(arr: Any) -> bool:
    return hasattr(arr, "dtype") and hasattr(arr, "shape") and hasattr(arr, "ndim")


def check_image(name: str, arr: Any) -> tuple[int, int]:
    """Require a uint8 RGB image of shape (H, W, 3) with H, W >= 1; return (H, W)."""
    if (
        not _is_array(arr)
        or _dtype_name(arr) != "uint8"
        or arr.ndim != 3
        or arr.shape[2] != 3
        or arr.shape[0] < 1
        or arr.shape[1] < 1
    ):
        raise ValueError(
            f"{name} must be a uint8 RGB image of shape (H, W, 3) with H, W >= 1; "
            f"got {_describe(arr)}"
        )
    return int(arr.shape[0]), int(arr.shape[1])


def check_mask(
    name: str, mask: Any, shape: tuple[int, int] | None = None, *, nonempty: bool = False
) -> tuple[int, int]:
    """Require a bool mask of shape (H, W) (== ``shape`` when given); return (H, W).

    With ``nonempty=True`` the mask must select at least one pixel (an edit needs a region).
    On a CUDA tensor that last check reads one bool back to the host.
    """
    if not _is_array(mask) or _dtype_name(mask) != "bool" or mask.ndim != 2:
        expected = f"{tuple(shape)}" if shape is not None else "(H, W)"
        raise ValueError(f"{name} must be a bool array of shape {expected}; got {_describe(mask)}")
    if shape is not None and tuple(mask.shape) != tuple(shape):
        raise ValueError(
            f"{name} must have the image's shape (H, W) = {tuple(shape)}; "
            f"got shape {tuple(mask.shape)}"
        )
    if nonempty and not bool(mask.any()):
        raise ValueError(f"{name} selects no pixel; the edit needs a non-empty region")
    return int(mask.shape[0]), int(mask.shape[1])


def check_same_device(name: str, tensor: Any, reference: Any, reference_name: str) -> None:
    """Require two torch tensors to live on the same device."""
    if tensor.device != reference.device:
        raise ValueError(
            f"{name} is on {tensor.device} but {reference_name} is on {reference.device}; "
            "move both to one device"
        )


def check_int(name: str, value: Any, low: int, high: int) -> int:
    """Require an integer (not bool, not float) in [low, high]; return it as int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(
            f"{name} must be an int in [{low}, {high}]; got {type(value).__name__} {value!r}"
        )
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be an int in [{low}, {high}]; got {int(value)}")
    return int(value)


def check_color(name: str, color: Any) -> tuple[int, int, int]:
    """Require an RGB color: 3 integers in [0, 255]; return them as a tuple of ints."""
    try:
        values = list(color)
    except TypeError:
        values = None
    if (
        values is None
        or len(values) != 3
        or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in values)
        or any(not 0 <= int(v) <= 255 for v in values)
    ):
        raise ValueError(
            f"{name} must be an RGB color: 3 ints in [0, 255], e.g. (255, 165, 0); got {color!r}"
        )
    r, g, b = (int(v) for v in values)
    return r, g, b


def check_point(name: str, point: Any) -> tuple[float, float]:
    """Require a point of 2 finite real numbers; return them as floats."""
    try:
        values = list(point)
    except TypeError:
        values = None
    if (
        values is None
        or len(values) != 2
        or any(isinstance(v, bool) or not isinstance(v, numbers.Real) for v in values)
        or any(not math.isfinite(float(v)) for v in values)
    ):
        raise ValueError(f"{name} must be 2 finite numbers (x, y) in canvas px; got {point!r}")
    return float(values[0]), float(values[1])


def check_pixel_index(name: str, index: Any, shape: tuple[int, int]) -> tuple[int, int]:
    """Require a (row, col) pair of ints inside an (H, W) grid; return it."""
    try:
        values = list(index)
    except TypeError:
        values = None
    h, w = shape
    if (
        values is None
        or len(values) != 2
        or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in values)
        or not (0 <= int(values[0]) < h and 0 <= int(values[1]) < w)
    ):
        raise ValueError(
            f"{name} must be a (row, col) pair of ints with 0 <= row < {h} and "
            f"0 <= col < {w}; got {index!r}"
        )
    return int(values[0]), int(values[1])


def check_size(name: str, size: Any) -> tuple[int, int]:
    """Require a (W, H) pair of ints >= 1; return it."""
    try:
        values = list(size)
    except TypeError:
        values = None
    if (
        values is None
        or len(values) != 2
        or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in values)
        or any(int(v) < 1 for v in values)
    ):
        raise ValueError(f"{name} must be a (W, H) pair of ints >= 1; got {size!r}")
    return int(values[0]), int(values[1])


def check_samples(outputs: tuple, answers: tuple, inputs: tuple, samples_per_problem: Any
                  ) -> int:
    """``G = samples_per_problem`` once the shapes agree: outputs ``(B, H, W, 3)``, answers
    and inputs ``(B / G, H, W, 3)``; else ValueError naming the shapes."""
    samples = int(samples_per_problem)
    if samples != samples_per_problem or samples < 1:
        raise ValueError(f"samples_per_problem: expected an int >= 1, got {samples_per_problem!r}")
    if not (answers == inputs and outputs[1:] == answers[1:]
            and outputs[0] == answers[0] * samples):
        expected = "one shape (B, H, W, 3)" if samples == 1 else \
            f"outputs (B, H, W, 3), answers and inputs of one shape (B / {samples}, H, W, 3)"
        raise ValueError(f"outputs, answers, inputs: expected {expected}, got {tuple(outputs)}, "
                         f"{tuple(answers)}, {tuple(inputs)}")
    return samples

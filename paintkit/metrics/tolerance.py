"""The ΔE tolerance argument shared by every scoring entry point (``reward``, ``explain``,
``paintkit explain``): one check, one error message."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_tolerance"]


def check_tolerance(tolerance: object, *, allow_none: bool = False) -> int | None:
    """``tolerance`` as an ``int`` in 0..10 (a Python or NumPy integer; ``bool`` refused).

    ``allow_none``: ``None`` is accepted and returned (``reward``: None means mIoU over all
    tolerances). Anything else raises ``ValueError``.
    """
    if tolerance is None and allow_none:
        return None
    if isinstance(tolerance, bool | np.bool_) or not isinstance(tolerance, numbers.Integral) \
            or not 0 <= int(tolerance) <= 10:
        expected = "None or an integer 0..10" if allow_none else "an integer 0..10"
        raise ValueError(f"tolerance: expected {expected}, got {tolerance!r} "
                         f"({type(tolerance).__name__})")
    return int(tolerance)

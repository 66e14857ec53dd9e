"""Kernel inputs as read-only views: one compiled signature per kernel, not one per caller.

Numba compiles a kernel once per argument type, and a read-only array (``np.frombuffer`` of
a request body, ``np.asarray`` of a PIL image) is another type than a writable one (a
tensor's ``.numpy()``). A process scoring both compiled the large counting kernels twice or
more, several seconds each. Their wrappers hand the kernels read-only views of the images
they only read (no copy), so every caller shares one signature.
"""

from __future__ import annotations

import numpy as np


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array`` (same memory, no copy)."""
    view = array.view()
    view.flags.writeable = False
    return view

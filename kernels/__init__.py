"""paintkit.kernels: every per-pixel computation.

Installed as ``paintkit.kernels`` (the folder sits at the top of the repository). Each
kernel has a torch implementation that runs wherever its tensors are and, where it pays, a
Numba CPU one; both are tested against a plain NumPy oracle. This package imports nothing
from the rest of paintkit.

**Naming twins.** When a kernel has two implementations, *both* names carry the engine as a
suffix, so a call site says which one it runs:

- ``<name>_numba``: NumPy arrays in and out, on the CPU (compiled with Numba, or NumPy
  around a Numba pass), e.g. ``flood_fill_numba``, ``blend_numba``;
- ``<name>_torch``: torch tensors in and out, on the tensors' device, e.g. ``flood_fill_torch``.

A kernel with a single implementation keeps the plain name (``color_mask``,
``within_distance``). Private helpers (leading ``_``) are not twins.
"""

import os as _os

# Numba's OpenMP threading layer (the default pick here, with GNU OpenMP) aborts any process
# that forks after a parallel kernel ran: a training loop that computes rewards with a Numba
# kernel and then starts DataLoader workers would die. The workqueue layer survives fork(),
# so it is paintkit's default; a NUMBA_THREADING_LAYER the user set wins.
if "NUMBA_THREADING_LAYER" not in _os.environ:
    _os.environ["NUMBA_THREADING_LAYER"] = "workqueue"
    try:
        import sys as _sys

        if "numba" in _sys.modules:  # imported before paintkit: set its config as well
            _sys.modules["numba"].config.THREADING_LAYER = "workqueue"
    except AttributeError:  # pragma: no cover - a numba without the config attribute
        pass

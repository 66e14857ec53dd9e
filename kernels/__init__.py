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
``changed_mask``, ``within_distance``). Private helpers (leading ``_``) are not twins.
"""

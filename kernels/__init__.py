"""paintkit.kernels: every per-pixel computation.

Installed as ``paintkit.kernels`` (the folder sits at the top of the repository). Each
kernel has a torch implementation that runs wherever its tensors are and, where it pays, a
Numba CPU one; both are tested against a plain NumPy oracle. This package imports nothing
from the rest of paintkit.
"""

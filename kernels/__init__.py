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

import contextlib as _contextlib
import os as _os
import sys as _sys
import threading as _threading

# Numba's threading layer must survive both things training code does with a reward:
#
# - fork() after a parallel kernel ran (DataLoader workers, process pools). Numba's OpenMP
#   layer (GNU OpenMP) aborts such a child;
# - several Python threads calling kernels at once (flow_grpo's 8-thread reward executor,
#   verl-omni's per-sample tasks, asyncio.to_thread). The workqueue layer aborts the process
#   ("Concurrent access has been detected").
#
# Only the TBB layer does both; the ``tbb`` wheel (a dependency on x86-64) ships its library
# outside any loader path of a virtual environment, so it is loaded here by its full path.
# Without it paintkit falls back to ``workqueue`` (fork-safe) and serialises its own parallel
# kernels with :func:`numba_lock` (thread-safe for paintkit's calls). A
# NUMBA_THREADING_LAYER the user set wins. docs/rewards.md ("Threads, asyncio and fork").

_TBB_LIBRARIES = ("libtbb.so.12", "libtbb.12.dylib", "tbb12.dll")


def _load_tbb() -> bool:
    """Load the TBB runtime of the ``tbb`` wheel (global symbols) so Numba finds it; True
    if it is loaded (also when already on the loader path)."""
    import ctypes
    import importlib.metadata
    from pathlib import Path

    candidates = []
    try:
        dist = importlib.metadata.distribution("tbb")
        candidates = [str(dist.locate_file(f)) for f in dist.files or []
                      if f.name in _TBB_LIBRARIES]
    except importlib.metadata.PackageNotFoundError:
        pass
    import importlib.util

    spec = importlib.util.find_spec("numba")  # numba itself is not imported here
    if spec is None or not spec.submodule_search_locations or not any(
            (Path(p) / "np" / "ufunc").glob("tbbpool*") for p in spec.submodule_search_locations):
        return False  # a Numba build without its TBB layer
    for name in [*candidates, *_TBB_LIBRARIES]:
        try:
            library = ctypes.CDLL(name, mode=getattr(ctypes, "RTLD_GLOBAL", 0))
        except OSError:
            continue
        try:  # Numba's own minimum: TBB 2021 update 6
            version = library.TBB_runtime_interface_version
            version.restype = ctypes.c_int
            return version() >= 12060
        except AttributeError:
            return False
    return False


def _choose_threading_layer() -> str:
    chosen = _os.environ.get("NUMBA_THREADING_LAYER")
    if chosen is not None:  # the user's choice; TBB loaded where it may pick it
        if chosen in ("tbb", "safe", "threadsafe", "default"):
            _load_tbb()
        return chosen
    layer = "tbb" if _load_tbb() else "workqueue"
    _os.environ["NUMBA_THREADING_LAYER"] = layer
    numba = _sys.modules.get("numba")
    if numba is not None:  # imported before paintkit: set its config as well
        try:
            numba.config.THREADING_LAYER = layer
        except AttributeError:  # pragma: no cover - a numba without the config attribute
            pass
    return layer


THREADING_LAYER = _choose_threading_layer()
"""The Numba threading layer paintkit asked for: ``"tbb"`` (fork- and thread-safe),
``"workqueue"`` (fork-safe; paintkit's calls serialised) or what the user set."""

_LOCK = _threading.RLock()


def numba_lock():
    """A context manager around calls into parallel Numba kernels from threads that may run
    at once: a process-wide lock when the active layer is not thread-safe (``workqueue``),
    nothing otherwise (``tbb``, ``omp``)."""
    layer = _active_layer()
    return _LOCK if layer == "workqueue" else _contextlib.nullcontext()


def _active_layer() -> str:
    numba = _sys.modules.get("numba")
    if numba is None:
        return THREADING_LAYER
    try:
        return numba.threading_layer()
    except ValueError:  # no parallel kernel ran yet: what was asked for
        layer = getattr(numba.config, "THREADING_LAYER", THREADING_LAYER)
        return layer if layer in ("tbb", "omp", "safe", "threadsafe") else "workqueue"

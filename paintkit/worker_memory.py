"""Worker processes keep the memory they free, for the next problem (glibc only).

Every problem allocates and frees a few arrays of megabytes (canvases, images, PNG data).
glibc serves blocks above its mmap threshold with fresh ``mmap`` calls and gives freed heap
tops back to the kernel, so each new array page-faults and is zeroed by the kernel again:
about 0.5 ms of CPU per generated problem here (``bench/stage_breakdown.py generate`` 10.4
-> 9.9 ms; the generation pool 262-275 -> 291-293 problems/s). paintkit's own worker
processes (generation and evaluation pools) raise both thresholds once at start-up, so freed
blocks are reused; a worker's resident memory then stays near its peak, which is what a
long-lived worker reaches anyway. The training process and users' processes are never
changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

__all__ = ["reuse_freed_memory"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 64 << 20  # blocks below 64 MiB come from (and return to) the heap
TRIM_THRESHOLD = 256 << 20  # keep up to 256 MiB of freed heap top instead of unmapping it


def reuse_freed_memory() -> bool:
    """In a worker process: let glibc keep freed blocks for reuse (see the module
    docstring). True when it took effect; False elsewhere (not Linux, or not glibc)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others have no mallopt
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))

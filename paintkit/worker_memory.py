"""paintkit's long-lived processes keep the memory they free for their next use (glibc only).

Generation and evaluation workers allocate and free arrays of megabytes for every problem
(canvases, images, PNG data); the reward service reads every request's pixels (3 MiB for a
1024x1024 image) into fresh buffers, scores and frees them. With glibc's defaults each such
block is memory newly asked of the kernel (``mmap`` above a size threshold, or the heap
grown and trimmed back after each use), and touching it page-faults and zero-fills every
4 KiB page: about 0.5 ms of CPU per generated problem (``bench/stage_breakdown.py generate``
10.4 -> 9.9 ms) and about 1 ms per 3 MiB request, as much as all of the service's HTTP
handling.

One policy, applied once per process by :func:`reuse_freed_memory` in paintkit's pool
workers (:mod:`paintkit.engines.work`, :mod:`paintkit.parallel`) and in the reward
service's process (:mod:`paintkit.serve.app`):

- blocks below :data:`MMAP_THRESHOLD` (64 MiB; 32 MiB, glibc's ceiling on older releases,
  where 64 is refused) come from the heap and return to it;
- up to :data:`TRIM_THRESHOLD` (256 MiB) of freed memory at the top of the heap is kept
  rather than given back.

Such a process then keeps the memory of its busiest moment (what a long-lived worker or
server reaches anyway). Nothing changes where the user already chose: ``GLIBC_TUNABLES``
naming ``malloc.mmap_threshold`` or ``malloc.trim_threshold``, or ``MALLOC_MMAP_THRESHOLD_``
/ ``MALLOC_TRIM_THRESHOLD_`` set; nor on other C libraries. The training process and users'
own processes are never changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "reuse_freed_memory", "user_chose"]

#: ``mallopt`` parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
#: Largest block served from the heap (a 1024x1024 batch of 8 images, a 48 MiB canvas).
MMAP_THRESHOLD = 64 << 20
#: glibc's ceiling for the mmap threshold on 64-bit before 2.35-era heaps: tried next.
_MMAP_FALLBACK = 32 << 20
#: Free memory at the top of the heap kept rather than given back.
TRIM_THRESHOLD = 256 << 20

_done = False


def user_chose(environ=os.environ) -> bool:
    """True when the environment already sets glibc's mmap or trim threshold."""
    tunables = environ.get("GLIBC_TUNABLES", "")
    return "malloc.mmap_threshold" in tunables or "malloc.trim_threshold" in tunables or \
        "MALLOC_MMAP_THRESHOLD_" in environ or "MALLOC_TRIM_THRESHOLD_" in environ


def reuse_freed_memory() -> bool:
    """Apply the policy of the module docstring to this process (once); True when it took
    effect, False where the user's settings win, or off Linux / glibc."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux") or user_chose():
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - glibc only (musl has no mallopt tuning)
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    mmap = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) or \
        bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_FALLBACK))
    _done = mmap and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return _done

"""Keep freed memory in the service's process for the next request (glibc's malloc).

Every request brings a few MiB of pixels (3 MiB for a 1024x1024 image) that are read into
fresh buffers, scored and freed. With glibc's default settings each such buffer is memory
newly asked of the kernel (``mmap`` above a size threshold, or the heap grown and trimmed
back after each request), and touching it page-faults and zero-fills every 4 KiB page:
measured at about 1 ms of CPU per 3 MiB request, as much as all of the HTTP handling.
:func:`keep_freed_memory` raises both thresholds so freed buffers are reused instead; the
process then keeps the memory of its busiest moment (what a server reaches anyway).
Nothing changes on other C libraries, or when ``GLIBC_TUNABLES`` / ``MALLOC_*`` already set
the thresholds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

#: ``mallopt`` parameters (glibc's malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: Largest allocation served from the heap (glibc's maximum for ``M_MMAP_THRESHOLD`` on
#: 64-bit: a 1024x1024 batch of 8 images still fits).
MMAP_THRESHOLD = 32 << 20
#: Free memory at the top of the heap kept rather than given back.
TRIM_THRESHOLD = 512 << 20

_done = False


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds in this process (once); True if set."""
    global _done
    if _done:
        return True
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if "malloc.mmap_threshold" in tunables or "malloc.trim_threshold" in tunables or \
            "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return False  # the user's settings win
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - glibc only
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    _done = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and \
        bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return _done

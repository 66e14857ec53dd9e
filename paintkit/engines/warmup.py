"""Whether this run compiles the kernels first (a fresh install): said on the progress line.

paintkit's per-pixel kernels are compiled by Numba the first time they run and cached on
disk beside their source (``__pycache__/<module>.<function>-<line>.py3XX.nbi``, or under
``NUMBA_CACHE_DIR`` when set). A first run spends its first minutes compiling, in every
worker; the progress line then says ``compiling kernels (first run only)`` instead of an
ETA measured on the warm-up (:class:`~paintkit.io.progress.Progress` measures its rate after
the first batch). The check reads file names only: it imports and compiles nothing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

#: What the progress line says while a first run compiles.
COMPILING = "compiling kernels (first run only)"


def _kernel_modules(root: Path) -> list[Path]:
    """Source files under ``root`` that ask Numba to cache what it compiles."""
    found = []
    for path in sorted(root.rglob("*.py")):
        try:
            if "cache=True" in path.read_text(encoding="utf-8", errors="replace"):
                found.append(path)
        except OSError:
            continue
    return found


def _cached(module: Path, tag: str, extra: list[Path]) -> bool:
    pattern = f"{module.stem}.*.{tag}.nbi"
    if any((module.parent / "__pycache__").glob(pattern)):
        return True
    return any(any(place.rglob(pattern)) for place in extra if place.is_dir())


def kernels_cold(root: Path | str | None = None) -> bool:
    """True when some kernel module of ``root`` (default: the installed ``paintkit.kernels``)
    has nothing in Numba's cache for this Python: this run compiles kernels first."""
    if root is None:
        spec = importlib.util.find_spec("paintkit.kernels")
        locations = list(spec.submodule_search_locations or []) if spec else []
        if not locations:
            return False
        root = locations[0]
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    extra = [Path(p) for p in (os.environ.get("NUMBA_CACHE_DIR"),) if p]
    extra.append(Path.home() / ".cache" / "numba")  # Numba's place for read-only installs
    return any(not _cached(module, tag, extra) for module in _kernel_modules(Path(root)))

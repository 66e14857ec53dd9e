"""Atomic file writes: write to a temporary name in the same folder, then rename.

An interrupted run never leaves a half-written file under the final name, so a rerun can
trust every file it finds and skip it. ``tempfile.mkstemp`` creates its file 0600; the
final file gets the permissions a plain ``open()`` would give (``0o666 & ~umask``), so a
shared benchmark folder stays readable to the people the umask allows.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO


@cache
def _umask() -> int:
    # os.umask can only be read by setting it; do it once (the umask of a run is fixed).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """Permission bits a new file gets from ``open()``: ``0o666 & ~umask``."""
    return 0o666 & ~_umask()


def make_temporary(final: Path, suffix: str = ".tmp") -> Path:
    """An empty temporary file ``.<name>.<random><suffix>`` beside ``final`` with the
    permissions of a new file (not mkstemp's 0600)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=suffix, dir=final.parent)
    except OSError as exc:  # read-only, forbidden or full: name the folder, not the temp
        raise OSError(exc.errno, f"cannot write into this folder ({exc.strerror or exc})",
                      str(final.parent)) from None
    try:
        os.fchmod(fd, new_file_mode())
    finally:
        os.close(fd)
    return Path(tmp)


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it onto ``path``.

    The parent folder is created if missing. On error the temporary file is removed and
    ``path`` is left untouched; an ``OSError`` that names no file (a full disk) is raised
    again naming ``path``.
    """
    final = Path(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = make_temporary(final)
    try:
        yield Path(tmp)
        os.replace(tmp, final)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
            # a write that failed (full disk): name the file it was for
            raise OSError(exc.errno, exc.strerror or str(exc), str(final)) from exc
        raise


@contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", **kwargs) -> Iterator[IO]:
    """``open()`` a temporary file beside ``path``; rename it onto ``path`` on success."""
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as fh:
        yield fh


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_open(path, "wb") as fh:
        fh.write(data)


def write_text_atomic(path: str | os.PathLike[str], text: str, errors: str = "strict") -> None:
    """``text`` as UTF-8; ``errors="backslashreplace"`` writes what UTF-8 cannot hold (an
    unpaired surrogate such as ``\\ud800`` from a model's text) escaped, instead of raising."""
    with atomic_open(path, "w", encoding="utf-8", errors=errors) as fh:
        fh.write(text)

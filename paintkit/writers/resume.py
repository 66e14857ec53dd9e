"""What a resumed run keeps: files checked against the manifest the earlier run wrote.

A folder's ``manifest.json`` lists every file it recorded with its size and SHA-256 (the
complete manifest, and the incomplete one an interrupted run leaves). A resumed run keeps
a file only when it is a regular file and, where the manifest recorded it, has exactly that
size and hash; a file that fails (truncated, edited, replaced) is named in
:attr:`KeptFiles.damaged` and its problem is generated again. A file the manifest does not
list (written by a run killed with SIGKILL after its last manifest) was renamed into place
only once complete, so it is kept as it is.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from paintkit.writers.record import FileRecord

_SHA256 = re.compile(r"[0-9a-f]{64}")


def _records(files) -> dict[str, tuple[int, str]]:
    """The well-formed entries of a manifest's ``files`` (others are ignored: unrecorded)."""
    out = {}
    if not isinstance(files, dict):
        return out
    for path, entry in files.items():
        if not isinstance(entry, dict):
            continue
        nbytes, sha = entry.get("bytes"), entry.get("sha256")
        if type(nbytes) is int and nbytes >= 0 and isinstance(sha, str) and _SHA256.fullmatch(sha):
            out[path] = (nbytes, sha)
    return out


def _hash(path: Path, limit: int) -> tuple[int, str] | None:
    """(size, SHA-256) of ``path``, or None when it cannot be read."""
    digest, size = hashlib.sha256(), 0
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
                if size > limit:
                    return None
    except OSError:
        return None
    return size, digest.hexdigest()


class KeptFiles:
    """The earlier run's file records, consumed as a resumed run checks each file once."""

    def __init__(self, files=None):
        self._expected = _records(files)
        self._verified: dict[str, FileRecord] = {}
        self._failed: dict[str, tuple[int, str]] = {}  # damaged, not yet written again
        #: ``(path, reason)`` of every recorded file that failed its check.
        self.damaged: list[tuple[str, str]] = []

    def intact(self, root: Path, path: str) -> bool:
        """Whether ``root / path`` can be kept (see the module docstring)."""
        full = Path(root) / path
        if path in self._failed:
            return False
        if path in self._verified:
            return os.path.isfile(full)
        if not os.path.isfile(full):
            return False
        expected = self._expected.pop(path, None)
        if expected is None:
            return True
        nbytes, sha = expected
        size = os.path.getsize(full)
        found = _hash(full, nbytes) if size == nbytes else None
        if found is None or found != expected:
            reason = (f"{size:,} bytes, the manifest recorded {nbytes:,}" if size != nbytes
                      else "its SHA-256 differs from the manifest's")
            self.damaged.append((path, reason))
            self._failed[path] = expected
            return False
        self._verified[path] = FileRecord(path, nbytes, sha)
        return True

    def rewritten(self) -> None:
        """The run wrote every problem again whose file failed: check existence only now."""
        self._failed.clear()

    def record(self, root: Path, path: str) -> FileRecord:
        """The record of a kept file (hashed once: a checked file's record is reused)."""
        record = self._verified.pop(path, None)
        return record if record is not None else FileRecord.of_file(root, path)

    def unreached(self) -> dict[str, dict]:
        """Records this run has not rewritten or re-recorded yet (a run stopped before reaching
        them, or before rewriting a damaged file), as manifest entries."""
        expected = {**self._expected, **self._failed}
        entries = {p: {"bytes": n, "sha256": s} for p, (n, s) in expected.items()}
        entries.update({p: {"bytes": r.nbytes, "sha256": r.sha256} for p, r in self._verified.items()})
        return entries

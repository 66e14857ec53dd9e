"""One run per folder: an exclusive ``flock`` on a hidden lock file inside it.

``paintkit generate`` locks its ``--out`` and ``paintkit eval`` its results folder, so two
runs into one folder never interleave (duplicate rows, each other's temporary files
deleted). The lock is taken before anything in the folder is changed or deleted, and the
kernel drops it when the process dies, so a killed run never leaves the folder locked.
By default the empty lock file is never deleted: every run locks the same inode, so the lock
cannot be held twice. With ``remove=True`` (``paintkit generate``: a finished corpus folder
holds only the corpus) the holder deletes it on release, while still holding the lock, and
every run checks after locking that the file it locked is still the one at the path (else it
opens the path again), so a run that opened the old file and one that creates a new file
never both hold the lock.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from paintkit.errors import PaintkitError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None


class FolderBusyError(PaintkitError, ValueError):
    """Another run holds the folder's lock."""


class FolderNotWritableError(PaintkitError, OSError):
    """The folder (or its lock file) cannot be created or written; names the path."""


class FolderLock:
    """An exclusive lock on ``<root>/<name>``, held until :meth:`release` (or ``with``).

    Args:
        root: the folder (created if missing).
        name: the lock file's name, e.g. ``.paintkit-eval.lock``.
        command: what takes it, for the error message (``paintkit eval``).

    Raises:
        FolderBusyError: another process holds the lock.
        FolderNotWritableError: ``root`` cannot be created or written (read-only folder,
            full disk); one line naming the path and the reason.
    """

    def __init__(self, root: Path | str, name: str, command: str, *, remove: bool = False):
        self.root = Path(root)
        self.path = self.root / name
        self.remove = remove
        while True:
            try:
                self.root.mkdir(parents=True, exist_ok=True)
                self._fh = open(self.path, "a+")  # noqa: SIM115 - closed in release()
            except OSError as exc:
                raise FolderNotWritableError(
                    f"{self.root}: cannot write into this folder ({exc.strerror or exc}); "
                    "choose a writable folder") from None
            if fcntl is None:
                return
            try:
                fcntl.flock(self._fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self._fh.close()
                raise FolderBusyError(f"{self.root}: another '{command}' is writing into this "
                                      "folder; wait for it to finish") from None
            if self._still_the_file():
                return
            self._fh.close()  # its holder deleted it meanwhile: lock the path's file

    def _still_the_file(self) -> bool:
        try:
            return os.stat(self.path).st_ino == os.fstat(self._fh.fileno()).st_ino
        except OSError:
            return False

    def release(self) -> None:
        # Without ``remove`` the file stays. With it, the file goes while the lock is held;
        # a run that opened it meanwhile finds it is no longer the path's file and retries.
        if self.remove and fcntl is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        self._fh.close()

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc) -> None:
        self.release()


@contextmanager
def owned_outputs(paths, command: str) -> Iterator[None]:
    """Hold ``command``'s lock in the folder of every file in ``paths``, and remove the
    temporaries (``.<name>.*.tmp``) a killed run of it left beside them.

    For commands that write a few whole files atomically (``paintkit stats``, ``report``):
    with the lock held no other run of the command can own those temporaries.

    Raises:
        FolderBusyError: another run of ``command`` writes into one of the folders.
        FolderNotWritableError: a folder cannot be created or written.
    """
    paths = [Path(p) for p in paths]
    lock_name = f".paintkit-{command.split()[-1]}.lock"
    with ExitStack() as stack:
        for folder in sorted({p.parent.resolve() for p in paths}):
            stack.enter_context(FolderLock(folder, lock_name, command))
        for path in paths:
            for stale in path.parent.glob(f".{path.name}.*.tmp"):
                stale.unlink(missing_ok=True)
        yield

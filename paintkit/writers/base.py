"""The writer contract: problems arrive in suite order, files appear atomically.

The driver (:func:`paintkit.engines.write_suite`) hands every index of the suite to the writer
exactly once, in order: :meth:`Writer.skip` for problems whose files already exist (a
resumed run), :meth:`Writer.write` for freshly generated ones. Both return the
:class:`~paintkit.writers.record.FileRecord` of every file that is now complete, so the
manifest lists files in a fixed order whatever the engine. Files are written under a
temporary hidden name (``.<name>.<random>.tmp``) and renamed when complete: an interrupted
run leaves only complete files and hidden temporaries, which :meth:`Writer.clean_temporary`
removes on the next start.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from pathlib import Path

from paintkit.errors import PaintkitError
from paintkit.io.atomic import make_temporary, write_bytes_atomic
from paintkit.suites import ProblemSuite
from paintkit.writers.record import EncodedProblem, FileRecord
from paintkit.writers.resume import KeptFiles

TEMP_SUFFIX = ".tmp"


class WriteError(PaintkitError, OSError):
    """A file could not be written (full disk, unwritable folder); names the path."""


def write_error(path: Path | str, exc: OSError) -> WriteError:
    return WriteError(f"{path}: cannot write: {exc.strerror or exc}; every file completed "
                      "before it is intact, rerun to resume")


def write_files(root: Path, paths, blobs) -> list[FileRecord]:
    """Write ``root / path`` with its bytes for each of ``paths`` (relative), atomically and
    in order: the :class:`~paintkit.writers.record.FileRecord` of each.

    Raises:
        WriteError: a file could not be written (those before it are complete).
    """
    records = []
    for path, data in zip(paths, blobs, strict=True):
        try:
            write_bytes_atomic(root / path, data)
        except OSError as exc:
            raise write_error(root / path, exc) from exc
        records.append(FileRecord.of_bytes(path, data))
    return records


def is_temporary(name: str) -> bool:
    """A temporary file of :mod:`paintkit.io.atomic` (``.<name>.<random>.tmp``)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


class TempFile:
    """A temporary file beside ``final`` (same naming as :mod:`paintkit.io.atomic`),
    renamed onto ``final`` by :meth:`commit` or removed by :meth:`discard`."""

    def __init__(self, final: Path):
        self.final = Path(final)
        try:
            self.final.parent.mkdir(parents=True, exist_ok=True)
            self.path = make_temporary(self.final, TEMP_SUFFIX)
        except OSError as exc:
            raise write_error(self.final, exc) from exc

    def commit(self) -> None:
        try:
            os.replace(self.path, self.final)
        except OSError as exc:
            raise write_error(self.final, exc) from exc

    def discard(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:  # already gone, or the folder went away: nothing left to clean
            pass


class Writer(ABC):
    """Stores a suite's problems under ``root``; see the module docstring."""

    #: The ``--format`` name.
    format: str = ""
    #: Metadata JSON indent of this format (None: compact).
    json_indent: int | None = None
    #: The most reference images per problem this format's files carry (None: any number);
    #: a trainer format whose loader takes fewer refuses a problem with more
    #: (:func:`paintkit.writers.reference_limits.check_references`), naming ``why``.
    max_references: int | None = None
    #: Why this format carries no more than ``max_references`` (its trainer's own limit).
    references_why: str = ""

    def __init__(self, root: Path | str, suite: ProblemSuite):
        self.root = Path(root)
        self.suite = suite
        #: What a resumed run may keep: checked against the earlier manifest's records.
        self.kept = KeptFiles()

    def keep(self, files) -> None:
        """Check files found on disk against ``files`` (a manifest's ``files``) before
        keeping them; a file that fails is regenerated (:mod:`paintkit.writers.resume`)."""
        self.kept = KeptFiles(files)

    def options(self) -> dict:
        """The format and the options that decide the file layout (checked on resume)."""
        return {"format": self.format}

    def temp_folders(self) -> list[Path]:
        """Folders searched (recursively) for stale temporaries, besides ``root`` itself."""
        return []

    def clean_temporary(self) -> int:
        """Remove temporary files left by an interrupted run; returns how many."""
        removed = 0
        for folder in self.temp_folders():
            for dirpath, _, names in os.walk(folder):
                for name in names:
                    if is_temporary(name):
                        os.unlink(os.path.join(dirpath, name))
                        removed += 1
        for name in os.listdir(self.root) if self.root.is_dir() else ():
            if is_temporary(name):
                os.unlink(self.root / name)
                removed += 1
        return removed

    @abstractmethod
    def is_done(self, index: int) -> bool:
        """Whether problem ``index`` is already stored (its files exist and pass
        :meth:`KeptFiles.intact`)."""

    def refresh(self) -> None:
        """Forget anything cached about which files exist (the run's end re-checks)."""
        self.kept.rewritten()

    @abstractmethod
    def skip(self, index: int) -> list[FileRecord]:
        """Problem ``index`` exists; return the records of files it completes."""

    @abstractmethod
    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        """Store ``problem``; return the records of files it completes."""

    def close(self) -> list[FileRecord]:
        """Flush; returns records of files completed by closing (none by default)."""
        return []

    def finish(self) -> list[FileRecord]:
        """Files the run's driver writes once the whole suite is in place (a shard corpus's
        dataset card); their records. Never called by a worker writing one unit."""
        return []

    def abort(self) -> None:  # noqa: B027 - writers without open files have nothing to drop
        """Drop any partly written file (the run stops)."""

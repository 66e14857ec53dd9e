"""Sharded writers: shard ``k`` holds problems ``k * shard_size .. (k + 1) * shard_size - 1``
in suite order, written to a temporary file and renamed when its last problem is in.

A shard that exists is complete; a resumed run skips it whole (once it matches the size and
hash the manifest recorded) and regenerates any shard that was in progress when the run
stopped or that fails that check.
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path

from paintkit.suites import Suite
from paintkit.writers.base import TempFile, Writer, write_error
from paintkit.writers.record import EncodedProblem, FileRecord

DEFAULT_SHARD_SIZE = 1000


class ShardWriter(Writer):
    """Base of the tar and Parquet writers (see the module docstring)."""

    extension = ""

    def __init__(self, root: Path | str, suite: Suite, shard_size: int = DEFAULT_SHARD_SIZE):
        super().__init__(root, suite)
        if not isinstance(shard_size, int) or shard_size < 1:
            raise ValueError(f"shard_size must be an int >= 1, got {shard_size!r}")
        self.shard_size = shard_size
        self._done_cache: tuple[int, bool] | None = None
        self._open: TempFile | None = None
        self._open_shard = -1

    def options(self) -> dict:
        return {"format": self.format, "shard_size": self.shard_size}

    @property
    def shards(self) -> int:
        return -(-len(self.suite) // self.shard_size)

    def shard_name(self, shard: int) -> str:
        return f"shard-{shard:06d}.{self.extension}"

    def _last_of_shard(self, index: int) -> bool:
        return index % self.shard_size == self.shard_size - 1 or index == len(self.suite) - 1

    def refresh(self) -> None:
        super().refresh()
        self._done_cache = None

    def is_done(self, index: int) -> bool:
        shard = index // self.shard_size
        if self._done_cache is None or self._done_cache[0] != shard:
            self._done_cache = (shard, self.kept.intact(self.root, self.shard_name(shard)))
        return self._done_cache[1]

    def skip(self, index: int) -> list[FileRecord]:
        if not self._last_of_shard(index):
            return []
        return [self.kept.record(self.root, self.shard_name(index // self.shard_size))]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        shard = problem.index // self.shard_size
        if self._open is None:
            self._open = TempFile(self.root / self.shard_name(shard))
            self._open_shard = shard
            try:
                self._begin(self._open.path)
            except OSError as exc:
                raise write_error(self._open.final, exc) from exc
        if shard != self._open_shard:
            raise RuntimeError(f"problem {problem.index} arrived while shard {self._open_shard} is open")
        try:
            self._append(problem)
            if not self._last_of_shard(problem.index):
                return []
            self._end()
        except OSError as exc:
            raise write_error(self._open.final, exc) from exc
        self._open.commit()
        name = self.shard_name(shard)
        self._open = None
        return [FileRecord.of_file(self.root, name)]

    def abort(self) -> None:
        if self._open is not None:
            try:
                self._end()
            except Exception:  # the run is stopping anyway; the temp file goes
                pass
            self._open.discard()
            self._open = None

    @abstractmethod
    def _begin(self, path: Path) -> None:
        """Open a new shard at the temporary ``path``."""

    @abstractmethod
    def _append(self, problem: EncodedProblem) -> None:
        """Add ``problem`` to the open shard."""

    @abstractmethod
    def _end(self) -> None:
        """Finish and close the open shard file."""

"""Sharded writers: shard ``k`` holds problems ``k * shard_size .. (k + 1) * shard_size - 1``
in suite order, written to a temporary file and renamed when its last problem is in.

With ``shards=S`` (a shard count, e.g. a multiple of a training world size that no single
shard size reaches) the suite's ``N`` problems are split into ``S`` contiguous shards as
evenly as possible instead: shard ``k`` holds ``k * N // S .. (k + 1) * N // S - 1``, so
the sizes differ by at most one. Either way a problem's shard is a pure function of its
index, ``N`` and the layout: it never depends on scheduling.

A shard that exists is complete; a resumed run skips it whole (once it matches the size and
hash the manifest recorded) and regenerates any shard that was in progress when the run
stopped or that fails that check.
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path

from paintkit.suites import ProblemSuite
from paintkit.writers.base import TempFile, Writer, write_error, write_files
from paintkit.writers.dataset_card import CARD_NAME, card_bytes
from paintkit.writers.record import EncodedProblem, FileRecord

DEFAULT_SHARD_SIZE = 1000


class ShardWriter(Writer):
    """Base of the tar and Parquet writers (see the module docstring)."""

    extension = ""

    def __init__(self, root: Path | str, suite: ProblemSuite, shard_size: int = DEFAULT_SHARD_SIZE,
                 shards: int | None = None):
        super().__init__(root, suite)
        if not isinstance(shard_size, int) or shard_size < 1:
            raise ValueError(f"shard_size must be an int >= 1, got {shard_size!r}")
        self.shard_size = shard_size
        #: The shard count of an even split (``shards=``), None for shards of ``shard_size``.
        self.count = None
        if shards is not None:
            if not isinstance(shards, int) or not 1 <= shards <= max(1, len(suite)):
                raise ValueError(f"shards must be an int from 1 to the {len(suite)} problems, "
                                 f"got {shards!r}")
            self.count = shards
            self.shard_size = -(-len(suite) // shards)  # the largest shard
        self._done_cache: tuple[int, bool] | None = None
        self._open: TempFile | None = None
        self._open_shard = -1

    def options(self) -> dict:
        if self.count is not None:
            return {"format": self.format, "shards": self.count}
        return {"format": self.format, "shard_size": self.shard_size}

    @property
    def shards(self) -> int:
        return self.count if self.count is not None else -(-len(self.suite) // self.shard_size)

    def shard_of(self, index: int) -> int:
        """The shard that holds problem ``index``."""
        if self.count is None:
            return index // self.shard_size
        # the last k with k * N // S <= index
        return ((index + 1) * self.count - 1) // len(self.suite)

    def shard_range(self, shard: int) -> tuple[int, int]:
        """``(start, stop)``: shard ``shard`` holds problems ``start .. stop - 1``."""
        n = len(self.suite)
        if self.count is None:
            return shard * self.shard_size, min((shard + 1) * self.shard_size, n)
        return shard * n // self.count, (shard + 1) * n // self.count

    def shard_name(self, shard: int) -> str:
        return f"shard-{shard:06d}.{self.extension}"

    def _last_of_shard(self, index: int) -> bool:
        return index == self.shard_range(self.shard_of(index))[1] - 1

    def refresh(self) -> None:
        super().refresh()
        self._done_cache = None

    def is_done(self, index: int) -> bool:
        shard = self.shard_of(index)
        if self._done_cache is None or self._done_cache[0] != shard:
            self._done_cache = (shard, self.kept.intact(self.root, self.shard_name(shard)))
        return self._done_cache[1]

    def skip(self, index: int) -> list[FileRecord]:
        if not self._last_of_shard(index):
            return []
        return [self.kept.record(self.root, self.shard_name(self.shard_of(index)))]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        shard = self.shard_of(problem.index)
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

    def finish(self) -> list[FileRecord]:
        """The corpus's dataset card (``README.md``, :mod:`paintkit.writers.dataset_card`)
        for the formats that get one, once every shard is in place."""
        shard_bytes = sum((self.root / self.shard_name(k)).stat().st_size
                          for k in range(self.shards))
        card = card_bytes(self, shard_bytes)
        return [] if card is None else write_files(self.root, [CARD_NAME], [card])

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

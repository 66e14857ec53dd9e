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

With a held-out split (``held_out=``, a fraction; :mod:`paintkit.writers.splits`) each
shard is two files: ``shard-NNNNNN.<ext>`` holds the ``train`` problems of its range and
``shard-NNNNNN.test.<ext>`` the held-out ones (possibly none: a readable empty shard), both
in suite order and both complete when the range's last problem is in. Which file a problem
goes to depends only on its ``problem_id``, so the files are the same on every engine and
worker count.
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import ClassVar

from paintkit.suites import ProblemSuite
from paintkit.writers.base import TempFile, Writer, write_error, write_files
from paintkit.writers.dataset_card import CARD_NAME, card_bytes
from paintkit.writers.record import EncodedProblem, FileRecord
from paintkit.writers.splits import SPLITS, TEST, TRAIN, check_held_out, held_out

DEFAULT_SHARD_SIZE = 1000


class ShardWriter(Writer):
    """Base of the tar and Parquet writers (see the module docstring)."""

    extension = ""
    #: The held-out fraction when ``held_out`` is None; 0 for formats without a split (the
    #: trainer formats whose loaders name one set of files).
    default_held_out: ClassVar[float] = 0.0

    def __init__(self, root: Path | str, suite: ProblemSuite, shard_size: int = DEFAULT_SHARD_SIZE,
                 shards: int | None = None, held_out: float | None = None):
        super().__init__(root, suite)
        self.held_out = self.default_held_out if held_out is None else check_held_out(held_out)
        if self.held_out and not self.default_held_out:
            raise ValueError(f"a held-out split applies to --format parquet and webdataset, "
                             f"not {self.format}")
        #: The split this writer's files hold: ``train`` (and every problem without a split)
        #: or ``test`` (the companion writing the held-out files).
        self.split = TRAIN
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
        self._held: ShardWriter | None = None  # the companion writing the held-out files

    def options(self) -> dict:
        split = {"held_out": self.held_out} if self.held_out else {}
        if self.count is not None:
            return {"format": self.format, "shards": self.count, **split}
        return {"format": self.format, "shard_size": self.shard_size, **split}

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

    def shard_name(self, shard: int, split: str | None = None) -> str:
        """The file of ``shard`` holding ``split`` (default: this writer's split)."""
        split = self.split if split is None else split
        middle = "" if split == TRAIN else f".{split}"
        return f"shard-{shard:06d}{middle}.{self.extension}"

    def shard_names(self, shard: int) -> list[str]:
        """The files of ``shard``, in manifest order: ``train``, then ``test`` when split."""
        if not self.held_out:
            return [self.shard_name(shard)]
        return [self.shard_name(shard, split) for split in SPLITS]

    def splits(self) -> tuple[str, ...]:
        """The splits this corpus's files hold: ``("train",)`` or ``("train", "test")``."""
        return SPLITS if self.held_out else (TRAIN,)

    def split_of_file(self, name: str) -> str:
        """The split a shard file (a name :meth:`shard_name` makes) holds."""
        return TEST if name.endswith(f".{TEST}.{self.extension}") else TRAIN

    def _companion(self) -> ShardWriter:
        """The writer of the held-out files (same class and shard ranges, split ``test``)."""
        if self._held is None:
            held = type(self)(self.root, self.suite, self.shard_size, shards=self.count,
                              held_out=0.0)
            held.shard_size, held.count, held.split = self.shard_size, self.count, TEST
            self._held = held
        return self._held

    def _last_of_shard(self, index: int) -> bool:
        return index == self.shard_range(self.shard_of(index))[1] - 1

    def refresh(self) -> None:
        super().refresh()
        self._done_cache = None

    def is_done(self, index: int) -> bool:
        shard = self.shard_of(index)
        if self._done_cache is None or self._done_cache[0] != shard:
            self._done_cache = (shard, all(self.kept.intact(self.root, name)
                                           for name in self.shard_names(shard)))
        return self._done_cache[1]

    def skip(self, index: int) -> list[FileRecord]:
        if not self._last_of_shard(index):
            return []
        return [self.kept.record(self.root, name)
                for name in self.shard_names(self.shard_of(index))]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        shard = self.shard_of(problem.index)
        writers = [self, self._companion()] if self.held_out else [self]
        if self._open is None:
            for writer in writers:
                writer._open_file(shard)
        if shard != self._open_shard:
            raise RuntimeError(f"problem {problem.index} arrived while shard {self._open_shard} is open")
        target = writers[-1] if held_out(problem.key, self.held_out) else self
        try:
            target._append(problem)
        except OSError as exc:
            raise write_error(target._open.final, exc) from exc  # type: ignore[union-attr]
        if not self._last_of_shard(problem.index):
            return []
        return [writer._close_file() for writer in writers]

    def _open_file(self, shard: int) -> None:
        """Start this writer's file of ``shard`` (a temporary name until it is closed)."""
        self._open_name = self.shard_name(shard)
        self._open = TempFile(self.root / self._open_name)
        self._open_shard = shard
        try:
            self._begin(self._open.path)
        except OSError as exc:
            raise write_error(self._open.final, exc) from exc

    def _close_file(self) -> FileRecord:
        """Finish the open file, rename it into place: its record."""
        assert self._open is not None
        try:
            self._end()
        except OSError as exc:
            raise write_error(self._open.final, exc) from exc
        self._open.commit()
        self._open = None
        return FileRecord.of_file(self.root, self._open_name)

    def shard_files(self) -> list[str]:
        """Every shard file of the corpus, in manifest order."""
        return [name for k in range(self.shards) for name in self.shard_names(k)]

    def finish(self) -> list[FileRecord]:
        """The corpus's dataset card (``README.md``, :mod:`paintkit.writers.dataset_card`)
        for the formats that get one, once every shard is in place."""
        sizes = {name: (self.root / name).stat().st_size for name in self.shard_files()}
        card = card_bytes(self, sizes)
        return [] if card is None else write_files(self.root, [CARD_NAME], [card])

    def abort(self) -> None:
        for writer in (self, self._held):
            if writer is None or writer._open is None:
                continue
            try:
                writer._end()
            except Exception:  # the run is stopping anyway; the temp file goes
                pass
            writer._open.discard()
            writer._open = None

    @abstractmethod
    def _begin(self, path: Path) -> None:
        """Open a new shard at the temporary ``path``."""

    @abstractmethod
    def _append(self, problem: EncodedProblem) -> None:
        """Add ``problem`` to the open shard."""

    @abstractmethod
    def _end(self) -> None:
        """Finish and close the open shard file."""

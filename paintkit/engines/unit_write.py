"""The worker's side of a scaled-out run: generate a unit, write its files, return records.

A unit is a range of suite indices: one whole shard (``webdataset``, ``parquet``) or a few
problems (``directory``). The worker generates its problems one at a time, hands them to
the same :class:`~paintkit.writers.base.Writer` a local run uses (so every byte is the same),
and sends back a :class:`UnitResult`: the path, size and SHA-256 of each finished file (a few
hundred bytes per problem), never the images. On a local or shared filesystem the writer
writes in place (temporary name, then rename); for a URL it writes into a private staging
folder and each finished file is uploaded atomically (:meth:`paintkit.storage.Target.put_file`).

Units are pure functions of ``(suite, start, stop, layout)``: a unit Ray runs again after a
node died writes the same names with the same bytes.
"""

from __future__ import annotations

import io
import os
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from paintkit.attempts import slot_seconds
from paintkit.engines.work import WorkOptions
from paintkit.storage import Target
from paintkit.suites import ProblemSuite, build_problem
from paintkit.writers import make_writer
from paintkit.writers.dataset_card import shard_references
from paintkit.writers.directory import DirectoryWriter
from paintkit.writers.record import FileRecord, encode_problem
from paintkit.writers.shards import ShardWriter


@dataclass(frozen=True)
class Layout:
    """What decides the file names: the format, problems per shard, SVG files (directory),
    the shard count of an even split (``shards``, see :mod:`paintkit.writers.shards`), the
    held-out fraction (``held_out``, :mod:`paintkit.writers.splits`; None: the format's)."""

    format: str
    shard_size: int
    svg: bool = False
    shards: int | None = None
    held_out: float | None = None

    def writer(self, root, suite: ProblemSuite):
        return make_writer(self.format, root, suite, self.shard_size, svg=self.svg,
                           shards=self.shards, held_out=self.held_out)


@dataclass(frozen=True)
class UnitResult:
    """What a worker returns for problems ``start .. stop-1``: their files' records."""

    start: int
    stop: int
    files: tuple[FileRecord, ...]
    generated: bool  # False: the files were there already (a resumed run), only hashed
    #: Reference images a kept problem's JSON lists that are not there (made again).
    missing: tuple[str, ...] = ()
    #: The most reference images a problem of the unit's shards has, for a shard corpus at a
    #: URL (its dataset card lists them; a local corpus's card reads its shards).
    references: int = 0


def workers_can_write(writer) -> bool:
    """Whether workers can write ``writer``'s files unit by unit: the directory layout and
    the shard formats (other formats are written by the driver, in one place)."""
    return isinstance(writer, (DirectoryWriter, ShardWriter))


def units(writer, suite_len: int, unit_size: int) -> list[tuple[int, int]]:
    """The ``(start, stop)`` ranges of a run: one per shard, or ``unit_size`` problems."""
    if isinstance(writer, ShardWriter):
        return [writer.shard_range(k) for k in range(writer.shards)] if suite_len else []
    return [(a, min(a + unit_size, suite_len)) for a in range(0, suite_len, unit_size)]


def expected_files(writer, start: int, stop: int) -> list[str]:
    """Relative paths of the files problems ``start .. stop-1`` complete, in manifest order."""
    if isinstance(writer, ShardWriter):
        return writer.shard_names(writer.shard_of(start))
    return [writer._stem_path(i) + suffix for i in range(start, stop) for suffix in writer.suffixes]


def write_unit(suite: ProblemSuite, start: int, stop: int, layout: Layout, target: Target,
               options: WorkOptions) -> UnitResult:
    """Generate problems ``start .. stop-1`` and store their files under ``target``."""
    if target.local:
        return UnitResult(start, stop, tuple(_write(suite, start, stop, layout,
                                                    target.local_root, options)), True)
    with tempfile.TemporaryDirectory(prefix="paintkit-unit-") as staging:
        records = _write(suite, start, stop, layout, Path(staging), options)
        references = _shard_references(layout.writer(staging, suite), {
            record.path: Path(staging) / record.path for record in records})
        for record in records:
            target.put_file(record.path, Path(staging) / record.path)
    return UnitResult(start, stop, tuple(records), True, references=references)


def _shard_references(writer, shards: dict[str, bytes | Path]) -> int:
    """The most reference images a problem of these shard files (their bytes, or a local
    path) has; 0 for formats without a dataset card."""
    if not isinstance(writer, ShardWriter) or writer.format not in ("parquet", "webdataset"):
        return 0
    most, names = 0, set(writer.shard_files())
    for name, data in shards.items():
        if name not in names:
            continue
        try:
            with open(data, "rb") if isinstance(data, Path) else io.BytesIO(data) as fh:
                most = max(most, shard_references(fh, writer.format))
        except (OSError, ValueError, tarfile.TarError):  # damaged: checked, and made again
            continue
    return most


def _write(suite, start, stop, layout: Layout, root: Path, options: WorkOptions) -> list[FileRecord]:
    writer = layout.writer(root, suite)
    records: list[FileRecord] = []
    try:
        with slot_seconds(options.slot_seconds):
            for index in range(start, stop):
                spec = suite.spec(index)
                problem = build_problem(suite, spec)
                records += writer.write(encode_problem(
                    spec, problem, png_encoder=options.png_encoder,
                    json_indent=writer.json_indent, svg=options.svg))
        records += writer.close()
    except BaseException:
        writer.abort()
        raise
    return records


def hash_unit(suite: ProblemSuite, start: int, stop: int, layout: Layout,
              target: Target) -> UnitResult:
    """The records of a unit whose files already exist (a resumed run), read where they are."""
    writer = layout.writer(target.path, suite)
    names = expected_files(writer, start, stop)
    optional: set[str] = set()  # reference images: listed by each problem's JSON
    if isinstance(writer, DirectoryWriter):
        names = []
        for index in range(start, stop):
            required = expected_files(writer, index, index + 1)
            metadata = target.read_bytes(required[-1])
            stored = required if metadata is None else writer.stored_names(index, metadata)
            optional.update(set(stored) - set(required))
            names += stored
    records, missing, references = [], [], 0
    for name in names:
        if target.local and os.path.isfile(target.location(name)):  # streamed, not loaded
            records.append(FileRecord.of_file(target.local_root, name))
            continue
        data = target.read_bytes(name)
        if data is None and name in optional:
            missing.append(name)
            continue
        if data is None:
            raise FileNotFoundError(f"{target.display(name)}: disappeared during the run; "
                                    "run the same command again to regenerate it")
        records.append(FileRecord.of_bytes(name, data))
        references = max(references, _shard_references(writer, {name: data}))
    return UnitResult(start, stop, tuple(records), False, tuple(missing), references)


def shard_plan(problems: int, world_size: int, shard_size: int) -> tuple[int, int | None]:
    """``(shard_size, shards)`` of the fewest shards, a multiple of ``world_size`` in number
    (every training rank reads as many), of at most ``shard_size`` problems each.

    Where contiguous shards of one size (all but the last) make exactly that count, they
    are kept (``shards`` None); otherwise the problems are split evenly into ``shards``
    shards whose sizes differ by at most one (:mod:`paintkit.writers.shards`).

    >>> shard_plan(120_000, 64, 2000)
    (1875, None)
    >>> shard_plan(1056, 8, 1000)  # PaintBench on 8 ranks
    (132, None)
    >>> shard_plan(1056, 64, 1000)  # 64 shards of 16 or 17: no single size gives 64
    (17, 64)

    Raises ``ValueError`` when that count exceeds the problems (a shard would be empty: fewer
    problems than ranks, or ``shard_size`` too small).
    """
    for name, value in (("problems", problems), ("world_size", world_size),
                        ("shard_size", shard_size)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    fewest = -(-problems // shard_size)  # ceil: shards of at most shard_size problems
    count = world_size * -(-fewest // world_size)  # rounded up to a multiple of world_size
    if count > problems:
        raise ValueError(f"{problems} problems cannot fill {count} shards (a multiple of world "
                         f"size {world_size} of at most {shard_size} problems each): some would "
                         "be empty; change the suite size, the world size or --shard-size")
    size = -(-problems // count)
    if -(-problems // size) == count:
        return size, None
    return size, count

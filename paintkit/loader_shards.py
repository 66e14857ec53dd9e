"""The shard sets :func:`paintkit.load` opens: ``shard-NNNNNN.tar`` (WebDataset) and
``shard-NNNNNN.parquet`` files of ``paintkit generate --format``.

Each problem's metadata is read at once, its images (and reference images, whose roles its
metadata lists: ``KEY.reference_<n>.png`` members, the ``references`` Parquet column) when
asked for. A shard that cannot be
read (truncated, empty, not a tar or Parquet file), a problem JSON that is not an object and
two problems with one key (in one shard or in two) are each one line naming the shard
(:class:`~paintkit.layout.errors.LayoutError`), never a traceback, and never a key yielded
twice.
"""

from __future__ import annotations

import tarfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast
from zlib import error as zlib_error

from paintkit.io.jsonl import parse_json
from paintkit.layout.benchmark import reference_roles
from paintkit.layout.errors import LayoutError
from paintkit.layout.shard_members import (
    ANSWER_FIELD,
    INPUT_FIELD,
    METADATA_FIELD,
    REFERENCES_COLUMN,
    reference_field,
)

#: Makes one item: ``LoadedProblem(key, benchmark, task, idx, _read=..., shard=...)``
#: (:class:`paintkit.loader.LoadedProblem`, handed in so this module needs no loader).
Make = Callable[..., Any]

__all__ = ["DuplicateKeyError", "shard_set"]


def _png(data: bytes) -> Any:
    from paintkit.io.images import load_rgb  # imagecodecs, pillow

    return load_rgb(data)


def _tar_slice(shard: Path, member: tarfile.TarInfo | None,
               decode: Callable[[bytes], Any]) -> Callable[[], Any]:
    """A reader of one member of an uncompressed tar: a seek to its data, no header scan."""
    def read() -> Any:
        if member is None:
            return None
        with open(shard, "rb") as fh:
            fh.seek(member.offset_data)
            return decode(fh.read(member.size))

    return read


class DuplicateKeyError(LayoutError):
    """Two problems of a shard set have one key (``duplicates``: ``(key, first shard,
    other shard)`` of each)."""

    def __init__(self, root: Path, duplicates: list[tuple[str, str, str]]):
        self.root, self.duplicates = root, duplicates
        key, first, other = duplicates[0]
        more = f" (and {len(duplicates) - 1:,} more)" if len(duplicates) > 1 else ""
        super().__init__(f"{root}: problem {key} is in both {first} and {other}{more}; a shard "
                         "set holds each problem once (regenerate it, or remove the extra shard)")

    def __reduce__(self):  # crosses process boundaries (a data loader's workers)
        return type(self), (self.root, self.duplicates), self.__dict__


def _shard_meta(shard: Path, where: str, raw: bytes | str) -> dict:
    """A problem's JSON read from a shard: an object, or one line naming the shard."""
    try:
        meta = parse_json(raw)
    except ValueError as exc:
        raise LayoutError(f"{shard}: {where}: not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise LayoutError(f"{shard}: {where}: expected a JSON object, got "
                          f"{type(meta).__name__}")
    return meta


def _shard_error(shard: Path, exc: BaseException) -> LayoutError:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return LayoutError(f"{shard}: not a readable shard ({reason}); generate it again "
                       "('paintkit generate' with the same options regenerates a damaged shard)")


def _tar_references(shard: Path, members: dict[str, tarfile.TarInfo], key: str,
                    roles: tuple[str, ...]) -> Callable[[], tuple]:
    """A reader of a tar problem's ``((role, image), ...)``: ``KEY.reference_<n>.png``."""
    def read() -> tuple:
        out = []
        for n, role in enumerate(roles, 1):
            name = f"{key}.{reference_field(n)}"
            if name not in members:
                raise LayoutError(f"{shard}: member {name} missing (the problem's metadata "
                                  f"lists {len(roles)} reference images)")
            out.append((role, _tar_slice(shard, members[name], _png)()))
        return tuple(out)

    return read


def _webdataset(shards: list[Path], make: Make) -> list[Any]:
    """Each shard's headers are read once; its metadata now, its images when asked for."""
    items = []
    for shard in shards:
        try:
            with tarfile.open(shard) as tar:
                listed = [m for m in tar.getmembers() if m.isfile()]
                metas = [(m.name, tar.extractfile(m).read())  # type: ignore[union-attr]
                         for m in listed if m.name.endswith(f".{METADATA_FIELD}")]
        except (tarfile.TarError, OSError, EOFError, zlib_error) as exc:
            raise _shard_error(shard, exc) from None
        members = {m.name: m for m in listed}
        for name, raw in metas:
            key = name[:-len(f".{METADATA_FIELD}")]
            meta = _shard_meta(shard, f"member {name}", raw)
            roles = reference_roles(meta, f"{shard}: member {name}")
            items.append(make(key, meta.get("benchmark"), meta.get("task"),
                                       meta.get("idx"), _read={
                "input": _tar_slice(shard, members.get(f"{key}.{INPUT_FIELD}"), _png),
                "answer": _tar_slice(shard, members.get(f"{key}.{ANSWER_FIELD}"), _png),
                "references": _tar_references(shard, members, key, roles),
                "metadata": lambda raw=raw: parse_json(raw)}, shard=shard.name))
    return items


def _parquet(shards: list[Path], make: Make) -> list[Any]:
    """Each shard's metadata column is read now; an image, from its row group when asked."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError("reading parquet shards needs pyarrow: pip install "
                         "'paintkit[shards]'") from None
    items = []
    for shard in shards:
        try:
            groups = pq.ParquetFile(shard).metadata
            where = [(g, k) for g in range(groups.num_row_groups)
                     for k in range(groups.row_group(g).num_rows)]
            texts = pq.read_table(shard, columns=["metadata"]).column("metadata").to_pylist()
            with_column = REFERENCES_COLUMN in pq.read_schema(shard).names
        except (pa.ArrowException, OSError, ValueError, KeyError) as exc:
            raise _shard_error(shard, exc) from None
        for row, text in enumerate(texts):
            meta = _shard_meta(shard, f"row {row}", text if text is not None else "null")
            roles = reference_roles(meta, f"{shard}: row {row}")
            if roles and not with_column:
                raise LayoutError(f"{shard}: row {row} lists {len(roles)} reference images "
                                  f"but the shard has no {REFERENCES_COLUMN} column")

            def cell(column: str, shard: Path = shard, at: tuple[int, int] = where[row]) -> Any:
                try:
                    group = pq.ParquetFile(shard).read_row_group(at[0], columns=[column])
                except (pa.ArrowException, OSError, ValueError, KeyError) as exc:
                    raise _shard_error(shard, exc) from None
                return group.column(column)[at[1]].as_py()

            items.append(make(
                str(meta.get("problem_id", f"{shard.name}/{row}")), meta.get("benchmark"),
                meta.get("task"), meta.get("idx"), _read={
                    "input": lambda cell=cell: _png(cell("input")["bytes"]),
                    "answer": lambda cell=cell: _png(cell("answer")["bytes"]),
                    "references": (lambda cell=cell, roles=roles, row=row, shard=shard:
                                   _parquet_references(shard, row, roles, cell)),
                    "metadata": lambda meta=meta: dict(meta)}, shard=shard.name))
    return items


def _parquet_references(shard: Path, row: int, roles: tuple[str, ...],
                        cell: Callable[[str], Any]) -> tuple:
    """A Parquet problem's ``((role, image), ...)``, from its ``references`` cell."""
    if not roles:
        return ()
    cells = cell(REFERENCES_COLUMN) or []
    if len(cells) != len(roles):
        raise LayoutError(f"{shard}: row {row} has {len(cells)} reference images, its "
                          f"metadata lists {len(roles)}")
    return tuple((role, _png(entry["image"]["bytes"])) for role, entry in zip(roles, cells, strict=True))


def shard_set(root: Path, tasks: Sequence[str] | None, make: Make) -> list[Any]:
    """The problems of a folder of shards, each key once (:class:`DuplicateKeyError`), of
    ``tasks`` when given (``ValueError`` for a task none of them has)."""
    tars, parquets = sorted(root.glob("shard-*.tar")), sorted(root.glob("shard-*.parquet"))
    if not tars and not parquets:
        raise ValueError(f"{root}: no shard-*.tar or shard-*.parquet files")
    items = _webdataset(tars, make) if tars else _parquet(parquets, make)
    first: dict[str, str] = {}
    duplicates = []
    for item in items:
        shard = cast(str, item.shard)
        if item.key in first:
            duplicates.append((item.key, first[item.key], shard))
        else:
            first[item.key] = shard
    if duplicates:
        raise DuplicateKeyError(root, duplicates)
    if tasks is not None:
        wanted, present = list(tasks), {item.task for item in items}
        unknown = [t for t in wanted if t not in present]
        if unknown:
            here = ", ".join(sorted(str(t) for t in present if t is not None))
            raise LayoutError(f"{root}: no problem of task {', '.join(map(str, unknown))} in "
                              f"these shards (tasks here: {here or 'none'})")
        items = [item for item in items if item.task in wanted]
    return items

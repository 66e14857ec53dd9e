"""``problem_stats.jsonl``: one row per (model, benchmark, task, idx), resumable after a crash.

Rows are appended and flushed one line at a time while a run holds the folder's lock
(:data:`~paintkit.layout.results.EVAL_LOCK_NAME`), so two runs never write into one file.
When a run starts, :func:`load_results` reads the file under the ``repair`` policy
(:mod:`paintkit.layout.readers`) and keeps one row per key (the last one); a partial last
line (a crash mid-write), a damaged line in the middle, a ``{}`` line or anything else that
is not a row is dropped and reported, and the file is rewritten atomically without them
before anything is appended. The file is valid JSON Lines with unique keys after every run,
whatever happened to the one before.

Besides the standard fields each row written by paintkit holds ``output_file``: the
``bytes`` and ``mtime_ns`` of the output file that was scored (``null`` when there was
none), so a later run rescores an output that appeared or changed since.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from paintkit.io.atomic import atomic_open
from paintkit.layout.errors import LayoutError
from paintkit.layout.readers import REPAIR, keyed_rows, read_jsonl
from paintkit.layout.rows import RowKey

_KEY_TYPES = (("model", str), ("benchmark", str), ("task", str), ("idx", int))


def check_stored_row(row, where: str = "") -> None:
    """Refuse (``ValueError("not a result row")``) what cannot be a row this file keeps:
    key fields of the wrong type, no ``output`` object, no boolean ``has_output``."""
    valid = isinstance(row, dict) and all(
        isinstance(row.get(name), kind) and not isinstance(row.get(name), bool)
        for name, kind in _KEY_TYPES) and isinstance(row.get("output"), dict) \
        and isinstance(row.get("has_output"), bool)
    if not valid:
        raise ValueError("not a result row")


@dataclass
class LoadedResults:
    """The rows of a results file, one per key in file order, and what was wrong with it."""

    rows: dict[RowKey, dict] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # "line 7: not JSON", ...
    duplicates: int = 0

    @property
    def needs_rewrite(self) -> bool:
        return bool(self.problems or self.duplicates)

    def describe(self, path: Path) -> str:
        parts = []
        if self.problems:
            shown = "; ".join(self.problems[:3]) + (" ..." if len(self.problems) > 3 else "")
            parts.append(f"dropped {len(self.problems)} damaged line(s) ({shown})")
        if self.duplicates:
            parts.append(f"kept the last of {self.duplicates} duplicate row(s)")
        return f"{path}: {' and '.join(parts)}; those problems are scored again if needed"


def load_results(path) -> LoadedResults:
    """Read ``path`` (missing: empty) without changing it; see the module docstring.

    Raises:
        LayoutError: ``path`` is not a regular file, or cannot be read.
    """
    path = Path(path)
    if not path.exists():
        return LoadedResults()
    if not path.is_file():  # a FIFO would block the read, a folder cannot be rewritten
        raise LayoutError(f"{path}: not a regular file; remove it or choose another --results folder")
    read = read_jsonl(path, REPAIR, check_stored_row)
    rows, duplicates = keyed_rows(read)
    return LoadedResults(rows, [d.short() for d in read.damaged], duplicates)


def read_rows(path) -> list[dict]:
    """The valid rows of a results file, one per key (read only; nothing is repaired)."""
    return list(load_results(path).rows.values())


def remove_stale_temporaries(path) -> int:
    """Remove ``.problem_stats.jsonl.*.tmp`` left by a run killed during a rewrite (call
    with the folder's lock held); returns how many."""
    path = Path(path)
    removed = 0
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        stale.unlink(missing_ok=True)
        removed += 1
    return removed


def _line(row: dict) -> str:
    return json.dumps(row) + "\n"


class ResultsWriter:
    """Appends rows to ``problem_stats.jsonl``, one flushed line each.

    ``keep``: when given, the file is first rewritten atomically with exactly these rows
    (repairs, ``--overwrite``, rescored problems); the caller holds the folder's lock.
    """

    def __init__(self, path, keep: list[dict] | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._failed = False
        if keep is not None:
            with atomic_open(self.path, "w", encoding="utf-8") as fh:
                fh.writelines(_line(row) for row in keep)
        self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def write(self, row: dict) -> None:
        try:
            self._fh.write(_line(row))
            self._fh.flush()
        except OSError as exc:  # a full disk: one line naming the file (rows so far are kept)
            self._failed = True
            raise OSError(exc.errno, exc.strerror or str(exc), str(self.path)) from exc

    def close(self) -> None:
        try:
            self._fh.close()
        except OSError:
            if not self._failed:  # else the write's error is the one
                raise

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

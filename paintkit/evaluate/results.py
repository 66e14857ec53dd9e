"""``problem_stats.jsonl``: one row per (model, benchmark, task, idx), resumable after a crash.

Rows are appended and flushed one line at a time while a run holds the folder's lock
(:data:`LOCK_NAME`), so two runs never write into one file. When a run starts,
:func:`load_results` reads the file and keeps one row per key (the last one); a partial
last line (a crash mid-write), a damaged line in the middle, a ``{}`` line or anything else
that is not a row is dropped and reported, and the file is rewritten atomically without
them before anything is appended. The file is valid JSON Lines with unique keys after
every run, whatever happened to the one before.

Besides the standard fields each row written here holds ``output_file``: the ``bytes`` and
``mtime_ns`` of the output file that was scored (``null`` when there was none), so a later
run rescores an output that appeared or changed since.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from paintkit.io.atomic import atomic_open
from paintkit.io.jsonl import parse_json

RESULTS_NAME = "problem_stats.jsonl"
LOCK_NAME = ".paintkit-eval.lock"
_KEY_FIELDS = (("model", str), ("benchmark", str), ("task", str), ("idx", int))


def row_key(row: dict) -> tuple[str, str, str, int]:
    return (row["model"], row["benchmark"], row["task"], int(row["idx"]))


def _valid_row(row) -> bool:
    return isinstance(row, dict) and all(
        isinstance(row.get(name), kind) and not isinstance(row.get(name), bool)
        for name, kind in _KEY_FIELDS) and isinstance(row.get("output"), dict) \
        and isinstance(row.get("has_output"), bool)


@dataclass
class LoadedResults:
    """The rows of a results file, one per key in file order, and what was wrong with it."""

    rows: dict = field(default_factory=dict)
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
    """Read ``path`` (missing: empty) without changing it; see the module docstring."""
    path = Path(path)
    loaded = LoadedResults()
    if not path.exists():
        return loaded
    if not path.is_file():  # a FIFO would block the read, a folder cannot be rewritten
        from paintkit.evaluate.discovery import LayoutError

        raise LayoutError(f"{path}: not a regular file; remove it or choose another --out")
    with open(path, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if number == len(lines):  # no newline after it: a write cut short
            loaded.problems.append(f"line {number}: partial last line")
            continue
        try:
            row = parse_json(raw)
        except ValueError:  # also UnicodeDecodeError and nesting too deep
            loaded.problems.append(f"line {number}: not JSON")
            continue
        if not _valid_row(row):
            loaded.problems.append(f"line {number}: not a result row")
            continue
        key = row_key(row)
        if key in loaded.rows:
            loaded.duplicates += 1
            del loaded.rows[key]  # the later row wins, in its own position
        loaded.rows[key] = row
    return loaded


def remove_stale_temporaries(path) -> int:
    """Remove ``.problem_stats.jsonl.*.tmp`` left by a run killed during a rewrite (call
    with the folder's lock held); returns how many."""
    path = Path(path)
    removed = 0
    for stale in path.parent.glob(f".{path.name}.*.tmp"):
        stale.unlink(missing_ok=True)
        removed += 1
    return removed


def read_rows(path) -> list[dict]:
    """The valid rows of a results file, one per key (read only; nothing is repaired)."""
    return list(load_results(path).rows.values())


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
            if not getattr(self, "_failed", False):  # else the write's error is the one
                raise

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

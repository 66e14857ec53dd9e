"""``problem_stats.jsonl``: append-only, flushed per row, resumable after a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

from paintkit.io.atomic import atomic_open

RESULTS_NAME = "problem_stats.jsonl"


def row_key(row: dict) -> tuple[str, str, str, int]:
    return (row["model"], row["benchmark"], row["task"], int(row["idx"]))


def _repair_tail(path: Path) -> None:
    # A run killed mid-write can leave a partial last line: drop it so appends stay valid.
    with open(path, "rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        fh.seek(0)
        data = fh.read()
        fh.truncate(data.rfind(b"\n") + 1)


def read_rows(path) -> list[dict]:
    """All complete rows of a results file (a partial last line is dropped)."""
    path = Path(path)
    if not path.exists():
        return []
    _repair_tail(path)
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    continue  # a damaged line is rescored, not fatal
    return rows


class ResultsWriter:
    """Appends rows to ``problem_stats.jsonl``, one flushed line each.

    ``drop``: keys whose existing rows are removed first (``--overwrite``); the rewrite is
    atomic, and rows of other problems are kept.
    """

    def __init__(self, path, drop: set | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if drop and self.path.exists():
            kept = [r for r in read_rows(self.path) if row_key(r) not in drop]
            with atomic_open(self.path, "w", encoding="utf-8") as fh:
                for row in kept:
                    fh.write(json.dumps(row) + "\n")
        elif self.path.exists():
            _repair_tail(self.path)
        self._fh = open(self.path, "a", encoding="utf-8")

    def write(self, row: dict) -> None:
        self._fh.write(json.dumps(row) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

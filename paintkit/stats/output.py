"""Writing stats rows: JSON Lines, atomically (a temporary file, then a rename)."""

from __future__ import annotations

from paintkit.io.atomic import atomic_open
from paintkit.io.jsonl import dumps_finite


def write_jsonl(path, rows: list[dict]) -> None:
    """One JSON object per line, keys in insertion order; the file appears complete or not at
    all. A NaN or infinite figure is written as ``null`` (standard JSON has no NaN)."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(dumps_finite(row) + "\n")

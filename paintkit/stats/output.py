"""Writing stats rows: JSON Lines, atomically (a temporary file, then a rename)."""

from __future__ import annotations

import json

from paintkit.io.atomic import atomic_open


def write_jsonl(path, rows: list[dict]) -> None:
    """One JSON object per line, keys in insertion order; the file appears complete or not at all."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, allow_nan=True) + "\n")

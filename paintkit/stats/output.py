"""Writing stats rows: JSON Lines, atomically (a temporary file, then a rename)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from paintkit._version import __version__
from paintkit.io.atomic import atomic_open, write_text_atomic
from paintkit.io.jsonl import dumps_finite
from paintkit.layout.results import AGGREGATE_NAME, COMPARISONS_NAME, aggregate_path, provenance_path

__all__ = ["AGGREGATE_NAME", "COMPARISONS_NAME", "default_output", "provenance_path",
           "write_jsonl", "write_provenance"]


def write_jsonl(path, rows: list[dict]) -> None:
    """One JSON object per line, keys in insertion order; the file appears complete or not at
    all. A NaN or infinite figure is written as ``null`` (standard JSON has no NaN)."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(dumps_finite(row) + "\n")


def default_output(input_path) -> Path:
    """``aggregate_stats.jsonl`` in the results folder of ``input_path`` (the folder, or the
    folder holding the given ``problem_stats.jsonl``): where ``paintkit report`` reads it."""
    return aggregate_path(input_path)


def write_provenance(output, *, n_boot: int | None, seed: int, delta_e: str,
                     command: str | None = None, subset: dict | None = None) -> None:
    """Record beside ``output`` how it was computed (the report's provenance block):
    paintkit version, bootstrap B (None: no CI) and seed, ΔE formula, date, command line,
    and the subset the rows cover (``{"file", "problems", "of"}``), if any."""
    data = {"paintkit_version": __version__, "n_boot": n_boot, "seed": seed,
            "delta_e": delta_e,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": command, "subset": subset}
    write_text_atomic(provenance_path(output), json.dumps(data, indent=1) + "\n")

"""Helpers shared by the writer, engine and stream tests: a small suite and a tree digest."""

import hashlib
import os
from pathlib import Path

from paintkit.suites import Suite


def small_suite(**kwargs) -> Suite:
    """translation + removal (+ preservation) under 2 conditions, 2 per cell: 12 problems."""
    return Suite(**{"tasks": ("translation", "removal"), "conditions": ("baseline", "horizontal"),
                    "per_cell": 2, "namespace": "writers", **kwargs})


def tree_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` by relative path (hidden files included)."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out

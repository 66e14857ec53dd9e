"""A benchmark tree whose problems carry reference images, written by hand (PNGs and
metadata in the layout of docs/file-layout.md), for the run tests.

``References/guided``: problem 000 has no references (a one-image problem, no
``references`` key), 001 one (``style``), 002 two (``style``, ``layout``; the layout image of
another size than the input). Every image is a different pattern, so a test can tell which
one a model got.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from paintkit.io.images import write_png
from paintkit.layout.problem_files import answer_name, input_name, metadata_name, reference_name

ROLES = {0: (), 1: ("style",), 2: ("style", "layout")}
WIDTH, HEIGHT = 40, 32


def pattern(seed: int, width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """uint8 ``(height, width, 3)`` noise of ``seed``."""
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


def reference_pixels(idx: int, n: int) -> np.ndarray:
    """Reference ``n`` (1-based) of problem ``idx``: the second of 002 is 48x24."""
    return pattern(100 * idx + n, *((48, 24) if (idx, n) == (2, 2) else (WIDTH, HEIGHT)))


def write_reference_tree(root: Path) -> Path:
    """Write ``<root>/References/guided/`` and return ``root``."""
    folder = root / "References" / "guided"
    folder.mkdir(parents=True)
    for idx, roles in ROLES.items():
        stem = f"{idx:03d}"
        write_png(folder / input_name(stem), pattern(idx))
        write_png(folder / answer_name(stem), 255 - pattern(idx))
        for n in range(1, len(roles) + 1):
            write_png(folder / reference_name(stem, n), reference_pixels(idx, n))
        meta = {"instruction": f"guided edit {idx}", "task": "guided", "mode": "default",
                "problem_id": f"references-guided-baseline-default-{idx:06d}"}
        if roles:
            meta["references"] = [{"role": role} for role in roles]
        (folder / metadata_name(stem)).write_text(json.dumps(meta), encoding="utf-8")
    return root

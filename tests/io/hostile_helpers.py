"""Helpers of the hostile-input tests (a module name no other test folder uses)."""

from __future__ import annotations

from pathlib import Path

from paintkit.evaluate.synthetic import write_synthetic_tree


def small_tree(root: Path, problems: int = 4, models=("exact", "noisy")):
    """A synthetic benchmark (2 tasks, 12x12 images) and exact outputs of ``models``:
    ``(benchmarks root, outputs root)``."""
    return write_synthetic_tree(root, problems=problems, tasks=2, width=12, height=12,
                                models=models, missing_every=0, corrupt_every=0,
                                resized_every=0)

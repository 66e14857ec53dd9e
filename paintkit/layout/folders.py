"""Listing folders the same way in every tree: hidden entries skipped, sorted, a clear error."""

from __future__ import annotations

from pathlib import Path

from paintkit.layout.errors import LayoutError


def visible_dirs(folder: Path) -> list[Path]:
    """The sub-folders of ``folder`` whose names do not start with a dot, sorted.

    Raises:
        LayoutError: the folder cannot be listed.
    """
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError as exc:
        raise LayoutError(f"{folder}: cannot list folder: {exc.strerror or exc}") from None

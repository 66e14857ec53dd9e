"""A benchmark copy's own ``manifest.json`` as ``paintkit verify`` reads it: never trusted.

The manifest is read with paintkit's checked JSON reader (a document nested 100,000 deep is
one line, not a ``RecursionError``) and must be a complete paintkit manifest. Each entry of
its ``files`` is checked before anything is opened: an entry that is not an object, a path
that leaves the tree (``../``, absolute) or passes through a symbolic link is one line of the
verdict, and its file is never read, so a manifest cannot make ``verify`` tell whether a file
outside the tree exists or what it holds.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from paintkit.errors import one_line
from paintkit.io.jsonl import parse_json
from paintkit.stats.results_file import MANIFEST_FILE_NAME
from paintkit.verify.verdict import Verdict
from paintkit.writers.previous import safe_relative

__all__ = ["drop_unreadable_entries", "names_in", "read_tree_manifest", "suite_of"]


def read_tree_manifest(tree_root: Path) -> dict | None:
    path = tree_root / MANIFEST_FILE_NAME
    if not path.is_file():
        return None
    try:
        manifest = parse_json(path.read_text(encoding="utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError(f"a JSON {type(manifest).__name__}, not an object")
        if not isinstance(manifest.get("files"), dict) or not manifest.get("complete"):
            raise ValueError("incomplete (the generation did not finish)")
        if not isinstance(manifest.get("suite", {}), dict):
            raise ValueError("its 'suite' is not an object")
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a complete paintkit manifest ({one_line(exc)}); remove "
                         "it to check the copy against the release alone") from None
    return manifest


def _entry_problem(root: Path, name: str, entry) -> str | None:
    """Why the manifest entry ``name`` is not checked (read), or None when it may be: an
    entry that is not an object, a path that leaves the tree (``../``, absolute) or passes
    through a symbolic link (the link or a folder on the way) is never opened."""
    if not isinstance(entry, dict):
        return f"its entry is a JSON {type(entry).__name__}, not an object (not checked)"
    if not safe_relative(name):
        return "the path leaves the tree (not read)"
    folder = root
    for part in name.split("/"):
        folder = folder / part
        try:
            if stat.S_ISLNK(os.lstat(folder).st_mode):
                return "a symbolic link (not followed)"
        except OSError:  # missing: reported as missing
            return None
    return None


def drop_unreadable_entries(root: Path, manifest: dict, verdict: Verdict) -> None:
    """Drop from ``manifest["files"]`` every entry that must not be read, with one line
    each in ``verdict`` (see :func:`_entry_problem`)."""
    kept = {}
    for name, entry in manifest["files"].items():
        why = _entry_problem(root, name, entry)
        if why is None:
            kept[name] = entry
            continue
        verdict.checked += 1
        verdict.differs.append(f"{MANIFEST_FILE_NAME}: {one_line(repr(name))[:200]}: {why}")
    manifest["files"] = kept


def suite_of(manifest: dict | None, benchmark: str) -> dict | None:
    suite = (manifest or {}).get("suite") or {}
    parts = suite.get("parts") if isinstance(suite, dict) else None
    for part in [suite, *(parts if isinstance(parts, list) else [])]:
        if isinstance(part, dict) and part.get("benchmark") == benchmark:
            return part
    return None


def names_in(value) -> set[str]:
    """The strings of a manifest's list field (anything else in it is ignored)."""
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()

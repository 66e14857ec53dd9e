"""What ``--overwrite`` deletes: exactly the files the previous run wrote, never through a link.

The previous run's ``manifest.json`` lists every file it wrote (``files``, relative paths).
Those go, and nothing else: a file someone put beside them survives, whatever its name or
folder. A run that stopped before its end leaves an incomplete manifest, which may miss the
last files it renamed into place; for such a manifest the files named as that layout names
them (``shard-NNNNNN.tar`` of a WebDataset folder, ``NNN_input.png`` in a benchmark's task
folder, ...) go too. A listed path that leaves the folder (``../``, absolute) or passes
through a symbolic link (a linked ``data/`` folder) is never followed, and a path that is
itself a link, a folder or anything but a regular file is left alone. Folders emptied by the
removal are removed (never the output folder itself).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from paintkit.layout.problem_files import parse_problem_file

__all__ = ["previous_files", "remove_previous_local", "safe_relative"]

_SHARD = re.compile(r"shard-\d{6}\.(tar|parquet)")
_TRAINER_FILES = ("train_metadata.jsonl", "test_metadata.jsonl", "train.jsonl", "test.jsonl")


def safe_relative(name: object) -> bool:
    """Whether ``name`` is a relative path that stays in its folder (no ``..``, no absolute
    path, no empty or ``.`` part, no backslash or NUL)."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    parts = name.split("/")
    return not name.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _benchmarks(manifest: dict) -> set[str]:
    suite = manifest.get("suite") if isinstance(manifest.get("suite"), dict) else {}
    parts = suite.get("parts") if isinstance(suite.get("parts"), list) else [suite]
    return {str(p.get("benchmark")) for p in parts if isinstance(p, dict) and p.get("benchmark")}


def _layout_names(manifest: dict, name: str) -> bool:
    """Whether ``name`` is named the way the manifest's layout names its files."""
    layout = manifest.get("layout") if isinstance(manifest.get("layout"), dict) else {}
    fmt, parts = layout.get("format"), name.split("/")
    if fmt in ("webdataset", "parquet", "verl-omni"):
        return len(parts) == 1 and bool(_SHARD.fullmatch(name))
    if fmt == "pix2pix":
        return len(parts) == 2 and parts[0] == "data" and bool(_SHARD.fullmatch(parts[1]))
    if fmt in ("flow-grpo", "flow-factory"):
        return name in _TRAINER_FILES or (parts[0] == "images" and len(parts) >= 2
                                          and parse_problem_file(parts[-1]) is not None)
    if fmt == "directory":
        return len(parts) >= 3 and parts[0] in _benchmarks(manifest) \
            and parse_problem_file(parts[-1]) is not None
    return False


def previous_files(manifest: dict, present: set[str] | None = None) -> list[str]:
    """The relative paths ``--overwrite`` removes (see the module docstring), sorted:
    the manifest's listed files and, for an incomplete manifest, the files of ``present``
    (what the folder holds) named as its layout names them."""
    files = manifest.get("files")
    names = {n for n in files if safe_relative(n)} if isinstance(files, dict) else set()
    if not manifest.get("complete") and present:
        names |= {n for n in present if safe_relative(n) and _layout_names(manifest, n)}
    return sorted(names)


def _through_link(root: Path, name: str) -> bool:
    """Whether a folder on the way from ``root`` to ``root / name`` is a link (or gone)."""
    folder = root
    for part in name.split("/")[:-1]:
        folder = folder / part
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return True
        except OSError:
            return True
    return False


def _present_local(root: Path) -> set[str]:
    """Every regular file under ``root``, relative, found without following links."""
    found: set[str] = set()
    for dirpath, _, names in os.walk(root):  # os.walk does not descend into linked folders
        rel = os.path.relpath(dirpath, root)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        found.update(prefix + n for n in names)
    return found


def remove_previous_local(root: Path, manifest: dict) -> list[str]:
    """Delete, under the local folder ``root``, what the run of ``manifest`` wrote; returns
    the relative paths removed."""
    root = Path(root)
    complete = bool(manifest.get("complete"))
    removed = []
    for name in previous_files(manifest, None if complete else _present_local(root)):
        path = root / name
        if _through_link(root, name):
            continue
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            os.unlink(path)
        except FileNotFoundError:
            continue
        removed.append(name)
    folders = {str(Path(n).parent) for n in removed if "/" in n}
    for folder in sorted(folders, key=lambda f: -f.count("/")):
        while folder not in ("", "."):
            try:
                os.rmdir(root / folder)  # only when empty; never a link (rmdir refuses it)
            except OSError:
                break
            folder = os.path.dirname(folder)
    return removed

"""What ``paintkit bench`` reads of its folders: fingerprints of files and trees (a step is
skipped when they are unchanged), and the results rows of models a config no longer scores."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from paintkit.io.atomic import atomic_open
from paintkit.io.jsonl import parse_json


def _entry(path: Path) -> str:
    """``size|mtime`` of the file at ``path``; for a link that leads nowhere (dangling, a
    loop) ``link|<target>``, so it fingerprints like any other entry (eval scores its
    output as missing) instead of stopping the step."""
    try:
        st = path.stat()
    except OSError:
        try:
            return f"link|{os.readlink(path)}"
        except OSError as exc:
            return f"unreadable|{exc.errno}"
    return f"{st.st_size}|{st.st_mtime_ns}"


def tree_fingerprint(root) -> str:
    """SHA-256 over (relative path, size, mtime) of ``root`` (a file) or of every file under
    it ("" if absent); a dangling or looping link counts by its target."""
    root = Path(root)
    if not root.exists():
        return ""
    digest = hashlib.sha256()
    if root.is_file():
        digest.update(f"{root.name}|{_entry(root)}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            digest.update(f"{path.relative_to(root)}|{_entry(path)}\n".encode(
                "utf-8", "surrogateescape"))
    return digest.hexdigest()


def drop_rows_of_other_models(stats_file: Path, keep: set[str]) -> int:
    """Rewrite ``stats_file`` without the rows of models outside ``keep`` (scored for an
    earlier config: a baseline dropped since), so stats and the report rank only the
    models of this config; returns how many rows went. Lines that do not parse stay (eval
    repairs them); a file with nothing to drop is left untouched. Streams: two passes."""
    def other(line: str) -> bool:
        try:
            row = parse_json(line)
        except ValueError:
            return False
        return isinstance(row, dict) and isinstance(row.get("model"), str) \
            and row["model"] not in keep

    if not stats_file.is_file():
        return 0
    with open(stats_file, encoding="utf-8", errors="surrogateescape") as fh:
        dropped = sum(other(line) for line in fh)
    if dropped:
        with open(stats_file, encoding="utf-8", errors="surrogateescape") as src, \
                atomic_open(stats_file, "w", encoding="utf-8", errors="surrogateescape") as dst:
            dst.writelines(line for line in src if not other(line))
    return dropped

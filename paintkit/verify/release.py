"""The release's content hashes: what the released PaintBench and TinyGrafixBench hold.

``release_hashes.json`` (shipped with the package) lists, for each problem of the default
trees ``paintkit generate paintbench`` and ``paintkit generate tinygrafixbench`` write, the
hashes of its three parts, keyed ``"<task>/<NNN>"`` under the benchmark's name::

    {"format": 1, "paintkit_version": "0.4.0",
     "benchmarks": {"PaintBench": {"suite": {...}, "problems": {
         "blending/000": "<input> <answer> <metadata>", ...}}, "TinyGrafixBench": {...}}}

A part's hash is the first :data:`DIGITS` hex digits of the SHA-256 of its *content*, not of
its file: the decoded pixels (uint8 ``(H, W, 3)``, C order, after ``b"<H>x<W>x3:"``) and
the metadata as canonical JSON (sorted keys, no spaces, UTF-8). A copy re-encoded by another
PNG writer or re-indented still matches; a changed pixel or field does not. 64 bits a part:
no accidental change goes unseen, and forging an edit that keeps a part's hash takes about
2^64 SHA-256 evaluations.

The file is written by ``python bench/release_hashes.py --write`` from freshly generated
default trees (``tests/api/test_release_hashes.py`` regenerates a sample and compares).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from paintkit.io.images import load_rgb
from paintkit.layout.benchmark import read_metadata_file
from paintkit.layout.problem_files import (
    ANSWER,
    INPUT,
    METADATA,
    answer_name,
    input_name,
    metadata_name,
    parse_problem_file,
)
from paintkit.layout.release_list import DIGITS, FORMAT, RELEASE_FILE, read_release

__all__ = ["DIGITS", "PARTS", "RELEASE_FILE", "SUFFIX_PART", "content_hash", "problem_hashes",
           "read_release", "release_document", "release_ids", "release_places", "tree_files"]

#: Where the shipped list lives (package data).
#: Hex digits kept of each part's SHA-256.
#: The parts of a problem, in the order of a hash string.
PARTS = ("input", "answer", "metadata")
#: A problem file's suffix -> its part.
SUFFIX_PART = {INPUT: "input", ANSWER: "answer", METADATA: "metadata"}


def content_hash(value) -> str:
    """:data:`DIGITS` hex digits of the SHA-256 of an image's pixels (uint8 ``(H, W, 3)``)
    or of a metadata dict's canonical JSON."""
    if isinstance(value, np.ndarray):
        pixels = np.ascontiguousarray(value, dtype=np.uint8)
        head = "x".join(str(n) for n in pixels.shape).encode() + b":"
        return hashlib.sha256(head + pixels.tobytes()).hexdigest()[:DIGITS]
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGITS]


def problem_hashes(folder: Path, stem: str, idx: int | None = None) -> str:
    """``"<input> <answer> <metadata>"`` of problem ``stem`` in the task folder ``folder``;
    ``idx``: hash the metadata as problem ``idx`` of its folder (a smaller tree's problem
    under the number the release gives it, matched by ``problem_id``).

    Raises:
        ImageDecodeError, LayoutError: a part that is missing or unreadable.
    """
    meta = read_metadata_file(folder / metadata_name(stem))
    if idx is not None and isinstance(meta, dict):
        meta = {**meta, "idx": idx}
    return " ".join((content_hash(load_rgb(folder / input_name(stem))),
                     content_hash(load_rgb(folder / answer_name(stem))),
                     content_hash(meta)))


def tree_files(bench_dir: Path) -> dict[str, dict[str, Path]]:
    """``{"<task>/<NNN>": {"input" | "answer" | "metadata": path}}`` of the problem files in
    a benchmark folder (hidden files and other names skipped; parts may be missing).
    Symbolic links are never followed: a linked task folder or problem file is left out
    (reported missing), so nothing outside the tree is read."""
    kinds = SUFFIX_PART
    found: dict[str, dict[str, Path]] = {}
    for task in sorted(p for p in bench_dir.iterdir() if p.is_dir() and not p.is_symlink()
                       and not p.name.startswith(".")):
        for path in sorted(task.iterdir()):
            parsed = parse_problem_file(path.name)
            if parsed is None or parsed[1] not in kinds or path.is_symlink() or \
                    not path.is_file():
                continue
            found.setdefault(f"{task.name}/{parsed[0]}", {})[kinds[parsed[1]]] = path
    return found


def hash_chunk(chunk: list[tuple]) -> list[tuple[str, str | None, str | None]]:
    """``(key, hashes or None, error or None)`` of each ``(task folder, stem)`` or
    ``(task folder, stem, release key)`` (a worker's share of a tree): keyed ``<task>/<stem>``
    or by the release key given, whose number the metadata is hashed under."""
    out = []
    for folder, stem, *release in chunk:
        key = release[0] if release else f"{Path(folder).name}/{stem}"
        idx = int(key.split("/")[1]) if release else None
        try:
            out.append((key, problem_hashes(Path(folder), stem, idx), None))
        except ValueError as exc:  # ImageDecodeError and LayoutError are ValueErrors
            out.append((key, None, str(exc)))
    return out


def release_document(trees: Iterable[tuple[str, Path]], version: str) -> dict:
    """The shipped list's contents for ``(benchmark name, tree root)`` pairs: each tree's
    manifest suite and every problem's hashes (one process; the script's job)."""
    benchmarks = {}
    for name, root in trees:
        manifest = json.loads((Path(root) / "manifest.json").read_text(encoding="utf-8"))
        files = tree_files(Path(root) / name)
        problems = {}
        for key in sorted(files):
            task, stem = key.split("/")
            problems[key] = problem_hashes(Path(root) / name / task, stem)
        benchmarks[name] = {"suite": manifest["suite"], "problems": problems}
    return {"format": FORMAT, "paintkit_version": version, "digits": DIGITS,
            "parts": list(PARTS), "benchmarks": benchmarks}


def write_document(doc: dict, path: Path) -> None:
    """One problem a line, so a change shows as the lines of the problems it touches."""
    head = {k: v for k, v in doc.items() if k != "benchmarks"}
    lines = ["{", *(f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()),
             ' "benchmarks": {']
    for b, (name, entry) in enumerate(doc["benchmarks"].items()):
        lines.append(f"  {json.dumps(name)}: {{")
        lines.append(f'   "suite": {json.dumps(entry["suite"], sort_keys=True)},')
        lines.append('   "problems": {')
        items = list(entry["problems"].items())
        lines += [f"    {json.dumps(k)}: {json.dumps(v)}" + ("," if i < len(items) - 1 else "")
                  for i, (k, v) in enumerate(items)]
        lines.append("   }")
        lines.append("  }" + ("," if b < len(doc["benchmarks"]) - 1 else ""))
    lines += [" }", "}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def release_places(files: dict[str, dict[str, Path]], release_ids: dict[str, str]
                    ) -> dict[str, str]:
    """``{release key: copy key}`` when every problem of a copy is a released one by its
    ``problem_id`` (a ``--per-cell``, ``--tasks`` or ``--conditions`` tree numbers them
    ``000``, ``001``, ...); {} when one is not, or no number differs."""
    places = {}
    for key, parts in files.items():
        try:
            meta = read_metadata_file(parts["metadata"])
            released = release_ids[str(meta.get("problem_id"))]
        except (KeyError, ValueError, AttributeError):
            return {}
        places[released] = key
    if len(places) != len(files) or all(k == v for k, v in places.items()):
        return {}
    return places


def release_ids(name: str, suite: dict) -> dict[str, str]:
    """``{problem_id: "<task>/<NNN>"}`` of a released benchmark (from its suite, no files)."""
    from paintkit.suites import Suite  # numba, skia: the suites
    from paintkit.tinygrafix.suite import TinyGrafixSuite  # matplotlib: the chart suite

    cls = {"PaintBench": Suite, "TinyGrafixBench": TinyGrafixSuite}.get(name)
    if cls is None:
        return {}
    made = cls.from_dict(suite)
    return {spec.problem_id: f"{spec.folder}/{spec.stem}"
            for spec in (made.spec(i) for i in range(len(made)))}

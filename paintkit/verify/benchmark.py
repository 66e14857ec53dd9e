"""``paintkit verify BENCHMARK_DIR``: a benchmark copy against the release's content hashes.

Each problem of a released benchmark (PaintBench, TinyGrafixBench) in the copy is hashed
(:mod:`paintkit.verify.release`) and compared with the list shipped with paintkit; one line
per problem that differs, is missing or is not in the release, with why:

- the copy's own ``manifest.json`` (written by ``paintkit generate``) has another hash for
  the file: it was **edited** since it was generated (or is missing, or was added);
- the manifest names **another paintkit version** than the list's (tasks changed between
  versions, CHANGELOG.md), **another namespace** (a fresh set of problems, not the
  released ones), **other settings** (conditions, sizes, counts, problems per cell) or
  charts drawn with **another matplotlib**;
- none of these: made by this version with the release's settings, yet different, which
  should not happen (reported as such).

A benchmark folder that is not a released one (``--benchmark MyBench``, a suite with
reference images) is checked against its manifest only: every file it lists, a problem's
``NNN_reference_<n>.png`` files included, by size and SHA-256. A folder of shards whose
manifest describes no released benchmark is too: each shard's hash, and each problem's
reference images (the members or column its metadata's ``references`` list calls for) read
back. A file whose bytes differ from the manifest but whose content is the
release's (a PNG re-encoded by another writer) is a note, not a difference.
"""

from __future__ import annotations

from pathlib import Path

from paintkit._version import __version__
from paintkit.layout.folders import visible_dirs
from paintkit.layout.problem_files import parse_problem_file
from paintkit.parallel import map_in_workers
from paintkit.stats.results_file import MANIFEST_FILE_NAME, file_sha256
from paintkit.verify.comparison import FILE_PART, PART_NAME, compare_problems, tree_reason
from paintkit.verify.release import (
    PARTS,
    SUFFIX_PART,
    hash_chunk,
    read_release,
    release_ids,
    release_places,
    tree_files,
)
from paintkit.verify.shard_sets import verify_shard_set
from paintkit.verify.tree_manifest import (
    drop_unreadable_entries,
    read_tree_manifest,
)
from paintkit.verify.verdict import Verdict

__all__ = ["verify_benchmark"]

def _is_benchmark_folder(folder: Path) -> bool:
    """A ``<Benchmark>`` folder itself: a task folder in it holds problem files."""
    for task in visible_dirs(folder):
        if any(parse_problem_file(p.name) for p in task.iterdir()):
            return True
    return False


def _against_manifest(tree_root: Path, manifest: dict, prefixes: tuple[str, ...]
                      ) -> tuple[int, dict[str, list[str]]]:
    """Files under ``prefixes`` against the manifest: ``(checked, {problem: [why, ...]})``
    with problems as ``"<Benchmark>/<task>/<NNN>"``."""
    whys: dict[str, list[str]] = {}
    checked = 0

    def problem_of(name: str) -> tuple[str, str]:
        folder, _, base = name.rpartition("/")
        parsed = parse_problem_file(base)
        if parsed is None:
            return name, name
        return f"{folder}/{parsed[0]}", FILE_PART.get(SUFFIX_PART.get(parsed[1], ""),
                                                         parsed[1].lstrip("_."))

    listed = {n for n in manifest["files"] if n.startswith(prefixes)}
    for name in sorted(listed):
        checked += 1
        entry, target = manifest["files"][name], tree_root / name
        problem, part = problem_of(name)
        if not target.is_file():
            whys.setdefault(problem, []).append(f"{part} missing")
        elif target.stat().st_size != entry.get("bytes") or \
                file_sha256(target) != entry.get("sha256"):
            whys.setdefault(problem, []).append(f"{part} edited since it was generated")
    for prefix in prefixes:
        for target in sorted(p for p in (tree_root / prefix).rglob("*") if p.is_file()):
            name = target.relative_to(tree_root).as_posix()
            if name not in listed and not target.name.startswith("."):
                problem, part = problem_of(name)
                whys.setdefault(problem, []).append(f"{part} not in {MANIFEST_FILE_NAME}")
    return checked, whys


def _hash_tree(bench_dir: Path, keys: list[str], jobs: int,
               places: dict[str, str] | None = None) -> dict[str, tuple]:
    """``{key: (hashes or None, error or None)}`` of the problems ``keys`` of ``bench_dir``;
    ``places``: release key -> the copy's ``<task>/<NNN>`` holding it, where they differ."""
    places = places or {}
    work: list[tuple] = [(str(bench_dir / key.split("/")[0]), key.split("/")[1]) if key not in
                         places else (str(bench_dir / key.split("/")[0]),
                                      places[key].split("/")[1], key) for key in keys]
    found: dict[str, tuple] = {}

    def consume(rows) -> None:
        for key, hashes, error in rows:
            found[key] = (hashes, error)

    chunks = [work[k:k + 32] for k in range(0, len(work), 32)]
    if jobs == 1 or len(chunks) <= 1:
        for chunk in chunks:
            consume(hash_chunk(chunk))
    else:
        map_in_workers(hash_chunk, chunks, (), jobs, consume)
    return found


def _tree_found(bench_dir: Path, expected: dict, jobs: int,
                places: dict[str, str] | None = None) -> dict[str, tuple]:
    """``{key: (hashes or None, what is wrong or None)}`` of a benchmark folder's problems
    (problems not in the release: ``(None, None)``, not hashed); ``places``: a smaller
    tree's problems under their release keys (:func:`~paintkit.verify.release.release_places`)."""
    files = tree_files(bench_dir)
    if places:
        files = {release: files[copy] for release, copy in places.items()}
    found: dict[str, tuple] = {key: (None, None) for key in files}
    for key in set(files) & set(expected):
        if len(files[key]) < len(PARTS):
            gone = [p for p in PARTS if p not in files[key]]
            task, stem = key.split("/")
            linked = [FILE_PART[p] for p in gone if
                      (bench_dir / task / PART_NAME[p](stem)).is_symlink()]
            missing = [FILE_PART[p] for p in gone if FILE_PART[p] not in linked]
            found[key] = (None, "; ".join(
                [*([f"{', '.join(missing)} missing"] if missing else []),
                 *([f"{', '.join(linked)}: a symbolic link (not followed)"] if linked else [])]))
    complete = [k for k in sorted(set(files) & set(expected)) if len(files[k]) == len(PARTS)]
    for key, (hashes, error) in _hash_tree(bench_dir, complete, jobs, places).items():
        found[key] = (hashes, None if error is None else f"unreadable ({error})")
    return found


def verify_benchmark(root, *, jobs: int = 1, release: dict | None = None) -> Verdict:
    """Check the benchmark copy ``root`` (a tree of ``<Benchmark>/`` folders, or one
    benchmark folder) against the release's content hashes (see the module docstring).

    Args:
        jobs: worker processes that decode and hash (about 10 ms a problem at 1024²).
        release: the list to check against (default: the one shipped with paintkit).

    Raises:
        ValueError: ``root`` is not a folder, holds no benchmark folder, or has a broken
            ``manifest.json`` (one line naming it).
    """
    root = Path(root)
    if not root.is_dir():
        raise ValueError(f"{root}: not a folder; 'paintkit verify' checks a benchmark tree")
    release = read_release() if release is None else release
    if any(root.glob("shard-*.tar")) or any(root.glob("shard-*.parquet")):
        return verify_shard_set(root, release, Verdict())
    if _is_benchmark_folder(root):
        tree_root, bench_dirs = root.parent, [root]
    else:
        tree_root, bench_dirs = root, [d for d in visible_dirs(root) if visible_dirs(d)]
    if not bench_dirs:
        raise ValueError(f"{root}: holds no <Benchmark>/<task>/ folders; 'paintkit verify' "
                         "checks a tree made by 'paintkit generate'")
    manifest = read_tree_manifest(tree_root)
    verdict = Verdict()
    if release["paintkit_version"] != __version__:
        verdict.notes.append(f"the release list is of paintkit {release['paintkit_version']}, "
                             f"this is {__version__}")
    edited: dict[str, list[str]] = {}
    if manifest is not None:
        drop_unreadable_entries(tree_root, manifest, verdict)
        _, edited = _against_manifest(tree_root, manifest,
                                            tuple(f"{d.name}/" for d in bench_dirs))
    else:
        verdict.notes.append(f"no {MANIFEST_FILE_NAME}: the copy is checked against the "
                             "release alone (it cannot tell an edit from another version)")
    reencoded = 0
    for bench_dir in bench_dirs:
        entry = release["benchmarks"].get(bench_dir.name)
        if entry is None:
            released = ", ".join(release["benchmarks"])
            if manifest is None:
                verdict.notes.append(f"{bench_dir.name}: not a released benchmark ({released}) "
                                     "and no manifest: nothing to check it against")
                continue
            verdict.notes.append(f"{bench_dir.name}: not a released benchmark ({released}): "
                                 f"checked against {MANIFEST_FILE_NAME} only")
            mine = {p: w for p, w in edited.items() if p.startswith(bench_dir.name + "/")}
            verdict.checked += sum(1 for n in manifest["files"]
                                   if n.startswith(bench_dir.name + "/"))
            verdict.differs += [f"{p}: {', '.join(w)}" for p, w in sorted(mine.items())]
            continue
        reason = tree_reason(manifest, bench_dir.name, release)
        before = len(verdict.differs)
        places = release_places(tree_files(bench_dir), release_ids(bench_dir.name,
                                                                     entry["suite"]))
        if places:  # a smaller tree: its NNN are not the release's, its problem_ids are
            verdict.notes.append(
                f"{bench_dir.name}: a part of the release ({len(places):,} of its "
                f"{len(entry['problems']):,} problems), each matched by its problem_id")
            copy_of = {f"{bench_dir.name}/{c}": f"{bench_dir.name}/{r}" for r, c in places.items()}
            edited = {copy_of.get(p, p): w for p, w in edited.items()}
        found = _tree_found(bench_dir, entry["problems"], jobs, places)
        reencoded += compare_problems(bench_dir.name, entry["problems"], found, reason, edited, verdict,
                              part=bool(places))
        if len(verdict.differs) > before and not reason.startswith("made by this version"):
            verdict.notes.append(f"{bench_dir.name}: {reason}")
    if reencoded:
        verdict.notes.append(f"{reencoded:,} problem(s) have files whose bytes differ from "
                             f"{MANIFEST_FILE_NAME} but whose content is the release's "
                             "(re-encoded?)")
    return verdict

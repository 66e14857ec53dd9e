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

import json
from pathlib import Path

from paintkit._version import __version__
from paintkit.errors import one_line
from paintkit.io.images import ImageDecodeError
from paintkit.layout.errors import LayoutError
from paintkit.layout.folders import visible_dirs
from paintkit.layout.problem_files import answer_name, input_name, metadata_name, parse_problem_file
from paintkit.loader import DuplicateKeyError, load
from paintkit.parallel import map_in_workers
from paintkit.stats.results_file import MANIFEST_FILE_NAME, file_sha256
from paintkit.verify.release import (
    PARTS,
    SUFFIX_PART,
    content_hash,
    hash_chunk,
    read_release,
    release_ids,
    release_places,
    tree_files,
)
from paintkit.verify.tree_manifest import (
    drop_unreadable_entries,
    names_in,
    read_tree_manifest,
    suite_of,
)
from paintkit.verify.verdict import Verdict

__all__ = ["verify_benchmark"]

#: Manifest suite fields that change which problems a tree holds (tasks, modes and the
#: preservation split only choose among them).
SETTINGS = ("conditions", "per_cell", "start_slot", "size", "counts", "any_matplotlib")
_FILE_PART = {"input": "input.png", "answer": "answer.png", "metadata": "json"}
_PART_NAME = {"input": input_name, "answer": answer_name, "metadata": metadata_name}


def _is_benchmark_folder(folder: Path) -> bool:
    """A ``<Benchmark>`` folder itself: a task folder in it holds problem files."""
    for task in visible_dirs(folder):
        if any(parse_problem_file(p.name) for p in task.iterdir()):
            return True
    return False


def _tree_reason(manifest: dict | None, benchmark: str, release: dict) -> str:
    """Why a released benchmark's problems in this copy would differ (from its manifest)."""
    if manifest is None:
        return f"no {MANIFEST_FILE_NAME} says how the copy was made"
    version = manifest.get("paintkit_version")
    if version != release["paintkit_version"]:
        return (f"made by paintkit {version}, the release list is of "
                f"{release['paintkit_version']}: tasks changed between them (CHANGELOG.md)")
    mine, theirs = suite_of(manifest, benchmark), release["benchmarks"][benchmark]["suite"]
    if mine is None:
        return f"{MANIFEST_FILE_NAME} does not describe {benchmark}"
    if mine.get("namespace") != theirs.get("namespace"):
        return (f"namespace {mine.get('namespace')!r}, not the release's "
                f"{theirs.get('namespace')!r}: a fresh set of problems")
    if mine.get("matplotlib"):
        return f"charts drawn with matplotlib {mine['matplotlib']} (--any-matplotlib)"
    other = [key for key in SETTINGS if mine.get(key) != theirs.get(key)]
    tasks = names_in(mine.get("tasks"))
    if {m for m in names_in(mine.get("modes")) if m.split(":")[0] in tasks} != \
            {m for m in names_in(theirs.get("modes")) if m.split(":")[0] in tasks}:
        other.append("modes")
    if other:
        return "made with other settings: " + ", ".join(
            f"{key} {json.dumps(mine.get(key))}" for key in other)
    return ("made by this version with the release's settings, yet different: please "
            "report it (the benchmark's bytes are the same on every machine)")


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
        return f"{folder}/{parsed[0]}", _FILE_PART.get(SUFFIX_PART.get(parsed[1], ""),
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


def _ranges(stems: list[str]) -> str:
    """``["003", "004", "005", "009"]`` -> ``"003-005, 009"``."""
    runs: list[list[str]] = []
    for stem in sorted(stems, key=int):
        if runs and int(stem) == int(runs[-1][-1]) + 1:
            runs[-1].append(stem)
        else:
            runs.append([stem])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


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
            linked = [_FILE_PART[p] for p in gone if
                      (bench_dir / task / _PART_NAME[p](stem)).is_symlink()]
            missing = [_FILE_PART[p] for p in gone if _FILE_PART[p] not in linked]
            found[key] = (None, "; ".join(
                [*([f"{', '.join(missing)} missing"] if missing else []),
                 *([f"{', '.join(linked)}: a symbolic link (not followed)"] if linked else [])]))
    complete = [k for k in sorted(set(files) & set(expected)) if len(files[k]) == len(PARTS)]
    for key, (hashes, error) in _hash_tree(bench_dir, complete, jobs, places).items():
        found[key] = (hashes, None if error is None else f"unreadable ({error})")
    return found


def _compare(name: str, expected: dict, found: dict[str, tuple], reason: str,
             edited: dict[str, list[str]], verdict: Verdict, part: bool = False) -> int:
    """Compare one released benchmark's problems found in the copy with its list; returns
    how many problems whose files differ from the manifest still hold the release's
    content. ``part``: the copy is a smaller tree of the release (matched by
    ``problem_id``): the released problems it does not hold are not checked."""
    present_tasks = {key.split("/")[0] for key in found}
    lines: list[str] = []
    absent_tasks: dict[str, int] = {}
    gone_whole: dict[str, list[str]] = {}
    reencoded = 0
    for key in sorted(set(expected) | set(found)):
        problem = f"{name}/{key}"
        why = "; ".join(edited.get(problem, [])) or reason
        if key not in expected:
            verdict.checked += 1
            lines.append(f"{problem}: not in the release ({why})")
            continue
        task = key.split("/")[0]
        if key not in found and part:  # a part holds what it holds (the note says how much)
            continue
        if task not in present_tasks:
            absent_tasks[task] = absent_tasks.get(task, 0) + 1
            continue
        verdict.checked += 1
        if key not in found:
            gone_whole.setdefault(task, []).append(key.split("/")[1])
            continue
        hashes, wrong = found[key]
        if wrong is not None:
            lines.append(f"{problem}: {wrong}")
            continue
        differ = [part for part, mine, theirs in
                  zip(PARTS, hashes.split(), expected[key].split(), strict=True) if mine != theirs]
        if differ:
            verb = "differs" if len(differ) == 1 else "differ"
            lines.append(f"{problem}: {', '.join(differ)} {verb} from the release ({why})")
        elif problem in edited:
            reencoded += 1
    for task, count in sorted(absent_tasks.items()):
        verdict.checked += count
        lines.append(f"{name}/{task}: not in this copy ({count:,} released problem"
                     f"{'s' if count != 1 else ''})")
    for task, stems in gone_whole.items():
        lines.append(f"{name}/{task}: {len(stems):,} released problem"
                     f"{'s' if len(stems) != 1 else ''} missing ({_ranges(stems)})")
    verdict.differs += sorted(lines)
    return reencoded


def _unreleased_shards(root: Path, manifest: dict, edited: list[str], verdict: Verdict
                       ) -> Verdict:
    """A shard set of no released benchmark: its shards against the manifest (each a check)
    and every problem's reference images read back (each problem with some a check)."""
    suite = manifest.get("suite") if isinstance(manifest.get("suite"), dict) else {}
    verdict.notes.append(f"{suite.get('benchmark', 'these shards')}: not a released benchmark: "
                         f"checked against {MANIFEST_FILE_NAME} only")
    verdict.checked += len(manifest["files"])
    verdict.differs += [f"{name}: {'edited' if (root / name).is_file() else 'missing'} since "
                        f"it was generated (its hash differs from {MANIFEST_FILE_NAME})"
                        for name in edited]
    try:
        items = load(root, kind="shards")
    except LayoutError as exc:  # a shard that cannot be read, or one key twice
        verdict.checked += 1
        verdict.differs.append(one_line(exc))
        return verdict
    for item in items:
        try:
            if not (item.metadata or {}).get("references"):
                continue
            verdict.checked += 1
            item.references  # noqa: B018 - reads every reference image the metadata lists
        except (LayoutError, ImageDecodeError) as exc:
            verdict.differs.append(f"{item.key}: {one_line(exc)}")
    return verdict


def _shard_set(root: Path, release: dict, verdict: Verdict) -> Verdict:
    """A folder of ``shard-*.tar`` / ``shard-*.parquet`` files: every problem (opened with
    :func:`paintkit.load`) against the release, by its ``problem_id`` (as a smaller tree's:
    a ``--per-cell`` or ``--tasks`` shard set numbers its problems ``000``, ... and its
    metadata is hashed under the release's number), or by its ``task`` and ``idx`` when a
    problem is not a released one; shard files against the manifest (a shard holds many
    problems: an edited one is named once)."""
    manifest = read_tree_manifest(root)
    edited_shards = []
    present = sorted(p.name for p in root.iterdir()
                     if p.name.startswith("shard-") and p.suffix in (".tar", ".parquet"))
    if manifest is None:
        verdict.notes.append(f"no {MANIFEST_FILE_NAME}: the shards are checked against the "
                             "release alone")
    else:
        drop_unreadable_entries(root, manifest, verdict)
        for name, entry in sorted(manifest["files"].items()):
            target = root / name
            if not target.is_file() or file_sha256(target) != entry.get("sha256"):
                edited_shards.append(name)
        released = any(suite_of(manifest, name) for name in release["benchmarks"])
        if edited_shards and released:
            verdict.notes.append(f"{', '.join(edited_shards)}: missing or edited since they "
                                 f"were generated (their hash differs from {MANIFEST_FILE_NAME})")
        for name in present:
            if name not in manifest["files"]:
                verdict.checked += 1
                verdict.differs.append(f"{name}: a shard {MANIFEST_FILE_NAME} does not list "
                                       "(not written by the run it describes)")
        if not released:
            return _unreleased_shards(root, manifest, edited_shards, verdict)
    owner = {key.split("/")[0]: bench for bench, entry in release["benchmarks"].items()
             for key in entry["problems"]}
    found: dict[str, dict[str, tuple]] = {}
    try:
        items = load(root, kind="shards")
    except DuplicateKeyError as exc:
        verdict.checked += len(exc.duplicates)
        verdict.differs += [f"{key}: in both {first} and {other} (a shard set holds each "
                            "problem once)" for key, first, other in exc.duplicates]
        return verdict
    except LayoutError as exc:  # a shard that cannot be read: named, nothing else compared
        verdict.checked += 1
        verdict.differs.append(one_line(exc))
        return verdict
    places = _shard_places(items, release)
    for item in items:
        try:
            meta = item.metadata or {}
            key = f"{meta['task']}/{int(meta['idx']):03d}"
            if places:  # a part of the release: the problem under its released number
                key = places[str(meta["problem_id"])]
                meta = {**meta, "idx": int(key.split("/")[1])}
            hashes = " ".join((content_hash(item.input), content_hash(item.answer),
                               content_hash(meta)))
            found.setdefault(owner.get(meta["task"], "?"), {})[key] = (hashes, None)
        except (KeyError, TypeError, ValueError) as exc:
            verdict.checked += 1
            verdict.differs.append(f"{item.key}: unreadable ({one_line(exc)})")
    parts = {name for name, entry in release["benchmarks"].items()
             if places and name in found and len(found[name]) < len(entry["problems"])}
    for name in sorted(parts):
        verdict.notes.append(f"{name}: a part of the release ({len(found[name]):,} of its "
                             f"{len(release['benchmarks'][name]['problems']):,} problems), "
                             "each matched by its problem_id")
    for name in sorted(found):
        if name not in release["benchmarks"]:
            verdict.checked += len(found[name])
            verdict.differs += [f"{key}: not in the release (a task of no released "
                                "benchmark)" for key in sorted(found[name])]
            continue
        reason = (f"in {', '.join(edited_shards)}, edited since generated" if edited_shards
                  else _tree_reason(manifest, name, release))
        before = len(verdict.differs)
        _compare(name, release["benchmarks"][name]["problems"], found[name], reason, {},
                 verdict, part=name in parts)
        if len(verdict.differs) > before and not reason.startswith("made by this version"):
            verdict.notes.append(f"{name}: {reason}")
    return verdict


def _shard_places(items, release: dict) -> dict[str, str]:
    """``{problem_id: "<task>/<NNN>"}`` when every problem of a shard set is a released one
    by its ``problem_id`` (its numbers may differ from the release's: a smaller shard set);
    {} otherwise (its problems are matched by ``task`` and ``idx``)."""
    ids: dict[str, str] = {}
    for name, entry in release["benchmarks"].items():
        ids.update(release_ids(name, entry["suite"]))
    places = {}
    for item in items:
        meta = item.metadata if isinstance(item.metadata, dict) else {}
        released = ids.get(str(meta.get("problem_id")))
        if released is None:
            return {}
        places[str(meta["problem_id"])] = released
    return places


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
        return _shard_set(root, release, Verdict())
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
        reason = _tree_reason(manifest, bench_dir.name, release)
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
        reencoded += _compare(bench_dir.name, entry["problems"], found, reason, edited, verdict,
                              part=bool(places))
        if len(verdict.differs) > before and not reason.startswith("made by this version"):
            verdict.notes.append(f"{bench_dir.name}: {reason}")
    if reencoded:
        verdict.notes.append(f"{reencoded:,} problem(s) have files whose bytes differ from "
                             f"{MANIFEST_FILE_NAME} but whose content is the release's "
                             "(re-encoded?)")
    return verdict

"""``paintkit verify`` of a folder of shards (``shard-*.tar`` / ``shard-*.parquet``): every
problem against the release by its ``problem_id`` (or ``task`` and ``idx``), the shard files
against the manifest; a shard set of no released benchmark against its manifest only, with
every problem's reference images read back."""

from __future__ import annotations

from pathlib import Path

from paintkit.errors import one_line
from paintkit.io.images import ImageDecodeError
from paintkit.layout.errors import LayoutError
from paintkit.loader import DuplicateKeyError, load
from paintkit.stats.results_file import MANIFEST_FILE_NAME, file_sha256
from paintkit.verify.comparison import compare_problems, tree_reason
from paintkit.verify.release import content_hash, release_ids
from paintkit.verify.tree_manifest import drop_unreadable_entries, read_tree_manifest, suite_of
from paintkit.verify.verdict import Verdict


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


def verify_shard_set(root: Path, release: dict, verdict: Verdict) -> Verdict:
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
                  else tree_reason(manifest, name, release))
        before = len(verdict.differs)
        compare_problems(name, release["benchmarks"][name]["problems"], found[name], reason, {},
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

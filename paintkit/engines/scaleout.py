"""Workers write, the driver coordinates: ``write_suite`` with ``engine="ray"`` or a URL ``out``.

The driver lists the output location once, plans one unit per shard (or per few problems
of the directory layout), and asks the engine to run :func:`~paintkit.engines.unit_write.write_unit`
for units whose files are missing and :func:`~paintkit.engines.unit_write.hash_unit` for the
others (a resumed run: the files are read where they are, not shipped to the driver). Each
answer is a :class:`~paintkit.engines.unit_write.UnitResult` of a few hundred bytes per
problem; the driver streams the records into ``manifest.json`` in suite order, so the
manifest is byte-identical to a local run's. Ray schedules the units and re-runs those of a
dead node; the driver only keeps ``2 x workers`` units in flight.
"""

from __future__ import annotations

import json
import pickle
import tempfile
import time
from pathlib import Path

from paintkit.engines.summary import GenerateSummary
from paintkit.engines.unit_write import Layout, UnitResult, expected_files, hash_unit, units, write_unit
from paintkit.engines.work import WorkOptions
from paintkit.io.folder_lock import FolderLock, FolderNotWritableError
from paintkit.io.jsonl import parse_json
from paintkit.io.progress import Progress
from paintkit.storage import Target
from paintkit.writers import WriteError
from paintkit.writers.dataset_card import CARD_NAME, card_bytes
from paintkit.writers.manifest import (
    COMPATIBLE_KEYS,
    LOCK_NAME,
    MANIFEST_NAME,
    ManifestBuilder,
    prepare_root,
    read_manifest,
    write_incomplete,
)
from paintkit.writers.previous import previous_files
from paintkit.writers.record import FileRecord


def write_suite_scaleout(suite, target: Target, writer, header: dict, runner, *, layout: Layout,
                         overwrite: bool, progress: bool, options: WorkOptions,
                         unit_size: int) -> GenerateSummary:
    """Run ``suite`` on ``runner`` (an :class:`~paintkit.engines.local.Engine` with
    :meth:`call`) into ``target``; see the module docstring."""
    if target.local:
        root = target.local_root
        try:
            lock = FolderLock(root, LOCK_NAME, "paintkit generate", remove=True)
        except FolderNotWritableError as exc:
            raise WriteError(str(exc)) from None
        try:
            state = prepare_root(root, header, overwrite)
            writer.clean_temporary()
            earlier = _earlier_files(read_manifest(root)) if state == "resume" else {}
            write_incomplete(root, header, earlier)
            return _drive(suite, target, writer, header, runner, layout, state, progress,
                          options, unit_size, earlier)
        finally:
            lock.release()
    state, earlier = _prepare_url(target, header, overwrite)
    target.remove_temporaries()
    incomplete = {**header, "complete": False, **({"files": earlier} if earlier else {})}
    target.put_bytes(MANIFEST_NAME, (json.dumps(incomplete, indent=1) + "\n").encode())
    return _drive(suite, target, writer, header, runner, layout, state, progress, options,
                  unit_size, earlier)


def _earlier_files(manifest: dict | None) -> dict:
    """``{path: {"bytes", "sha256"}}`` an earlier run recorded (kept files are checked
    against them; a file that differs is generated again)."""
    files = (manifest or {}).get("files")
    return files if isinstance(files, dict) else {}


def _damage(result: UnitResult, earlier: dict) -> list[tuple[str, str]]:
    """``(path, reason)`` of the unit's kept files that differ from the earlier records, and
    of the reference images its problems' JSON lists that are gone."""
    damaged = [(path, "missing (its problem's JSON lists it)") for path in result.missing]
    for record in result.files:
        expected = earlier.get(record.path)
        if not isinstance(expected, dict):
            continue
        if expected.get("bytes") != record.nbytes:
            damaged.append((record.path, f"{record.nbytes:,} bytes, the manifest recorded "
                                         f"{expected.get('bytes')}"))
        elif expected.get("sha256") != record.sha256:
            damaged.append((record.path, "its SHA-256 differs from the manifest's"))
    return damaged


def _prepare_url(target: Target, header: dict, overwrite: bool) -> tuple[str, dict]:
    """``prepare_root`` for a URL: ``"fresh"``, ``"resume"`` or ``"overwrite"``, and the
    earlier run's file records (resume)."""
    data = target.read_bytes(MANIFEST_NAME)
    if data is None:
        foreign = sorted(target.listing())
        if foreign and not overwrite:
            raise ValueError(f"{target}: not empty and has no {MANIFEST_NAME} (holds "
                             f"{', '.join(foreign[:5])}); use an empty location, or --overwrite")
        return ("overwrite" if foreign else "fresh"), {}
    try:
        manifest = parse_json(data.decode("utf-8"))
    except ValueError as exc:
        raise ValueError(f"{target.display(MANIFEST_NAME)}: unreadable manifest ({exc}); "
                         "fix or remove it, or use --overwrite") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{target.display(MANIFEST_NAME)}: not a paintkit manifest (expected "
                         "a JSON object); fix or remove it")
    diffs = [f"{k}: {json.dumps(manifest.get(k))} there, {json.dumps(header[k])} now"
             for k in COMPATIBLE_KEYS if manifest.get(k) != header[k]]
    if not diffs:
        return ("overwrite", {}) if overwrite else ("resume", _earlier_files(manifest))
    if not overwrite:
        raise ValueError(f"{target}: holds another suite's files ({MANIFEST_NAME} differs: "
                         f"{'; '.join(diffs[:4])}); use another location, or --overwrite")
    for name in previous_files(manifest, target.listing()):  # what the previous run wrote
        target.remove(name)
    target.remove(MANIFEST_NAME)
    return "overwrite", {}


def _drive(suite, target: Target, writer, header, runner, layout, state, show, options,
           unit_size, earlier: dict) -> GenerateSummary:
    start = time.perf_counter()
    plan = units(writer, len(suite), unit_size)
    present = set() if state == "overwrite" else target.listing()
    bar = Progress(len(suite), verb="generated", enabled=show)
    staging = None if target.local else tempfile.TemporaryDirectory(prefix="paintkit-manifest-")
    manifest = ManifestBuilder(target.local_root if target.local else Path(staging.name), header)
    damaged: list[tuple[str, str]] = []
    received = 0  # pickled bytes of the units' answers: what the driver receives
    results: dict[int, UnitResult] = {}
    sizes: dict[str, int] = {}  # file -> bytes: the dataset card's split sizes
    references = 0  # the most reference images a problem has: the card's features
    pending: dict[object, int] = {}
    next_unit = next_record = 0
    window = 2 * max(1, runner.workers)
    try:
        while next_record < len(plan):
            while next_unit < len(plan) and len(pending) < window:
                a, b = plan[next_unit]
                done = all(name in present for name in expected_files(writer, a, b))
                if done:
                    handle = runner.call(hash_unit, suite, a, b, layout, target)
                else:
                    handle = runner.call(write_unit, suite, a, b, layout, target, options)
                pending[handle] = next_unit
                next_unit += 1
            finished, _ = runner.wait(set(pending))
            for handle, result in finished:
                unit = pending.pop(handle)
                received += len(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
                broken = [] if result.generated else _damage(result, earlier)
                if broken:  # a kept file differs from the earlier record: generate it again
                    damaged += broken
                    a, b = plan[unit]
                    pending[runner.call(write_unit, suite, a, b, layout, target, options)] = unit
                    continue
                results[unit] = result
            while next_record in results:
                result = results.pop(next_record)
                manifest.add(list(result.files))
                sizes.update((record.path, record.nbytes) for record in result.files)
                references = max(references, result.references)
                count = result.stop - result.start
                bar.update(**({"processed": count} if result.generated else {"skipped": count}))
                next_record += 1
        _check_present(target, writer, plan)
        # README.md of a shard corpus; at a URL, the units said how many reference images
        card = card_bytes(writer, sizes, None if target.local else references)
        if card is not None:
            target.put_bytes(CARD_NAME, card)
            manifest.add([FileRecord.of_bytes(CARD_NAME, card)])
        manifest.commit()
        if staging is not None:
            target.put_file(MANIFEST_NAME, Path(staging.name) / MANIFEST_NAME)
    except BaseException:
        manifest.discard()
        bar.close()
        raise
    finally:
        if staging is not None:
            staging.cleanup()
    bar.close()
    return GenerateSummary(
        out=target.local_root if target.local else str(target), format=writer.format,
        engine=runner.name, workers=runner.workers, problems=len(suite),
        generated=bar.processed, skipped=bar.skipped, files=manifest.files,
        nbytes=manifest.nbytes, seconds=time.perf_counter() - start, driver_bytes=received,
        damaged=tuple(damaged),
    )


def _check_present(target: Target, writer, plan) -> None:
    """Refuse to call the output complete when files vanished during the run."""
    present = target.listing()
    for a, b in plan:
        missing = [name for name in expected_files(writer, a, b) if name not in present]
        if missing:
            raise WriteError(f"{target.display(missing[0])}: disappeared during the run; the "
                             "manifest stays incomplete, run the same command again")

"""Run a suite through an engine into a writer: the driver behind ``paintkit generate``.

The driver walks the suite in order. Problems already on disk are skipped (resume) once
their files match the earlier manifest's records (:mod:`paintkit.writers.resume`);
the others are grouped into units of consecutive indices and submitted to the engine, at
most ``2 x workers`` at a time and at most :data:`MAX_AHEAD_UNITS` units ahead of the
oldest unwritten problem. Results come back in any order and are handed to the writer in
suite order, so files, shards and the manifest are the same whatever the engine or worker
count, and memory stays flat whatever the suite size.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paintkit.arguments import check_int
from paintkit.attempts import SLOT_SECONDS
from paintkit.engines.local import Engine, InProcessEngine, ProcessPoolEngine
from paintkit.engines.ray_engine import RayEngine
from paintkit.engines.scaleout import write_suite_scaleout
from paintkit.engines.summary import GenerateSummary
from paintkit.engines.unit_write import Layout, workers_can_write
from paintkit.engines.warmup import COMPILING, kernels_cold
from paintkit.engines.work import WorkOptions
from paintkit.io.folder_lock import FolderLock, FolderNotWritableError
from paintkit.io.progress import Progress
from paintkit.storage import Target
from paintkit.suites import ProblemSuite, check_suite
from paintkit.writers import DEFAULT_SHARD_SIZE, WriteError, make_writer
from paintkit.writers.base import Writer
from paintkit.writers.manifest import (
    LOCK_NAME,
    ManifestBuilder,
    manifest_header,
    prepare_root,
    read_manifest,
    write_incomplete,
)

ENGINES = ("process", "inprocess", "ray")
UNIT_SIZE = 4
MAX_AHEAD_UNITS = 64
#: How often the progress line is redrawn while no unit finishes (seconds).
TICK_SECONDS = 1.0

def make_engine(engine: str = "process", jobs: int | None = None, address: str | None = None) -> Engine:
    """An engine by name: ``process`` (default), ``inprocess`` or ``ray``."""
    if engine == "process":
        return ProcessPoolEngine(jobs)
    if engine == "inprocess":
        return InProcessEngine()
    if engine == "ray":  # RayEngine imports ray itself only when it starts
        return RayEngine(address, jobs)
    raise ValueError(f"unknown engine {engine!r}; allowed: {', '.join(ENGINES)}")


def _plan(writer: Writer, suite_len: int, unit_size: int) -> Iterator[tuple[str, int, int]]:
    """Yield ``("skip", a, b)`` runs of stored problems and ``("gen", a, b)`` units."""
    index = 0
    while index < suite_len:
        done = writer.is_done(index)
        stop = index + 1
        while stop < suite_len and writer.is_done(stop) == done and (done or stop - index < unit_size):
            stop += 1
        yield ("skip" if done else "gen", index, stop)
        index = stop


def write_suite(suite: ProblemSuite, out: Path | str, *, format: str = "directory",
             shard_size: int = DEFAULT_SHARD_SIZE, engine: str | Engine = "process",
             jobs: int | None = None, address: str | None = None, overwrite: bool = False,
             progress: bool = True, png_encoder: str = "auto",
             unit_size: int = UNIT_SIZE, svg: bool = False,
             shards: int | None = None, held_out: float | None = None,
             slot_seconds: float | None = SLOT_SECONDS) -> GenerateSummary:
    """Generate ``suite`` and write it into ``out`` in ``format``, with ``out/manifest.json``.

    Args:
        suite: what to generate (any :class:`~paintkit.suites.ProblemSuite`: PaintBench's
            :class:`~paintkit.suites.Suite`, TinyGrafixBench, compositional, guidance, combined).
        out: output folder or URL (``file:///path``; ``s3://``, ``gs://``, ``memory://`` through
            fsspec); an interrupted run into it is resumed. With ``engine="ray"`` or a URL,
            workers write the files and the driver only the manifest (docs/generate.md).
        format: ``directory`` (standard layout, docs/file-layout.md), ``webdataset`` or ``parquet``.
        shard_size: problems per shard (shard formats).
        shards: shard formats: this many shards, the problems split evenly (sizes differ by
            at most one) instead of shards of ``shard_size``; see
            :func:`~paintkit.engines.unit_write.shard_plan` for a training world size.
        held_out: ``parquet`` / ``webdataset``: the fraction of problems written to the
            ``test`` split, chosen by a hash of each ``problem_id`` (default 0.1; 0: every
            problem in ``train``; :mod:`paintkit.writers.splits`).
        engine: ``process`` (default), ``inprocess``, ``ray``, or an :class:`Engine`.
        jobs: worker processes (default: one per core); Ray: CPUs of a local instance.
        address: Ray cluster address (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``).
        overwrite: replace another suite's files instead of refusing.
        progress: show a progress bar on stderr.
        svg: also write each problem's input and answer as SVG (directory format only).
        slot_seconds: a problem whose attempt search runs longer gives up with
            :class:`~paintkit.attempts.AttemptsExhausted` naming it (None: no limit; it
            never changes which seed a problem gets).

    Returns:
        a :class:`~paintkit.engines.summary.GenerateSummary`.

    Raises:
        TypeError: ``suite`` is not a :class:`~paintkit.suites.ProblemSuite`.
        ValueError: bad names or options, a folder holding another suite (no ``overwrite``),
            an unreachable Ray address.
        WriteError: a file could not be written (full disk, unwritable folder); every file
            completed before stays, and a rerun resumes.
    """
    shard_size = check_int(shard_size, "shard_size", 1)
    unit_size = check_int(unit_size, "unit_size", 1)
    jobs = check_int(jobs, "jobs", 1, allow_none=True)
    check_suite(suite)
    target = Target.parse(out)  # file:///x is the folder /x; s3://, gs://, memory:// via fsspec
    root = Path(target.path)
    writer = make_writer(format, root, suite, shard_size, svg=svg, shards=shards,
                         held_out=held_out)
    header = manifest_header(suite, writer, png_encoder)
    on_ray = engine == "ray" or isinstance(engine, RayEngine)
    if not target.local and not workers_can_write(writer):
        raise ValueError(f"--out {out}: --format {format} is written by the driver into a "
                         "local folder; URLs take directory, webdataset or parquet")
    if not target.local or (on_ray and workers_can_write(writer)):
        # Workers write their own files; the driver writes the manifest (scaleout.py).
        if target.scheme == "memory" and engine not in ("inprocess", "ray") \
                and not isinstance(engine, (InProcessEngine, RayEngine)):
            raise ValueError(f"--out {out}: memory:// lives in one process; use --engine inprocess")
        runner = make_engine(engine, jobs, address) if isinstance(engine, str) else engine
        with runner:
            return write_suite_scaleout(
                suite, target, writer, header, runner,
                layout=Layout(writer.format, shard_size, svg, shards, held_out),
                overwrite=overwrite,
                progress=progress, options=WorkOptions(png_encoder=png_encoder, svg=svg,
                                    slot_seconds=slot_seconds),
                unit_size=unit_size)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root}: exists and is not a folder")
    # Start the engine before touching the folder: an unreachable cluster changes nothing.
    runner = make_engine(engine, jobs, address) if isinstance(engine, str) else engine
    with runner:
        # The lock comes first: nothing is checked, deleted (--overwrite) or written in the
        # folder while another run may be writing there.
        try:
            lock = FolderLock(root, LOCK_NAME, "paintkit generate", remove=True)
        except FolderNotWritableError as exc:  # read-only --out: one line, no traceback
            raise WriteError(str(exc)) from None
        try:
            state = prepare_root(root, header, overwrite)
            writer.clean_temporary()
            if state == "resume":  # keep only what matches the records of the earlier run
                writer.keep((read_manifest(root) or {}).get("files"))
            write_incomplete(root, header, writer.kept.unreached())
            return _drive(suite, writer, runner, root, header, state, progress,
                          WorkOptions(png_encoder=png_encoder, json_indent=writer.json_indent,
                                      svg=svg, slot_seconds=slot_seconds),
                          unit_size)
        finally:
            lock.release()


def generate(suite: ProblemSuite, out: Path | str, **kwargs: Any) -> GenerateSummary:
    """Deprecated alias of :func:`write_suite` (same arguments); removed in the next version."""
    warnings.warn("paintkit.engines.generate is deprecated; use paintkit.engines.write_suite "
                  "(same arguments)", DeprecationWarning, stacklevel=2)
    return write_suite(suite, out, **kwargs)


def _drive(suite: ProblemSuite, writer: Writer, engine: Engine, root: Path, header: dict, state: str,
           show: bool, options: WorkOptions, unit_size: int) -> GenerateSummary:
    start = time.perf_counter()
    bar = Progress(len(suite), verb="generated", enabled=show)
    if show and kernels_cold():  # a first run: say why the first problems take minutes
        bar.note = COMPILING
        print(f"paintkit: {COMPILING}; the ETA appears once the first problems are back",
              file=sys.stderr, flush=True)
    manifest = ManifestBuilder(root, header)
    # planned ("skip"|"gen", a, b) in suite order, not yet written
    steps: deque[tuple[str, int, int]] = deque()
    buffer: dict[int, object] = {}  # finished problems waiting for their turn
    pending: dict[object, int] = {}  # engine handle -> first index of its unit
    planner = _plan(writer, len(suite), unit_size) if state != "overwrite" else \
        (("gen", a, min(a + unit_size, len(suite))) for a in range(0, len(suite), unit_size))
    exhausted, units_ahead = False, 0
    window = 2 * engine.workers
    try:
        while True:
            while not exhausted and len(pending) < window and units_ahead < MAX_AHEAD_UNITS:
                step = next(planner, None)
                if step is None:
                    exhausted = True
                    break
                steps.append(step)
                if step[0] == "gen":
                    pending[engine.submit(suite, step[1], step[2], options)] = step[1]
                    units_ahead += 1
            _flush(steps, buffer, writer, manifest, bar)
            units_ahead = sum(1 for s in steps if s[0] == "gen")
            if not pending:
                if exhausted and not steps:
                    break
                continue
            finished, _ = engine.poll(set(pending), TICK_SECONDS)
            if not finished:
                bar.tick()  # the clock moves while a unit works
            for handle, results in finished:
                del pending[handle]
                for problem in results:
                    buffer[problem.index] = problem
        manifest.add(writer.close())
        _check_still_there(writer, len(suite), root)
        manifest.add(writer.finish())  # a shard corpus's README.md
        manifest.commit()
    except BaseException:
        writer.abort()
        manifest.commit_incomplete(writer.kept.unreached())
        bar.close()
        raise
    bar.close()
    return GenerateSummary(
        out=root, format=writer.format, engine=engine.name, workers=engine.workers,
        problems=len(suite), generated=bar.processed, skipped=bar.skipped, files=manifest.files,
        nbytes=manifest.nbytes, seconds=time.perf_counter() - start,
        damaged=tuple(writer.kept.damaged),
    )


def _flush(steps: deque[tuple[str, int, int]], buffer: dict, writer: Writer, manifest: ManifestBuilder,
           bar: Progress) -> None:
    """Hand every problem that is next in suite order to the writer."""
    while steps:
        kind, a, b = steps[0]
        if kind == "skip":
            for index in range(a, b):
                manifest.add(writer.skip(index))
            bar.update(skipped=b - a)
        elif all(i in buffer for i in range(a, b)):
            for index in range(a, b):
                manifest.add(writer.write(buffer.pop(index)))
            bar.update(processed=b - a)
        else:
            return
        steps.popleft()


def _check_still_there(writer: Writer, suite_len: int, root: Path) -> None:
    """Refuse to call the folder complete when files vanished during the run (deleted by
    hand or by another tool): the manifest then stays ``"complete": false``."""
    writer.refresh()
    gone = [i for i in range(suite_len) if not writer.is_done(i)]
    if gone:
        raise WriteError(f"{root}: the files of {len(gone)} problem(s) disappeared during the "
                         f"run (first: suite index {gone[0]}); the manifest stays incomplete, "
                         "run the same command again to regenerate them")


def count_files(root: Path | str) -> int:
    """Files under ``root`` (for tests and summaries)."""
    return sum(len(files) for _, _, files in os.walk(root))

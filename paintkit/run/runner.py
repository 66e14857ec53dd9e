"""``run_model``: every selected problem through a model, into the layout ``paintkit eval`` reads.

Resumable and safe to interrupt: the model folder is locked for the run, temporary files a
killed run left are removed once the lock is held, an output that already decodes is kept,
one that does not is redone, and a problem that failed is retried on the next run.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from paintkit.io.folder_lock import FolderLock
from paintkit.io.progress import Progress
from paintkit.io.redact import Redactor
from paintkit.layout.benchmark import BenchmarkProblem
from paintkit.layout.outputs import RUN_LOCK_NAME
from paintkit.loader import load
from paintkit.run.batch_outputs import output_decodes, produce_batch
from paintkit.run.live_eval import LiveScorer
from paintkit.run.ray_engine import run_on_ray
from paintkit.run.records import RunRecords, remove_stale_temporaries
from paintkit.subsets import as_subset

if TYPE_CHECKING:
    from paintkit.run.interface import EditModel
    from paintkit.run.planner import Planner
    from paintkit.subsets import SubsetLike
    from paintkit.types import PathLike


@dataclass
class RunSummary:
    """What a run did. ``failures``: ``{key: reason}`` of the problems that failed."""

    model_dir: Path
    written: int = 0
    skipped: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    usage: dict = field(default_factory=dict)
    scored: int = 0
    workers: int = 1

    @property
    def problems_per_second(self) -> float:
        return self.written / self.seconds if self.seconds > 0 else 0.0


def folder_name(model: str) -> str:
    """The default ``<outputs>/<model>`` folder of a model name: the name itself for a
    built-in, the last path part for ``diffusers:<repo or path>``, ``module.function`` for
    a callable; characters other than letters, digits, ``.``, ``_``, ``-`` become ``_``."""
    if model.startswith("diffusers:"):
        model = model[len("diffusers:"):].rstrip("/").rsplit("/", 1)[-1]
    else:
        model = model.replace(":", ".").rstrip("()")
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("._") or "model"
    return name


def select_problems(benchmarks_root: PathLike, *, benchmarks: Sequence[str] | None = None,
                    tasks: Sequence[str] | None = None,
                    limit: int | None = None, subset: SubsetLike | None = None) -> list[BenchmarkProblem]:
    """The problems of a run, in benchmark, task, index order; ``limit``: the first
    ``limit`` problems of each task folder; ``subset``: a ``subset.json`` (or
    :class:`~paintkit.subsets.Subset`): only its problems."""

    if limit is not None and limit < 1:
        raise ValueError(f"limit: expected a positive number of problems per task, got {limit}")
    problems = load(benchmarks_root, kind="benchmark", benchmarks=benchmarks, tasks=tasks).problems
    subset = as_subset(subset)
    if subset is not None:
        problems = subset.select(problems)
    if limit is None:
        return problems
    count: dict[tuple[str, str], int] = {}
    kept = []
    for problem in problems:
        seen = count.get((problem.benchmark, problem.task), 0)
        if seen < limit:
            kept.append(problem)
        count[(problem.benchmark, problem.task)] = seen + 1
    return kept


def _add_usage(total: dict, usage: dict | None) -> None:
    for name, value in (usage or {}).items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            total[name] = total.get(name, 0) + value


def run_model(model: EditModel | Callable[[], EditModel], benchmarks_root: PathLike,
              outputs_root: PathLike, *, folder: str | None = None,
              benchmarks: Sequence[str] | None = None, tasks: Sequence[str] | None = None,
              limit: int | None = None, batch_size: int | None = None,
              concurrency: int | None = None, seed: int = 0, overwrite: bool = False,
              progress: bool = True, planner: Planner | None = None,
              eval_out: PathLike | None = None, engine: str = "local", workers: int | None = None,
              address: str | None = None, settings: dict | None = None,
              subset: SubsetLike | None = None) -> RunSummary:
    """Write ``<outputs>/<folder>/<Benchmark>/<task>/NNNN_output.png`` for each problem.

    Args:
        model: an :class:`~paintkit.run.interface.EditModel`, or (``engine="ray"``) a
            zero-argument picklable function that builds one in each worker.
        folder: the model folder name (default :func:`folder_name` of ``model.name``).
        limit: the first ``limit`` problems of each task; ``tasks`` / ``benchmarks``: only
            these folders; ``subset``: a ``subset.json`` of ``paintkit subset`` (or a
            :class:`~paintkit.subsets.Subset`): only its problems.
        batch_size, concurrency: problems per model call and calls in flight (defaults:
            the model's own).
        seed: the run seed; each problem's seed is derived from it and the problem.
        overwrite: redo outputs that already decode.
        planner: a :class:`~paintkit.run.planner.Planner` (its plan goes to the model with
            the instruction and is saved as ``NNNN_plan.txt``).
        eval_out: a results folder to score outputs into as they land.
        engine, workers, address: ``"local"`` (threads in this process) or ``"ray"`` (one
            worker per GPU of the cluster at ``address``, or ``workers`` workers, each
            building its own model; a local Ray instance when no address is given).
        settings: what else to record in the run manifest (the command's options).

    Raises:
        LayoutError: the benchmark tree breaks the layout.
        FolderBusyError: another ``paintkit run`` writes into the same model folder.
    """
    problems = select_problems(benchmarks_root, benchmarks=benchmarks, tasks=tasks, limit=limit,
                               subset=subset)
    if engine not in ("local", "ray"):
        raise ValueError(f"engine: expected 'local' or 'ray', got {engine!r}")
    local_model = cast("EditModel", model) if engine == "local" else None
    name = getattr(local_model, "name", None) or (settings or {}).get("model", "model")
    folder = folder or folder_name(name)
    outputs_root = Path(outputs_root)
    model_dir = outputs_root / folder
    batch_size = batch_size or cast(int, getattr(local_model, "batch_size", 1))
    concurrency = concurrency or cast(int, getattr(local_model, "concurrency", 1))
    if batch_size < 1 or concurrency < 1:
        raise ValueError("batch size and concurrency must be positive")
    summary = RunSummary(model_dir)
    with FolderLock(model_dir, RUN_LOCK_NAME, "paintkit run"):
        remove_stale_temporaries(model_dir)
        todo: list[BenchmarkProblem] = []
        done: list[BenchmarkProblem] = []
        for problem in problems:
            path = problem.output_path(outputs_root, folder)
            (done if not overwrite and output_decodes(path) else todo).append(problem)
        summary.skipped = len(done)
        if local_model is not None:  # for a model that estimates the run from its first batch
            local_model.expected_problems = len(todo)
        described: dict | None = (local_model.describe() if local_model is not None
                                  else {"name": name})
        scorer = None
        if eval_out is not None:  # first: a busy results folder stops the run before it starts
            scorer = LiveScorer(eval_out, outputs_root, folder, done, todo)
        redactor = Redactor([secret for holder in (local_model, planner)
                             if holder is not None and callable(getattr(holder, "secrets", None))
                             for secret in holder.secrets()])
        try:
            records = RunRecords(model_dir, {
                "model": described, "seed": seed, "batch_size": batch_size,
                "concurrency": concurrency, "engine": engine, "limit": limit,
                "benchmarks": benchmarks, "tasks": tasks, "overwrite": overwrite,
                "planner": planner.describe() if planner is not None else None,
                "settings": settings or {}, "problems": len(problems), "todo": len(todo)},
                redactor)
        except BaseException:
            if scorer is not None:
                scorer.close()
            raise
        bar = Progress(len(problems), verb="edited", enabled=progress)
        bar.update(skipped=len(done))
        by_key = {f"{p.benchmark}/{p.task}/{p.idx:04d}": p for p in todo}
        latencies: list[float] = []
        planner_usage: dict = {}

        def consume(batch_records: list[dict]) -> None:
            for raw in batch_records:
                record = records.log(raw)
                if record["status"] == "ok":
                    summary.written += 1
                    latencies.append(record["latency_s"] / max(1, record.get("batch", 1)))
                else:
                    summary.failures[record["key"]] = record["reason"]
                _add_usage(summary.usage, record.get("usage"))
                if record.get("planner_usage"):
                    _add_usage(planner_usage, record["planner_usage"])
                if scorer is not None:
                    scorer.submit(by_key[raw["key"]])
            bar.update(processed=len(batch_records))

        start = time.perf_counter()
        batches = [todo[k:k + batch_size] for k in range(0, len(todo), batch_size)]
        try:
            if engine == "ray":
                build = cast("Callable[[], EditModel]", model)
                summary.workers, described = run_on_ray(build, batches, outputs_root, folder,
                                                        seed, planner, workers, consume, address)
                if described is not None:
                    records.entry["model"] = described
            else:
                _run_local(cast("EditModel", local_model), batches, outputs_root, folder, seed, planner,
                           concurrency, consume)
        finally:
            summary.seconds = time.perf_counter() - start
            bar.close()
            if local_model is not None and local_model.usage_summary():
                summary.usage = local_model.usage_summary()  # the provider's totals
            latencies.sort()
            records.finish(
                written=summary.written, skipped=summary.skipped,
                failed=len(summary.failures), failures=summary.failures, workers=summary.workers,
                seconds=round(summary.seconds, 3), usage=summary.usage,
                planner_usage=planner_usage or None,
                latency_s={"mean": round(sum(latencies) / len(latencies), 4),
                           "p50": latencies[len(latencies) // 2],
                           "max": latencies[-1]} if latencies else None)
            if scorer is not None:
                scorer.close()
                summary.scored = scorer.scored
    return summary


def _run_local(model: EditModel, batches: Sequence[list[BenchmarkProblem]], outputs_root: Path,
               folder: str, seed: int, planner: Planner | None, concurrency: int,
               consume: Callable[[list[dict]], object]) -> None:
    """Batches through ``model`` on ``concurrency`` worker threads; records consumed as
    batches finish (a request waiting out its back-off does not hold up the others).

    The workers are daemon threads and this (main) thread only waits for their results, so
    Ctrl-C or SIGTERM is handled at once even while a model call hangs: no batch is started
    after it, the batches that finished are recorded, and the exception goes on; a call
    still in flight is abandoned (it writes its files atomically, so at worst a temporary
    file is left, which the next run removes)."""
    todo = deque(batches)
    results: queue.Queue = queue.Queue()
    stop = threading.Event()
    lock = threading.Lock()

    def work() -> None:
        while not stop.is_set():
            with lock:
                if not todo:
                    return
                batch = todo.popleft()
            try:
                results.put((produce_batch(model, batch, outputs_root, folder, seed, planner),
                             None))
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                results.put((None, exc))
                return

    pending = len(todo)
    threads = [threading.Thread(target=work, name=f"paintkit-run-{n}", daemon=True)
               for n in range(min(concurrency, pending))]
    for thread in threads:
        thread.start()
    try:
        while pending:
            try:
                records, error = results.get(timeout=0.5)
            except queue.Empty:
                if not any(t.is_alive() for t in threads) and results.empty():
                    raise RuntimeError("the run's worker threads stopped early") from None
                continue
            pending -= 1
            if error is not None:
                raise error
            consume(records)
    except BaseException:
        stop.set()
        while True:  # record what finished before the stop
            try:
                records, error = results.get_nowait()
            except queue.Empty:
                break
            if error is None:
                try:
                    consume(records)
                except Exception:  # noqa: BLE001 - the first error is the one raised
                    break
        raise

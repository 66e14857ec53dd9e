"""``evaluate``: score every (model, benchmark, task, problem), in parallel, resumably."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from paintkit.arguments import renamed_keywords
from paintkit.eval.device_scoring import check_device
from paintkit.eval.problem import needs_scoring, score_problem
from paintkit.eval.summary import EvalSummary
from paintkit.explainer.problem import check_tolerance
from paintkit.io.folder_lock import FolderLock
from paintkit.io.progress import Progress
from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.layout.benchmark import BenchmarkProblem, benchmark_tasks
from paintkit.layout.errors import LayoutError
from paintkit.layout.outputs import ignored_outputs
from paintkit.layout.problem_stats import LoadedResults, ResultsWriter, load_results, remove_stale_temporaries
from paintkit.layout.results import DIFFS_FOLDER, EVAL_LOCK_NAME, PROBLEM_STATS_NAME
from paintkit.layout.rows import RowKey
from paintkit.loader import load
from paintkit.metrics.similarity import EXTRA_METRICS
from paintkit.metrics.version import METRIC_VERSION, row_metric_version
from paintkit.parallel import map_in_workers
from paintkit.subsets import as_subset, release_scope

if TYPE_CHECKING:
    from paintkit.eval.shard_eval import ShardSet
    from paintkit.subsets import SubsetLike
    from paintkit.types import PathLike

    Work = tuple[BenchmarkProblem, list[str], dict]  # a problem, the models to score, its JSON
    Options = tuple[str, tuple[str, ...], int | None]  # (delta_e, extra_metrics, explain)

__all__ = ["EvalSummary", "check_extra_metrics", "check_one_delta_e", "evaluate",
           "evaluate_shards", "needs_scoring", "same_metric"]

def _score_chunk(chunk: Sequence[Work], outputs_root: Path, images_root: Path | None,
                 delta_e: str = "cie76", extra_metrics: tuple[str, ...] = (),
                 explain: int | None = None) -> list[dict]:
    rows = []
    for problem, models, meta in chunk:
        rows.extend(score_problem(problem, models, outputs_root, images_root, meta,
                                  delta_e=delta_e, extra_metrics=extra_metrics,
                                  explain=explain))
    return rows


def same_metric(row: dict, delta_e: str) -> bool:
    """Whether a results row was scored with ``delta_e`` and this paintkit's
    :data:`~paintkit.metrics.version.METRIC_VERSION` (rows without ``delta_e`` are CIE76)."""
    return row.get("delta_e", "cie76") == delta_e and row_metric_version(row) == METRIC_VERSION


def check_one_delta_e(rows: dict, delta_e: str, results_path: Path) -> None:
    """Refuse to add ``delta_e`` rows to a results file scored with another formula or
    another metric version: their figures do not mix."""
    formulas = sorted({row.get("delta_e", "cie76") for row in rows.values()} - {delta_e})
    if formulas:
        raise LayoutError(f"{results_path}: holds rows scored with delta_e {', '.join(formulas)}; "
                          f"this run uses {delta_e}. Write to another --results folder (one "
                          "formula per results folder) or pass --overwrite to rescore all")
    versions = sorted({row_metric_version(row) for row in rows.values()} - {METRIC_VERSION})
    if versions:
        raise LayoutError(
            f"{results_path}: holds rows scored with metric version "
            f"{', '.join(map(str, versions))}; this paintkit scores with version "
            f"{METRIC_VERSION} (docs/metric-definition.md), whose counts may differ in a few "
            "cells. Pass --overwrite to rescore them all, or write to another --results folder")


def check_extra_metrics(names: str | Iterable[str] | None) -> tuple[str, ...]:
    """``names`` (a sequence or a comma-separated string) as a tuple of known extra metrics."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = tuple(dict.fromkeys(names or ()))
    unknown = [n for n in names if n not in EXTRA_METRICS]
    if unknown:
        raise ValueError(f"extra metrics: unknown {', '.join(unknown)}; expected a "
                         f"comma-separated subset of {', '.join(EXTRA_METRICS)}")
    return names


def existing_rows(results_path: Path, overwrite: bool, delta_e: str, summary: EvalSummary
                  ) -> tuple[LoadedResults, dict, int]:
    """``(loaded, rows, dropped)`` of the results file a run continues (the folder's lock
    held): repairs noted in ``summary``; with ``overwrite`` the rows of another formula or
    metric version go (``dropped`` of them), without it they are refused."""
    remove_stale_temporaries(results_path)
    loaded = load_results(results_path)
    if loaded.needs_rewrite:
        summary.notes.append(loaded.describe(results_path))
    rows = loaded.rows
    dropped = 0
    if overwrite:  # rows of another formula or version go (rescored below)
        rows = {k: r for k, r in rows.items() if same_metric(r, delta_e)}
        dropped = len(loaded.rows) - len(rows)
        if dropped:
            summary.notes.append(f"dropped {dropped} row(s) of another delta_e formula "
                                 "or metric version")
    else:
        check_one_delta_e(rows, delta_e, results_path)
    return loaded, rows, dropped


def evaluate(
    benchmarks_root: PathLike,
    outputs_root: PathLike,
    results: PathLike | None = None,
    *,
    models: list[str] | None = None,
    benchmarks: list[str] | None = None,
    tasks: list[str] | None = None,
    jobs: int = 1,
    save_images: bool = False,
    overwrite: bool = False,
    progress: bool = True,
    chunk_size: int = 8,
    delta_e: str = "cie76",
    extra_metrics: str | Sequence[str] = (),
    explain: int | None = None,
    engine: str = "process",
    address: str | None = None,
    num_gpus: float = 0,
    device: str = "auto",
    subset: SubsetLike | None = None,
    **old: Any,
) -> EvalSummary:
    """Score model outputs in the standard layout (docs/file-layout.md) into
    ``<results>/problem_stats.jsonl`` (``results``: the results folder, ``--results`` of
    ``paintkit eval``; ``out_dir=`` before 0.4.0, accepted with a ``DeprecationWarning``).

    A (model, benchmark) pair is scored when ``<outputs>/<model>/<benchmark>/`` exists;
    then every problem of that benchmark gets a row (absent or broken outputs are scored
    as missing, with a one-line reason in the row). Problems already in the results file
    are skipped unless ``overwrite``, or unless their output appeared or changed since
    (size or mtime). Every problem JSON is read before the first row is scored. One run
    at a time per ``results`` (a lock file). Diff images (``save_images``) go to
    ``<results>/diffs/<model>/<Benchmark>/<task>/<NNNN>_diff_t<TT>.png`` for t = 0, 2, 5, 10,
    with their error segments in ``<NNNN>_segments.json``.

    ``delta_e``: ``"cie76"`` (the benchmark's), ``"cie94"`` or ``"ciede2000"``, recorded in
    every row; a results folder holds one formula (another is refused unless
    ``overwrite``). ``extra_metrics``: e.g. ``("ssim", "psnr")``, added to each row as
    ``extra_metrics`` (rows already scored are not revisited; use ``overwrite``).
    ``explain``: a tolerance 0..10 to add each output's object tags and error segments as
    ``explanation`` (docs/explain.md; rows already scored are not revisited either).
    ``engine``: ``"process"`` (a local pool of ``jobs`` workers, the default) or ``"ray"``
    (Ray Data actors on the cluster at ``address``, or a local instance of ``jobs`` CPUs;
    every node must see the three folders at the same paths): the same rows in the same order.
    ``benchmarks_root`` may also be a shard set (``paintkit generate --format parquet`` or
    ``webdataset``: a folder or fsspec URL with ``manifest.json``), scored with
    ``engine="ray"`` into the rows and order the directory layout of the same suite gets
    (:mod:`paintkit.eval.shard_eval`).
    ``num_gpus`` (Ray): GPUs per scoring actor, which then scores on its GPU; ``device``:
    ``"auto"`` (the actor's GPU if it has one), ``"cpu"`` or ``"cuda"``
    (:func:`paintkit.eval.device_scoring.actor_device`). ``subset``: a ``subset.json`` of
    ``paintkit subset`` (or a :class:`~paintkit.subsets.Subset`): only its problems.

    Raises:
        LayoutError: a tree that breaks the layout, a malformed problem JSON, an unknown
            ``--model`` / ``--benchmark`` / ``--task`` (naming what exists).
        FolderBusyError: another eval is writing into ``results``.
    """
    if old:
        results = renamed_keywords("evaluate", old, {"out_dir": "results"})["results"]
    if results is None:
        raise TypeError("evaluate() missing the results folder (results=)")
    outputs_root, out_dir = Path(outputs_root), Path(results)
    check_delta_e(delta_e)
    extra_metrics = check_extra_metrics(extra_metrics)
    if explain is not None:
        check_tolerance(explain)
    if jobs < 1:
        raise ValueError(f"jobs: expected a positive number of processes, got {jobs}")
    if engine not in ("process", "ray"):
        raise ValueError(f"engine: expected process or ray, got {engine!r}")
    if address is not None and engine != "ray":
        raise ValueError("address needs engine='ray'")
    check_ray_options(engine, num_gpus, device)
    from paintkit.eval.shard_eval import find_shard_set  # skia (paintkit.engines), not ray

    subset = as_subset(subset)
    shards = find_shard_set(benchmarks_root)
    if shards is not None and subset is not None:
        raise ValueError("subset: a shard set is scored whole; score the directory layout")
    if shards is not None:  # Parquet / WebDataset shards: Ray Data reads and scores them
        if engine != "ray":
            raise ValueError(f"{benchmarks_root}: a {shards.format} shard set is scored on Ray "
                             "(engine='ray', paintkit eval --engine ray); or generate the "
                             "directory layout for the local pool")
        return evaluate_shards(shards, outputs_root, out_dir, models=models,
                               benchmarks=benchmarks, tasks=tasks, jobs=jobs,
                               save_images=save_images, overwrite=overwrite, progress=progress,
                               options=(delta_e, extra_metrics, explain), address=address,
                               num_gpus=num_gpus, device=device)
    bench = load(benchmarks_root, kind="benchmark", benchmarks=benchmarks, tasks=tasks)
    model_names = load(outputs_root, kind="outputs", models=models).models
    problems = bench.problems
    items = list(bench) if subset is None else subset.select(bench)
    metas = [cast(dict, item.metadata) for item in items]  # a broken JSON stops the run here
    results_path = out_dir / PROBLEM_STATS_NAME
    summary = EvalSummary(results_path=results_path, models=model_names)
    if subset is None:  # a smaller tree of a released benchmark is said to be one

        summary.subset = release_scope(benchmarks_root)
    else:
        summary.subset = subset.scope()
        if subset.missing(problems):
            summary.notes.append(f"{subset.missing(problems):,} problem(s) of {subset.path} "
                                 f"are not in {benchmarks_root}")
        problems = subset.select(problems)
    filtered = benchmark_tasks(benchmarks_root) - {p.task for p in problems}
    summary.ignored = ignored_outputs(outputs_root, model_names, problems, filtered)
    with FolderLock(out_dir, EVAL_LOCK_NAME, "paintkit eval"):
        loaded, rows, dropped = existing_rows(results_path, overwrite, delta_e, summary)
        work: list[Work] = []
        replace: set = set()
        for problem, meta in zip(problems, metas, strict=True):
            todo = []
            for m in model_names:
                if not (outputs_root / m / problem.benchmark).is_dir():
                    continue
                key = problem.key(m)
                row = rows.get(key)
                if overwrite or needs_scoring(row, problem.output_path(outputs_root, m)):
                    todo.append(m)
                    if row is not None:
                        replace.add(key)
                else:
                    summary.skipped += 1
            if todo:
                work.append((problem, todo, meta))
        if not work and not summary.skipped and problems:
            raise LayoutError(f"{outputs_root}: no model folder holds any of the benchmarks "
                              f"{sorted({p.benchmark for p in problems})}")
        summary.rescored = len(replace)
        keep = [r for k, r in rows.items() if k not in replace] \
            if replace or loaded.needs_rewrite or dropped else None
        _run(work, outputs_root, out_dir, results_path, keep, summary, jobs, save_images,
             progress, chunk_size, (delta_e, extra_metrics, explain),
             (engine, address, num_gpus, device))
    return summary


def _run(work: list[Work], outputs_root: Path, out_dir: Path, results_path: Path,
         keep: list[dict] | None, summary: EvalSummary, jobs: int, save_images: bool,
         progress: bool, chunk_size: int, options: Options = ("cie76", (), None),
         engine: tuple[str, str | None, float, str] = ("process", None, 0, "auto")) -> None:
    images_root = out_dir / DIFFS_FOLDER if save_images else None
    total = sum(len(ms) for _, ms, _ in work)
    bar = Progress(summary.skipped + total, verb="scored", enabled=progress)
    bar.update(skipped=summary.skipped)
    start = time.perf_counter()
    with ResultsWriter(results_path, keep=keep) as writer:
        def consume(rows: list[dict]) -> None:
            for row in rows:
                writer.write(row)
                summary.scored += 1
                summary.missing += not row["has_output"]
            bar.update(processed=len(rows))

        if engine[0] == "ray":
            _run_on_ray(work, outputs_root, images_root, options, consume, jobs, *engine[1:])
        elif jobs == 1 or len(work) <= 1:
            for item in work:
                consume(_score_chunk([item], outputs_root, images_root, *options))
        else:
            chunks = [work[k:k + chunk_size] for k in range(0, len(work), chunk_size)]
            map_in_workers(_score_chunk, chunks, (outputs_root, images_root, *options), jobs,
                           consume)
    bar.close()
    summary.seconds = time.perf_counter() - start



def check_ray_options(engine: str, num_gpus: float, device: str) -> None:
    """One-line ``ValueError`` for GPU options that are wrong or need ``engine="ray"``."""
    check_device(device)
    if not isinstance(num_gpus, int | float) or not num_gpus >= 0:
        raise ValueError(f"num_gpus: expected a number >= 0, got {num_gpus!r}")
    if engine != "ray" and (num_gpus or device != "auto"):
        raise ValueError("num_gpus and device apply to engine='ray' (the process pool scores "
                         "on the CPU)")


def _run_on_ray(work: list[Work], outputs_root: Path, images_root: Path | None, options: Options,
                consume: Callable[[list[dict]], None], jobs: int, address: str | None,
                num_gpus: float = 0, device: str = "auto") -> None:
    """Score ``work`` with Ray Data (:func:`paintkit.data.ray_data.score_on_ray`)."""
    from paintkit.engines.ray_engine import connect  # ray: only with engine="ray"
    from paintkit.eval.ray_scoring import import_ray, score_on_ray  # ray: only with engine="ray"

    ray = import_ray()
    owns = not ray.is_initialized()
    if owns:
        connect(ray, address, jobs)
    try:
        score_on_ray(work, outputs_root, images_root, options, consume, num_gpus=num_gpus,
                     device=device)
    finally:
        if owns:
            ray.shutdown()


def evaluate_shards(shards: ShardSet, outputs_root: PathLike, out_dir: PathLike, *,
                    models: list[str] | None = None, benchmarks: list[str] | None = None,
                    tasks: list[str] | None = None, jobs: int = 1, save_images: bool = False,
                    overwrite: bool = False, progress: bool = True,
                    options: Options = ("cie76", (), None), address: str | None = None,
                    num_gpus: float = 0, device: str = "auto",
                    concurrency: int | None = None) -> EvalSummary:
    """Score ``shards`` (a :class:`~paintkit.eval.shard_eval.ShardSet`) into
    ``out_dir/problem_stats.jsonl`` on Ray (:mod:`paintkit.eval.shard_eval`); the arguments
    are :func:`evaluate`'s."""
    from paintkit.eval.ray_scoring import SCORE_BATCH  # ray: only for a shard set
    from paintkit.eval.shard_eval import (  # ray, skia (paintkit.engines)
        ScoreShardSet,
        ray_session,
        read_shards,
        row_state,
        scoring_actors,
        write_sorted_rows,
    )

    outputs_root, out_dir = Path(outputs_root), Path(out_dir)
    benchmark = shards.benchmark
    if benchmarks and benchmark not in benchmarks:
        raise LayoutError(f"{shards.target}: no benchmark named {', '.join(sorted(benchmarks))}; "
                          f"the shard set is {benchmark}")
    model_names = load(outputs_root, kind="outputs", models=models).models
    scored_models = [m for m in model_names if (outputs_root / m / benchmark).is_dir()]
    if not scored_models:
        raise LayoutError(f"{outputs_root}: no model folder holds the benchmark {benchmark}")
    results_path = out_dir / PROBLEM_STATS_NAME
    summary = EvalSummary(results_path=results_path, models=model_names)
    delta_e, extra_metrics, explain = options
    with FolderLock(out_dir, EVAL_LOCK_NAME, "paintkit eval"), ray_session(address, jobs) as ray:
        loaded, rows, dropped = existing_rows(results_path, overwrite, delta_e, summary)
        done = {(k.model, k.task, k.idx): row_state(r) for k, r in rows.items()
                if k.benchmark == benchmark and k.model in scored_models}
        start = time.perf_counter()
        actors, actor_cpus = scoring_actors(ray, concurrency, num_gpus)
        scored = read_shards(ray, shards).map_batches(
            ScoreShardSet, batch_size=SCORE_BATCH, concurrency=actors,
            num_cpus=actor_cpus, **({"num_gpus": num_gpus} if num_gpus > 0 else {}),
            fn_constructor_kwargs={
                "outputs_root": str(outputs_root), "benchmark": benchmark,
                "models": scored_models, "done": done, "overwrite": overwrite, "tasks": tasks,
                "images_root": str(out_dir / DIFFS_FOLDER) if save_images else None,
                "delta_e": delta_e, "extra_metrics": tuple(extra_metrics), "explain": explain,
                "device": device,
            }).sort(["task", "idx"])
        # Blocks leave the sort in order; this dataset's iterators keep that order. The sort
        # has a partition per shard (Ray Data's default, 200, is for big data).
        scored.context.execution_options.preserve_order = True
        scored.context.default_hash_shuffle_parallelism = max(1, len(shards.shards))
        if not progress:
            scored.context.enable_progress_bars = False
        scored = scored.materialize()
        replace: set[RowKey] = set()
        seen: set[str] = set()
        total = 0
        for batch in scored.select_columns(["task", "idx", "scored", "skipped", "replaced"]
                                           ).iter_batches(batch_size=None, batch_format="numpy"):
            summary.skipped += int(batch["skipped"].sum())
            total += int(batch["scored"].sum())
            for task, idx, models_json in zip(batch["task"], batch["idx"].tolist(),
                                              batch["replaced"], strict=True):
                seen.add(str(task))
                replace.update(RowKey(m, benchmark, str(task), idx)
                               for m in json.loads(models_json))
        unknown = sorted(set(tasks or ()) - seen)
        if unknown:
            raise LayoutError(f"{shards.target}: no task folder named {', '.join(unknown)} in "
                              "the shard set")
        summary.rescored = len(replace)
        keep = [r for k, r in rows.items() if k not in replace] \
            if replace or loaded.needs_rewrite or dropped else None
        write_sorted_rows(scored, results_path, keep, summary, Progress(
            summary.skipped + total, verb="written", enabled=progress))
        summary.seconds = time.perf_counter() - start
    return summary


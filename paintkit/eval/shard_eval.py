"""``paintkit eval --engine ray`` on a shard set: Parquet or WebDataset shards of problems
(``paintkit generate --format parquet|webdataset``, in a folder or at an fsspec URL) scored
where they lie, into the ``problem_stats.jsonl`` the directory layout of the same suite gets.

Ray Data reads the shards (``read_parquet`` / ``read_webdataset``), :class:`ScoreShardSet`
actors decode each problem's input and answer from its row and score every model's output
(``<outputs>/<model>/<benchmark>/<task>/NNNN_output.png``), and Ray Data sorts the results
by ``(task folder, idx)``: the order in which ``paintkit eval`` walks a benchmark folder, so
the file is byte for byte the local eval's of the same problems. Resuming works as it does
locally (the actors skip the (model, problem) pairs already scored whose output did not
change). The driver (:func:`paintkit.eval.runner.evaluate_shards`) reads only
``manifest.json`` and writes only the results; Ray Data owns reading, scheduling, retries
and the sort.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.engines.work import single_thread_worker
from paintkit.eval.device_scoring import actor_device, scorer_for
from paintkit.eval.problem import needs_scoring, score_problem
from paintkit.eval.ray_scoring import actor_count, import_ray
from paintkit.io.images import ImageDecodeError, decode_rgb_bytes
from paintkit.io.jsonl import parse_json
from paintkit.layout.benchmark import BenchmarkProblem
from paintkit.layout.errors import LayoutError
from paintkit.layout.problem_stats import ResultsWriter
from paintkit.storage import Target, is_url
from paintkit.writers.manifest import MANIFEST_NAME

if TYPE_CHECKING:
    from paintkit.eval.summary import EvalSummary
    from paintkit.io.progress import Progress

#: Shard formats scored from their rows, and their file extension.
SHARD_FORMATS = {"parquet": "parquet", "webdataset": "tar"}


@dataclass(frozen=True)
class ShardSet:
    """A finished shard set: where it is, its format, benchmark name and shard files."""

    target: Target
    format: str
    benchmark: str
    shards: tuple[str, ...]
    problems: int

    def paths_and_filesystem(self):
        """``(paths, filesystem)`` for Ray Data's readers: local paths, or the URL's
        filesystem paths with fsspec's filesystem wrapped for pyarrow."""
        paths = [self.target.location(name) for name in self.shards]
        if self.target.local:
            return paths, None
        from pyarrow.fs import FSSpecHandler, PyFileSystem

        return paths, PyFileSystem(FSSpecHandler(self.target.filesystem()))


def find_shard_set(root) -> ShardSet | None:
    """The shard set at ``root`` (an fsspec URL, or a folder holding ``shard-000000.parquet``
    or ``.tar`` and ``manifest.json``), or None for anything else (a benchmark folder).

    Raises:
        LayoutError: a URL that holds no finished Parquet / WebDataset shard set, or a
            shard set whose manifest is unreadable, incomplete or of a combined suite.
    """
    if not is_url(root):
        folder = Path(root)
        if not any((folder / f"shard-000000.{ext}").is_file() for ext in SHARD_FORMATS.values()):
            return None
    try:
        target = Target.parse(root)
    except ValueError as exc:
        raise LayoutError(str(exc).replace("--out ", "")) from None
    data = target.read_bytes(MANIFEST_NAME)
    if data is None:
        raise LayoutError(f"{target.display(MANIFEST_NAME)}: missing; a shard set to score is one "
                          "'paintkit generate --format parquet|webdataset' finished")
    try:
        manifest = parse_json(data.decode("utf-8"))
        layout, suite, files = manifest["layout"], manifest["suite"], manifest["files"]
        format = layout["format"]
    except (ValueError, KeyError, TypeError) as exc:
        raise LayoutError(f"{target.display(MANIFEST_NAME)}: not a paintkit manifest ({exc})") from None
    if format not in SHARD_FORMATS:
        raise LayoutError(f"{target}: {format} shards are not scored from their rows; score "
                          f"{' or '.join(SHARD_FORMATS)} shards or the directory layout")
    if not manifest.get("complete"):
        raise LayoutError(f"{target}: the shard set is incomplete (its paintkit generate run "
                          "did not finish); run that command again first")
    benchmark = suite.get("benchmark") if isinstance(suite, dict) else None
    if not isinstance(benchmark, str) or benchmark in ("", ".") or suite.get("parts"):
        raise LayoutError(f"{target}: a shard set of several benchmarks; score each "
                          "benchmark's shard set on its own")
    ext = f".{SHARD_FORMATS[format]}"
    shards = tuple(sorted(name for name in files if name.endswith(ext)))
    return ShardSet(target, format, benchmark, shards, int(suite.get("problems", 0)))


def row_state(row: dict) -> dict:
    """What :func:`~paintkit.eval.runner.needs_scoring` reads of an existing row."""
    if "output_file" in row:
        return {"output_file": row["output_file"]}
    return {"has_output": bool(row.get("has_output"))}


class ScoreShardSet:
    """``map_batches`` class of :func:`~paintkit.eval.runner.evaluate_shards`: rows of
    Parquet shards (``input`` / ``answer`` structs, ``metadata`` JSON) or of WebDataset
    shards read with ``decoder=None`` (``input.png``, ``answer.png``, ``json`` bytes) -> per problem
    ``task`` (its folder), ``idx``, ``rows`` (JSON list of the rows scored now, ``scored``
    of them), ``skipped`` (models whose row stands) and ``replaced`` (JSON list of models whose
    earlier row the new one replaces).

    ``done``: ``{(model, task, idx): state}`` of the rows already in the results file (see
    :func:`row_state`); ``tasks``: task folders to score (None: all).
    """

    def __init__(self, outputs_root, benchmark: str, models: list[str], *, done=None,
                 overwrite: bool = False, tasks=None, images_root=None, delta_e="cie76",
                 extra_metrics=(), explain=None, device: str = "auto"):
        single_thread_worker()
        self.scorer = scorer_for(actor_device(device))
        self.outputs_root, self.benchmark = Path(outputs_root), benchmark
        self.models, self.done, self.overwrite = list(models), dict(done or {}), overwrite
        self.tasks = None if tasks is None else set(tasks)
        self.images_root = None if images_root is None else Path(images_root)
        self.options = {"delta_e": delta_e, "extra_metrics": tuple(extra_metrics),
                        "explain": explain}

    @staticmethod
    def _problem(batch: dict, i: int) -> tuple[str, dict, np.ndarray, np.ndarray]:
        if "metadata" in batch:  # Parquet
            key, meta = str(batch["key"][i]), parse_json(str(batch["metadata"][i]))
            blobs = batch["input"][i]["bytes"], batch["answer"][i]["bytes"]
        else:  # WebDataset
            key, meta = str(batch["__key__"][i]), parse_json(bytes(batch["json"][i]).decode())
            blobs = bytes(batch["input.png"][i]), bytes(batch["answer.png"][i])
        inp = decode_rgb_bytes(blobs[0], f"{key} input")
        answer = decode_rgb_bytes(blobs[1], f"{key} answer")
        if inp.shape != answer.shape:
            raise ImageDecodeError(f"{key}: answer is {answer.shape[1]}x{answer.shape[0]} "
                                   f"but the input is {inp.shape[1]}x{inp.shape[0]}")
        return key, meta, inp, answer

    def __call__(self, batch: dict) -> dict:
        out: dict[str, list] = {"task": [], "idx": [], "rows": [], "scored": [], "skipped": [],
                                "replaced": []}
        first = "metadata" if "metadata" in batch else "json"
        for i in range(len(batch[first])):
            key, meta, inp, answer = self._problem(batch, i)
            task, idx = str(meta["task"]), int(meta["idx"])
            if self.tasks is not None and task not in self.tasks:
                continue
            problem = BenchmarkProblem(self.benchmark, task, idx, Path(key), f"{idx:03d}")
            todo, replaced = [], []
            for model in self.models:
                state = self.done.get((model, task, idx))
                if self.overwrite or needs_scoring(state,
                                                   problem.output_path(self.outputs_root, model)):
                    todo.append(model)
                    if state is not None:
                        replaced.append(model)
            rows = score_problem(problem, todo, self.outputs_root, self.images_root, meta,
                                 images=(inp, answer), scorer=self.scorer,
                                 **self.options) if todo else []
            for name, value in (("task", task), ("idx", idx), ("rows", json.dumps(rows)),
                                ("scored", len(todo)), ("skipped", len(self.models) - len(todo)),
                                ("replaced", json.dumps(replaced))):
                out[name].append(value)
        kinds = {"task": str, "idx": np.int64, "scored": np.int64, "skipped": np.int64}
        return {name: np.array(values, dtype=kinds.get(name, object))
                for name, values in out.items()}


@contextmanager
def ray_session(address: str | None, jobs: int):
    """The Ray instance this process joined, or one :func:`connect` starts (and stops)."""
    from paintkit.engines.ray_engine import connect  # ray, skia (the engines package)

    ray = import_ray()
    owns = not ray.is_initialized()
    if owns:
        connect(ray, address, jobs)
    try:
        yield ray
    finally:
        if owns:
            ray.shutdown()


def read_shards(ray, shards: ShardSet):
    """The shard set as a ``ray.data.Dataset`` of its rows (PNG bytes undecoded)."""
    paths, filesystem = shards.paths_and_filesystem()
    blocks = max(1, len(paths))  # a block per shard
    if shards.format == "parquet":
        return ray.data.read_parquet(paths, filesystem=filesystem, override_num_blocks=blocks
                                     ).select_columns(["key", "input", "answer", "metadata"])
    return ray.data.read_webdataset(paths, filesystem=filesystem, decoder=None,
                                    override_num_blocks=blocks)


def scoring_actors(ray, concurrency: int | None, num_gpus: float) -> tuple[int, float]:
    """``(actors, CPUs per actor)``: one CPU each and one per CPU but one (``concurrency``
    if given; with ``num_gpus`` as many as the GPUs hold), so that a CPU stays free for the
    tasks Ray Data runs beside them (listing and reading the shards, the sort): actors
    holding every CPU would starve the reads that feed them. Where that CPU is not there
    the actors share what is left (none on a one-CPU instance: they then share its CPU)."""
    cpus = float(ray.cluster_resources().get("CPU", 1))
    actors = actor_count(ray, concurrency, num_gpus) if concurrency or num_gpus > 0 \
        else max(1, int(cpus) - 1)
    if cpus - actors >= 1:
        return actors, 1.0
    return actors, max(0.0, (cpus - 1) / actors)


def write_sorted_rows(scored: Any, results_path: Path, keep: list[dict] | None,
                      summary: EvalSummary, bar: Progress) -> None:
    """Append the rows of ``scored`` (the materialized dataset :class:`ScoreShardSet` made,
    sorted by task and index) to the results file, checking the order; counts go into
    ``summary`` and ``bar``."""
    bar.update(skipped=summary.skipped)
    last = None
    with ResultsWriter(results_path, keep=keep) as writer:
        for batch in scored.select_columns(["task", "idx", "rows"]).iter_batches(
                batch_size=None, batch_format="numpy"):
            for task, idx, rows_json in zip(batch["task"], batch["idx"].tolist(),
                                            batch["rows"], strict=True):
                if last is not None and (str(task), idx) < last:
                    raise RuntimeError(f"Ray Data returned {task}/{idx} after {last}")
                last = (str(task), idx)
                rows = json.loads(rows_json)
                for row in rows:
                    writer.write(row)
                    summary.scored += 1
                    summary.missing += not row["has_output"]
                bar.update(processed=len(rows))
    bar.close()

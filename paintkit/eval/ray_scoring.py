"""``paintkit eval``'s scoring as Ray Data: a ``map_batches`` class and the runner of
``paintkit eval --engine ray`` (re-exported by :mod:`paintkit.data.ray_data`).

:class:`ScoreProblems` is built once per actor (``concurrency=N``: its Numba kernels compile
once) and called on batches of :func:`problem_rows`; it returns the rows ``paintkit eval``
writes, as JSON. :func:`score_on_ray` hands them back in work order, so
``problem_stats.jsonl`` is the same file as the local pool's. Ray Data owns scheduling,
retries and back-pressure; nothing here schedules.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from paintkit.engines.work import single_thread_worker
from paintkit.eval.device_scoring import actor_device, check_device, scorer_for
from paintkit.eval.problem import score_problem
from paintkit.io.images import ImageDecodeError, decode_rgb_bytes
from paintkit.layout.benchmark import BenchmarkProblem

#: Problems per scoring batch.
SCORE_BATCH = 4


def import_ray():
    """The ``ray`` module with Ray Data, or a one-line ``ValueError`` saying what to install."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise ValueError("Ray Data needs Ray: pip install 'paintkit[ray]'") from None
    return ray


def problem_rows(work: Iterable) -> list[dict]:
    """Rows of a scoring dataset from ``(BenchmarkProblem, models, meta)`` work items (what
    :func:`paintkit.eval.evaluate` plans): ``order``, where the problem's files are, the
    models to score and its JSON."""
    return [{"order": order, "folder": str(p.folder), "benchmark": p.benchmark, "task": p.task,
             "idx": int(p.idx), "stem": p.stem, "models": json.dumps(list(models)),
             "meta": json.dumps(meta)}
            for order, (p, models, meta) in enumerate(work)]


class ScoreProblems:
    """``map_batches`` class: score batches of :func:`problem_rows` against ``outputs_root``.

    Returns ``{"order": int64, "rows": JSON list of the problem's result rows}`` per input
    row; the rows are :func:`paintkit.eval.problem.score_problem`'s, so they equal
    ``paintkit eval``'s. ``images_root``: also write diff images there (a shared folder).
    ``device``: ``"auto"`` scores on the GPU Ray gave the actor (``map_batches(...,
    num_gpus=1)``), else on the CPU; ``"cpu"`` / ``"cuda"`` force one
    (:func:`paintkit.eval.device_scoring.actor_device`). The rows are the same on both.
    """

    def __init__(self, outputs_root, images_root=None, delta_e: str = "cie76",
                 extra_metrics: tuple[str, ...] = (), explain: int | None = None,
                 device: str = "auto"):
        single_thread_worker()
        self.device = actor_device(device)
        self.scorer = scorer_for(self.device)
        self.outputs_root = Path(outputs_root)
        self.images_root = None if images_root is None else Path(images_root)
        self.options = {"delta_e": delta_e, "extra_metrics": tuple(extra_metrics),
                        "explain": explain}

    def __call__(self, batch: dict) -> dict:
        orders, rows = [], []
        for i in range(len(batch["order"])):
            problem = BenchmarkProblem(str(batch["benchmark"][i]), str(batch["task"][i]),
                                       int(batch["idx"][i]), Path(str(batch["folder"][i])),
                                       str(batch["stem"][i]))
            scored = score_problem(problem, json.loads(batch["models"][i]), self.outputs_root,
                                   self.images_root, json.loads(batch["meta"][i]),
                                   scorer=self.scorer, **self.options)
            orders.append(int(batch["order"][i]))
            rows.append(json.dumps(scored))
        return {"order": np.array(orders, dtype=np.int64), "rows": np.array(rows, dtype=object)}


class ScoreShardRows:
    """``map_batches`` class for the rows of a Parquet shard set (``paintkit generate --format
    parquet``, read with ``ray.data.read_parquet``): scores every problem's outputs in
    ``<outputs_root>/<model>/<benchmark>/<task>/NNNN_output.png`` for each of ``models``.

    Returns ``{"key": problem id, "rows": JSON list of result rows}``: the rows ``paintkit
    eval`` writes for the same problems in the directory layout (task folder and ``idx``
    come from each row's metadata; ``benchmark`` is the suite's, e.g. ``PaintBench``).
    ``device``: as :class:`ScoreProblems`'.
    """

    def __init__(self, outputs_root, benchmark: str, models: list[str], delta_e: str = "cie76",
                 extra_metrics: tuple[str, ...] = (), explain: int | None = None,
                 device: str = "auto"):
        single_thread_worker()
        self.device = actor_device(device)
        self.scorer = scorer_for(self.device)
        self.outputs_root, self.benchmark = Path(outputs_root), benchmark
        self.models = list(models)
        self.options = {"delta_e": delta_e, "extra_metrics": tuple(extra_metrics),
                        "explain": explain}

    def __call__(self, batch: dict) -> dict:
        keys, rows = [], []
        for i in range(len(batch["key"])):
            key = str(batch["key"][i])
            meta = json.loads(batch["metadata"][i])
            inp = decode_rgb_bytes(batch["input"][i]["bytes"], f"{key} input")
            answer = decode_rgb_bytes(batch["answer"][i]["bytes"], f"{key} answer")
            if inp.shape != answer.shape:
                raise ImageDecodeError(f"{key}: answer is {answer.shape[1]}x{answer.shape[0]} "
                                       f"but the input is {inp.shape[1]}x{inp.shape[0]}")
            idx = int(meta["idx"])
            problem = BenchmarkProblem(self.benchmark, str(meta["task"]), idx,
                                       Path(key), f"{idx:03d}")
            keys.append(key)
            rows.append(json.dumps(score_problem(problem, self.models, self.outputs_root,
                                                 None, meta, images=(inp, answer),
                                                 scorer=self.scorer, **self.options)))
        return {"key": np.array(keys, dtype=object), "rows": np.array(rows, dtype=object)}


def actor_count(ray, concurrency: int | None, num_gpus: float) -> int:
    """Scoring actors to start: ``concurrency``, else one per CPU of the cluster, or with
    ``num_gpus`` per actor as many as its GPUs hold."""
    if concurrency:
        return concurrency
    resources = ray.cluster_resources()
    if num_gpus > 0:
        gpus = float(resources.get("GPU", 0))
        if gpus < num_gpus:
            raise ValueError(f"num_gpus={num_gpus:g} per scoring actor, but the Ray cluster has "
                             f"{gpus:g} GPUs")
        return max(1, int(gpus // num_gpus))
    return max(1, int(resources.get("CPU", 1)))


def score_on_ray(work: list, outputs_root, images_root, options: tuple,
                 consume: Callable[[list[dict]], None], *, concurrency: int | None = None,
                 batch_size: int = SCORE_BATCH, num_gpus: float = 0,
                 device: str = "auto") -> None:
    """``consume(rows)`` for every work item, in work order, scored by :class:`ScoreProblems`
    actors on the Ray cluster this process joined (``ray.init`` first). ``num_gpus``: GPUs
    per actor (fractions share one), which then score on them (``device``)."""
    ray = import_ray()
    check_device(device)
    if not work:
        return
    delta_e, extra_metrics, explain = options
    actors = actor_count(ray, concurrency, num_gpus)
    items = problem_rows(work)
    ds = ray.data.from_items(items, override_num_blocks=max(1, -(-len(items) // batch_size)))
    scored = ds.map_batches(
        ScoreProblems, batch_size=batch_size, concurrency=actors, num_cpus=1,
        **({"num_gpus": num_gpus} if num_gpus > 0 else {}),
        fn_constructor_kwargs={"outputs_root": str(outputs_root),
                               "images_root": None if images_root is None else str(images_root),
                               "delta_e": delta_e, "extra_metrics": tuple(extra_metrics),
                               "explain": explain, "device": device})
    waiting: dict[int, list[dict]] = {}
    next_order = 0
    for batch in scored.iter_batches(batch_size=None, batch_format="numpy"):
        for order, rows in zip(batch["order"].tolist(), batch["rows"].tolist(), strict=True):
            waiting[int(order)] = json.loads(rows)
        while next_order in waiting:  # results may arrive out of order; rows go in order
            consume(waiting.pop(next_order))
            next_order += 1
    if waiting or next_order != len(items):
        raise RuntimeError(f"Ray Data returned {next_order} of {len(items)} problems")

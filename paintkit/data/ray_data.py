"""paintkit as Ray Data: a suite as a ``ray.data.Dataset``, scoring as a ``map_batches`` class.

>>> import ray, paintkit
>>> from paintkit.data.ray_data import problem_dataset
>>> ds = problem_dataset(paintkit.suites.Suite(tasks=["translation"], per_cell=2))  # doctest: +SKIP
>>> ds.write_parquet("s3://bucket/corpus")  # doctest: +SKIP

:func:`problem_dataset` generates on the workers: ``ray.data.range(len(suite))`` mapped
batch by batch to problems, with the columns of a Parquet shard (``index``, ``key``, ``input``
and ``answer`` as PNG bytes, ``instruction``, ``task``, ``mode``, ``visual_condition``,
``category``, ``metadata`` JSON). The bytes of problem ``i`` are those of every other engine.
A batch holding problems with reference images (docs/references.md) has one more column,
``references``: per problem a list of ``{"bytes": PNG, "role": str}`` in the order the model
gets them (empty for a one-image problem of that batch); a batch without has no such column.

:class:`ScoreProblems` (from :mod:`paintkit.eval.ray_scoring`) is the unit of ``paintkit
eval`` as a callable class: Ray Data builds one per actor (``concurrency=N``), whose Numba
kernels compile once, and calls it on batches of problems of a benchmark tree
(:func:`problem_rows`); it returns the rows ``paintkit eval`` writes, as JSON.
:func:`score_on_ray` runs the two together behind ``paintkit eval --engine ray``.
Ray Data owns scheduling, retries and back-pressure; nothing here schedules.
"""

from __future__ import annotations

import json

import numpy as np

from paintkit.engines.work import single_thread_worker
from paintkit.eval.ray_scoring import (
    ScoreProblems,
    ScoreShardRows,
    import_ray,
    problem_rows,
    score_on_ray,
)
from paintkit.suites import build_problem
from paintkit.writers.record import COLUMNS, encode_problem

#: Problems per generated batch (one batch is one Ray Data task's block).
GENERATE_BATCH = 8


def generate_batch(batch: dict, suite, png_encoder: str = "auto") -> dict:
    """``map_batches`` function: the problems of ``batch["id"]`` (suite indices) as columns."""
    single_thread_worker()
    out: dict[str, list] = {name: [] for name in ("index", "key", "input", "answer", "instruction",
                                                  *COLUMNS, "metadata")}
    for index in np.asarray(batch["id"]).tolist():
        spec = suite.spec(int(index))
        encoded = encode_problem(spec, build_problem(suite, spec), png_encoder=png_encoder,
                                 json_indent=None)
        out["index"].append(int(index))
        out["key"].append(encoded.key)
        out["input"].append(encoded.input_png)
        out["answer"].append(encoded.answer_png)
        out["instruction"].append(encoded.instruction)
        out["metadata"].append(encoded.metadata_json.decode())
        for column in COLUMNS:
            out[column].append(getattr(encoded, column))
        roles = [ref.get("role") for ref in json.loads(encoded.metadata_json).get(
            "references", [])] if encoded.reference_pngs else []
        out.setdefault("references", []).append(
            [{"bytes": png, "role": role} for png, role in zip(encoded.reference_pngs, roles,
                                                                strict=True)])
    references = out.pop("references", [])
    columns = {name: np.array(values, dtype=np.int64 if name == "index" else object)
               for name, values in out.items()}
    if any(references):  # one list a row (np.array would make a 2-D array of equal lists)
        columns["references"] = np.empty(len(references), dtype=object)
        columns["references"][:] = references
    return columns


def problem_dataset(suite, *, batch_size: int = GENERATE_BATCH, concurrency: int | None = None,
                    png_encoder: str = "auto"):
    """``suite`` (any :class:`~paintkit.suites.ProblemSuite`) as a ``ray.data.Dataset`` of
    problems generated on the workers (columns: see the module docstring)."""
    ray = import_ray()
    ds = ray.data.range(len(suite), override_num_blocks=max(1, -(-len(suite) // batch_size)))
    return ds.map_batches(generate_batch, batch_size=batch_size, concurrency=concurrency,
                          fn_kwargs={"suite": suite, "png_encoder": png_encoder}, num_cpus=1)


__all__ = ["GENERATE_BATCH", "ScoreProblems", "ScoreShardRows", "generate_batch",
           "problem_dataset", "problem_rows", "score_on_ray"]

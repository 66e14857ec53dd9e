"""paintkit as Ray Data: a suite as a ``ray.data.Dataset``, scoring as a ``map_batches`` class.

>>> import ray, paintkit
>>> from paintkit.data.ray_data import problem_dataset
>>> ds = problem_dataset(paintkit.suites.Suite(tasks=["translation"], per_cell=2))  # doctest: +SKIP
>>> ds.write_parquet("s3://bucket/corpus")  # doctest: +SKIP

:func:`problem_dataset` generates on the workers: ``ray.data.range(len(suite))`` mapped
batch by batch to problems, with the columns of a Parquet shard (``index``, ``key``, ``input``
and ``answer`` as PNG bytes, ``instruction``, ``task``, ``mode``, ``visual_condition``,
``category``, ``metadata`` JSON). The bytes of problem ``i`` are those of every other engine.
A suite whose problems can have reference images (docs/references.md) gets one more column,
``references``, in every block: per problem a list of ``{"bytes": PNG, "role": str}`` in the
order the model gets them, empty for a one-image problem. PaintBench, TinyGrafixBench,
compositional and guidance suites (and suites combined only from them) never get it
(their ``reference_images`` attribute, read by
:func:`~paintkit.suites.protocol.may_hold_references`); a suite class of your own without that
attribute gets it unless ``problem_dataset(..., references=False)`` (then a problem with reference images is a
ValueError). Every block has the same Arrow schema (:func:`dataset_schema`), so
``write_parquet`` writes files that read back as one table.

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
from paintkit.suites.protocol import may_hold_references
from paintkit.writers.record import COLUMNS, encode_problem

#: Problems per generated batch (one batch is one Ray Data task's block).
GENERATE_BATCH = 8


def dataset_schema(references: bool):
    """The Arrow schema of every block of :func:`problem_dataset` (``references``: with the
    ``references`` column, a list of ``{"bytes": binary, "role": string}``)."""
    import pyarrow as pa

    columns = [("index", pa.int64()), ("key", pa.string()), ("input", pa.binary()),
               ("answer", pa.binary()), ("instruction", pa.string()),
               *((name, pa.string()) for name in COLUMNS), ("metadata", pa.string())]
    if references:
        columns.append(("references", pa.list_(pa.struct([("bytes", pa.binary()),
                                                          ("role", pa.string())]))))
    return pa.schema(columns)


def generate_batch(batch: dict, suite, png_encoder: str = "auto",
                   references: bool | None = None) -> dict:
    """``map_batches`` function: the problems of ``batch["id"]`` (suite indices) as columns
    (numpy arrays, one value a row); ``references`` (default:
    :func:`~paintkit.suites.protocol.may_hold_references`):
    with the ``references`` column, else a problem with reference images is a ValueError."""
    single_thread_worker()
    if references is None:
        references = may_hold_references(suite)
    out: dict[str, list] = {name: [] for name in dataset_schema(references).names}
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
        if references:
            roles = [ref.get("role") for ref in json.loads(encoded.metadata_json).get(
                "references", [])] if encoded.reference_pngs else []
            out["references"].append(
                [{"bytes": png, "role": role} for png, role in zip(encoded.reference_pngs, roles,
                                                                    strict=True)])
        elif encoded.reference_pngs:
            raise ValueError(f"problem {encoded.key} has reference images but the dataset has "
                             "no references column (references=False)")
    cells = out.pop("references", None)
    columns = {name: np.array(values, dtype=np.int64 if name == "index" else object)
               for name, values in out.items()}
    if cells is not None:  # one list a row (np.array would make a 2-D array of equal lists)
        columns["references"] = np.empty(len(cells), dtype=object)
        columns["references"][:] = cells
    return columns


def generate_table(batch: dict, suite, png_encoder: str = "auto",
                   references: bool | None = None):
    """:func:`generate_batch` as a ``pyarrow.Table`` of :func:`dataset_schema`: one schema
    for every block, whichever problems it holds (``references`` as there)."""
    import pyarrow as pa

    if references is None:
        references = may_hold_references(suite)
    columns = generate_batch(batch, suite, png_encoder, references)
    schema = dataset_schema(references)
    return pa.Table.from_arrays([pa.array(list(columns[name]), type=field.type)
                                 for name, field in zip(schema.names, schema, strict=True)],
                                schema=schema)


def problem_dataset(suite, *, batch_size: int = GENERATE_BATCH, concurrency: int | None = None,
                    png_encoder: str = "auto", references: bool | None = None):
    """``suite`` (any :class:`~paintkit.suites.ProblemSuite`) as a ``ray.data.Dataset`` of
    problems generated on the workers (columns: see the module docstring); ``references``
    (default: :func:`~paintkit.suites.protocol.may_hold_references`): with the ``references``
    column."""
    ray = import_ray()
    if references is None:
        references = may_hold_references(suite)
    ds = ray.data.range(len(suite), override_num_blocks=max(1, -(-len(suite) // batch_size)))
    return ds.map_batches(generate_table, batch_size=batch_size, concurrency=concurrency,
                          fn_kwargs={"suite": suite, "png_encoder": png_encoder,
                                     "references": bool(references)}, num_cpus=1)


__all__ = ["GENERATE_BATCH", "ScoreProblems", "ScoreShardRows",
           "dataset_schema", "generate_batch", "generate_table",
           "problem_dataset", "problem_rows", "score_on_ray"]

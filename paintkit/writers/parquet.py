"""Parquet shards: ``shard-NNNNNN.parquet``, one row per problem.

Columns: ``key`` (problem id), ``input`` and ``answer`` (Hugging Face ``Image`` structs
``{bytes: PNG, path: "<key>_input.png"}``), ``instruction``, ``task``, ``mode``,
``visual_condition``, ``category`` and ``metadata`` (the problem JSON). The schema carries
the Hugging Face feature description, so ``datasets.load_dataset("parquet",
data_files=...)`` decodes ``input`` / ``answer`` as images. Row groups of
:data:`ROW_GROUP` rows keep readers' memory small; PNG columns are stored uncompressed
(they are compressed already), the others with zstd.

A shard that holds problems with reference images (docs/references.md) has one more column,
``references`` after ``answer``: per row a list of ``{"image": {bytes: PNG, path:
"<key>_reference_<n>.png"}, "role": str}`` in the order the model gets them (empty for a
one-image problem in such a shard), which ``datasets`` decodes as a list of images with their
roles. Every shard of a suite whose problems can have reference images
(:func:`~paintkit.suites.protocol.may_hold_references`: the references and style transfer
suites, a combined suite with such a part, a suite without a ``reference_images``
attribute) has the column, so the shards read back as one table; a shard of a one-image
suite (PaintBench, TinyGrafixBench, ...) never has it, so its bytes are what they always
were. Should a suite that says it has none make a problem with references anyway, the
shard's schema is chosen when its first row group is written, and such a problem arriving
after row groups without the column were written has the shard's earlier row groups copied
into a shard with the column (empty lists).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from paintkit.io.atomic import make_temporary
from paintkit.layout.problem_files import answer_name, input_name, reference_name
from paintkit.layout.shard_members import REFERENCES_COLUMN
from paintkit.suites.protocol import may_hold_references
from paintkit.writers.record import COLUMNS, EncodedProblem
from paintkit.writers.splits import HELD_OUT
from paintkit.writers.trainer_parquet import ROW_GROUP, TrainerParquetWriter

_TEXT_COLUMNS = ("key", "instruction", "task", "mode", "visual_condition", "category", "metadata")
_IMAGE_COLUMNS = ("input", "answer")
#: The Hugging Face feature of the ``references`` column: a list of {image, role} (written
#: as a JSON list, the form every ``datasets`` release reads).
_REFERENCES_FEATURE = [{"image": {"_type": "Image"}, "role": {"dtype": "string", "_type": "Value"}}]


def _features(references: bool = False) -> dict:
    features = {name: {"dtype": "string", "_type": "Value"} for name in _TEXT_COLUMNS}
    features.update({name: {"_type": "Image"} for name in _IMAGE_COLUMNS})
    order = ("key", "input", "answer", *((REFERENCES_COLUMN,) if references else ()),
             "instruction", "task", "mode", "visual_condition", "category", "metadata")
    features[REFERENCES_COLUMN] = _REFERENCES_FEATURE
    return {name: features[name] for name in order}


def parquet_schema(references: bool = False):
    """The Arrow schema of a shard, with the Hugging Face feature metadata; ``references``:
    with the ``references`` column (a shard holding problems with reference images)."""
    import pyarrow as pa

    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    kinds = {name: image for name in _IMAGE_COLUMNS}
    kinds[REFERENCES_COLUMN] = pa.list_(pa.struct([("image", image), ("role", pa.string())]))
    columns = [(name, kinds.get(name, pa.string())) for name in _features(references)]
    info = {"info": {"features": _features(references)}}
    return pa.schema(columns, metadata={b"huggingface": json.dumps(info).encode()})


def has_reference_column(schema) -> bool:
    """Whether a shard's Arrow schema has the ``references`` column."""
    return REFERENCES_COLUMN in schema.names


def _reference_cells(problem: EncodedProblem) -> list[dict]:
    roles = [entry["role"] for entry in json.loads(problem.metadata_json).get("references", [])] \
        if problem.reference_pngs else []
    if len(roles) != len(problem.reference_pngs):
        raise ValueError(f"problem {problem.key}: {len(problem.reference_pngs)} reference "
                         f"images but its metadata lists {len(roles)} roles")
    return [{"image": {"bytes": png, "path": reference_name(problem.key, n)}, "role": role}
            for n, (png, role) in enumerate(zip(problem.reference_pngs, roles, strict=True), 1)]


class ParquetWriter(TrainerParquetWriter):
    format = "parquet"
    default_held_out = HELD_OUT  # a corpus for the Hub: train and test (writers/splits.py)

    def writer_options(self) -> dict:
        compression = {name: "zstd" for name in _TEXT_COLUMNS}
        compression.update({f"{name}.{field}": "none" for name in _IMAGE_COLUMNS
                            for field in ("bytes", "path")})
        if getattr(self, "_references", False):
            compression.update({f"{REFERENCES_COLUMN}.list.element.image.{field}": "none"
                                for field in ("bytes", "path")})
            compression[f"{REFERENCES_COLUMN}.list.element.role"] = "zstd"
        return {"compression": compression,
                "use_dictionary": ["task", "mode", "visual_condition", "category"],
                "write_statistics": ["key", "task", "mode", "visual_condition"]}

    def columns(self, rows: list[EncodedProblem]) -> dict:
        data = {
            "key": [r.key for r in rows],
            "input": [{"bytes": r.input_png, "path": input_name(r.key)} for r in rows],
            "answer": [{"bytes": r.answer_png, "path": answer_name(r.key)} for r in rows],
            "instruction": [r.instruction for r in rows],
            "metadata": [r.metadata_json.decode() for r in rows],
        }
        if self._references:
            data[REFERENCES_COLUMN] = [_reference_cells(r) for r in rows]
        for column in COLUMNS:
            data[column] = [getattr(r, column) for r in rows]
        return data

    # The schema waits for the shard's first row group (its problems say whether the shard
    # needs the references column); see the module docstring.
    def _begin(self, path: Path) -> None:
        self._path, self._pq, self._rows = Path(path), None, []
        # a suite whose problems can have references: the column in every shard
        self._references = may_hold_references(self.suite)
        self._copy: Path | None = None  # the shard with the column, when added midway

    def _append(self, problem: EncodedProblem) -> None:
        self._rows.append(problem)
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _open_writer(self, path: Path):
        import pyarrow.parquet as pq

        self._schema = self.schema()
        return pq.ParquetWriter(str(path), self._schema, **self.writer_options())

    def schema(self):
        return parquet_schema(getattr(self, "_references", False))

    def _flush(self) -> None:
        import pyarrow as pa

        if not self._rows:
            return
        wants = any(r.reference_pngs for r in self._rows)
        if self._pq is None:
            self._references = self._references or wants
            self._pq = self._open_writer(self._path)
        elif wants and not self._references:
            self._add_reference_column()
        rows, self._rows = self._rows, []
        self._pq.write_table(pa.Table.from_pydict(self.columns(rows), schema=self._schema))

    def _add_reference_column(self) -> None:
        """Copy the row groups written so far into a shard with the references column."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._pq.close()
        self._references = True
        self._copy = make_temporary(self._path, ".tmp")
        self._pq = self._open_writer(self._copy)
        written = pq.ParquetFile(self._path)
        for group in range(written.num_row_groups):
            table = written.read_row_group(group)
            empty = pa.array([[]] * table.num_rows, self._schema.field(REFERENCES_COLUMN).type)
            columns = {name: empty if name == REFERENCES_COLUMN else table.column(name)
                       for name in self._schema.names}
            self._pq.write_table(pa.Table.from_pydict(columns, schema=self._schema))

    def _end(self) -> None:
        self._flush()
        if self._pq is None:  # a shard with no problems: still a readable Parquet file
            self._pq = self._open_writer(self._path)
        self._pq.close()
        if self._copy is not None:
            os.replace(self._copy, self._path)
            self._copy = None

"""Parquet shards: ``shard-NNNNNN.parquet``, one row per problem.

Columns: ``key`` (problem id), ``input`` and ``answer`` (Hugging Face ``Image`` structs
``{bytes: PNG, path: "<key>_input.png"}``), ``instruction``, ``task``, ``mode``,
``visual_condition``, ``category`` and ``metadata`` (the problem JSON). The schema carries
the Hugging Face feature description, so ``datasets.load_dataset("parquet",
data_files=...)`` decodes ``input`` / ``answer`` as images. Row groups of
:data:`ROW_GROUP` rows keep readers' memory small; PNG columns are stored uncompressed
(they are compressed already), the others with zstd.
"""

from __future__ import annotations

import json
from pathlib import Path

from paintkit.layout.problem_files import answer_name, input_name
from paintkit.writers.record import COLUMNS, EncodedProblem
from paintkit.writers.shards import ShardWriter

ROW_GROUP = 64
_TEXT_COLUMNS = ("key", "instruction", "task", "mode", "visual_condition", "category", "metadata")
_IMAGE_COLUMNS = ("input", "answer")


def _features() -> dict:
    features = {name: {"dtype": "string", "_type": "Value"} for name in _TEXT_COLUMNS}
    features.update({name: {"_type": "Image"} for name in _IMAGE_COLUMNS})
    order = ("key", "input", "answer", "instruction", "task", "mode", "visual_condition",
             "category", "metadata")
    return {name: features[name] for name in order}


def parquet_schema():
    """The Arrow schema of a shard, with the Hugging Face feature metadata."""
    import pyarrow as pa

    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    columns = [(name, image if name in _IMAGE_COLUMNS else pa.string()) for name in _features()]
    info = {"info": {"features": _features()}}
    return pa.schema(columns, metadata={b"huggingface": json.dumps(info).encode()})


class ParquetWriter(ShardWriter):
    format = "parquet"
    extension = "parquet"
    json_indent = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise ValueError("--format parquet needs pyarrow: pip install 'paintkit[shards]'") from None

    def _begin(self, path: Path) -> None:
        import pyarrow.parquet as pq

        self._schema = parquet_schema()
        compression = {name: "zstd" for name in _TEXT_COLUMNS}
        compression.update({f"{name}.{field}": "none" for name in _IMAGE_COLUMNS
                            for field in ("bytes", "path")})
        self._pq = pq.ParquetWriter(str(path), self._schema, compression=compression,
                                    use_dictionary=["task", "mode", "visual_condition", "category"],
                                    write_statistics=["key", "task", "mode", "visual_condition"])
        self._rows: list[EncodedProblem] = []

    def _append(self, problem: EncodedProblem) -> None:
        self._rows.append(problem)
        if len(self._rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if not self._rows:
            return
        rows, self._rows = self._rows, []
        data = {
            "key": [r.key for r in rows],
            "input": [{"bytes": r.input_png, "path": input_name(r.key)} for r in rows],
            "answer": [{"bytes": r.answer_png, "path": answer_name(r.key)} for r in rows],
            "instruction": [r.instruction for r in rows],
            "metadata": [r.metadata_json.decode() for r in rows],
        }
        for column in COLUMNS:
            data[column] = [getattr(r, column) for r in rows]
        self._pq.write_table(pa.Table.from_pydict(data, schema=self._schema))

    def _end(self) -> None:
        self._flush()
        self._pq.close()

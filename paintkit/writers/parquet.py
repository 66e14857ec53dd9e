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

from paintkit.layout.problem_files import answer_name, input_name
from paintkit.writers.record import COLUMNS, EncodedProblem
from paintkit.writers.trainer_parquet import TrainerParquetWriter

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


class ParquetWriter(TrainerParquetWriter):
    format = "parquet"

    def schema(self):
        return parquet_schema()

    def writer_options(self) -> dict:
        compression = {name: "zstd" for name in _TEXT_COLUMNS}
        compression.update({f"{name}.{field}": "none" for name in _IMAGE_COLUMNS
                            for field in ("bytes", "path")})
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
        for column in COLUMNS:
            data[column] = [getattr(r, column) for r in rows]
        return data

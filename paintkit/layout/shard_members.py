"""The names of a problem's parts inside a shard (docs/file-layout.md, "Shards").

A WebDataset tar holds, per problem ``KEY`` (its ``problem_id``), the members
``KEY.input.png``, ``KEY.answer.png``, ``KEY.json`` and, for a problem with reference images
(docs/references.md), ``KEY.reference_1.png``, ``KEY.reference_2.png``, ... in the order the
model gets them (their roles are the problem JSON's ``references`` list). A Parquet shard
that holds problems with references has one more column, :data:`REFERENCES_COLUMN`. The
writers (``writers/webdataset.py``, ``writers/parquet.py``) and the reader
(``loader_shards.py``) ask this module for those names. Standard library only.
"""

from __future__ import annotations

import re

__all__ = ["ANSWER_FIELD", "INPUT_FIELD", "METADATA_FIELD", "REFERENCES_COLUMN",
           "reference_field", "reference_number"]

#: The WebDataset fields (the member name after ``KEY.``) of input, answer and metadata.
INPUT_FIELD = "input.png"
ANSWER_FIELD = "answer.png"
METADATA_FIELD = "json"
#: The WebDataset field of reference image ``n`` (1, 2, ...).
REFERENCE_FIELD = "reference_{n}.png"
#: The Parquet column of a shard that holds problems with references: one list a row of
#: ``{"image": {"bytes": PNG, "path": "<key>_reference_<n>.png"}, "role": str}``.
REFERENCES_COLUMN = "references"


def reference_field(n: int) -> str:
    """``reference_<n>.png``: the WebDataset field of reference image ``n`` (1-based)."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"references are numbered from 1, got {n!r}")
    return REFERENCE_FIELD.format(n=n)


def reference_number(field: str) -> int | None:
    """``n`` of a reference field (``"reference_2.png"`` -> 2), else None."""
    head, tail = (re.escape(part) for part in REFERENCE_FIELD.split("{n}"))
    match = re.fullmatch(rf"{head}([1-9]\d*){tail}", field)
    return int(match.group(1)) if match else None

"""WebDataset-style tar shards: ``shard-NNNNNN.tar`` holding ``KEY.input.png``,
``KEY.answer.png`` and ``KEY.json`` per problem (``KEY`` = the problem id, which has no
dots), readable by the ``webdataset`` package or any tar reader. A problem with reference
images also has ``KEY.reference_1.png``, ... between its answer and its JSON (the names:
:mod:`paintkit.layout.shard_members`).

Tar headers are fixed (mtime 0, owner 0, mode 0644), so a shard's bytes depend only on its
problems.

>>> import webdataset as wds  # doctest: +SKIP
>>> for sample in wds.WebDataset("out/shard-000000.tar").decode("rgb8"):  # doctest: +SKIP
...     sample["input.png"].shape, sample["json"]["instruction"]
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from paintkit.layout.shard_members import (
    ANSWER_FIELD,
    INPUT_FIELD,
    METADATA_FIELD,
    reference_field,
)
from paintkit.writers.record import EncodedProblem
from paintkit.writers.shards import ShardWriter
from paintkit.writers.splits import HELD_OUT


def _member(name: str, data: bytes) -> tuple[tarfile.TarInfo, io.BytesIO]:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 0, 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info, io.BytesIO(data)


class WebDatasetWriter(ShardWriter):
    format = "webdataset"
    extension = "tar"
    default_held_out = HELD_OUT  # a corpus for the Hub: train and test (writers/splits.py)
    json_indent = None

    def _begin(self, path: Path) -> None:
        self._tar = tarfile.open(path, "w", format=tarfile.GNU_FORMAT)

    def _append(self, problem: EncodedProblem) -> None:
        references = [(reference_field(n), png)
                      for n, png in enumerate(problem.reference_pngs, 1)]
        for ext, data in ((INPUT_FIELD, problem.input_png), (ANSWER_FIELD, problem.answer_png),
                          *references, (METADATA_FIELD, problem.metadata_json)):
            self._tar.addfile(*_member(f"{problem.key}.{ext}", data))

    def _end(self) -> None:
        self._tar.close()

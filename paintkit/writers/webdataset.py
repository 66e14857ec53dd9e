"""WebDataset-style tar shards: ``shard-NNNNNN.tar`` holding ``KEY.input.png``,
``KEY.answer.png`` and ``KEY.json`` per problem (``KEY`` = the problem id, which has no
dots), readable by the ``webdataset`` package or any tar reader.

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

from paintkit.writers.record import EncodedProblem
from paintkit.writers.shards import ShardWriter


def _member(name: str, data: bytes) -> tuple[tarfile.TarInfo, io.BytesIO]:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 0, 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info, io.BytesIO(data)


class WebDatasetWriter(ShardWriter):
    format = "webdataset"
    extension = "tar"
    json_indent = None

    def _begin(self, path: Path) -> None:
        self._tar = tarfile.open(path, "w", format=tarfile.GNU_FORMAT)

    def _append(self, problem: EncodedProblem) -> None:
        for ext, data in (("input.png", problem.input_png), ("answer.png", problem.answer_png),
                          ("json", problem.metadata_json)):
            self._tar.addfile(*_member(f"{problem.key}.{ext}", data))

    def _end(self) -> None:
        self._tar.close()

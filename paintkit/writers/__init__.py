"""Writers: the standard layout (docs/file-layout.md), WebDataset tar shards and Parquet shards.

All of them write atomically and resume (see ``base.py``); ``manifest.py`` records what a
folder holds. Use them through :func:`paintkit.engines.write_suite` or ``paintkit generate``.
"""

from __future__ import annotations

from pathlib import Path

from paintkit.suites import ProblemSuite
from paintkit.writers.base import WriteError, Writer
from paintkit.writers.directory import DirectoryWriter
from paintkit.writers.edit_jsonl import FlowFactoryWriter, FlowGrpoWriter
from paintkit.writers.parquet import ParquetWriter
from paintkit.writers.pix2pix import Pix2PixWriter
from paintkit.writers.record import EncodedProblem, FileRecord, encode_problem
from paintkit.writers.shards import DEFAULT_SHARD_SIZE, ShardWriter
from paintkit.writers.verl_omni import VerlOmniWriter
from paintkit.writers.webdataset import WebDatasetWriter

FORMATS: dict[str, type[Writer]] = {
    "directory": DirectoryWriter, "webdataset": WebDatasetWriter, "parquet": ParquetWriter,
    # trainer formats (docs/generate.md, "Datasets in a trainer's own format")
    "verl-omni": VerlOmniWriter, "pix2pix": Pix2PixWriter, "flow-grpo": FlowGrpoWriter,
    "flow-factory": FlowFactoryWriter,
}


def make_writer(format: str, root: Path | str, suite: ProblemSuite,
                shard_size: int = DEFAULT_SHARD_SIZE, svg: bool = False,
                shards: int | None = None, held_out: float | None = None) -> Writer:
    """The writer of ``format`` (``directory``, ``webdataset`` or ``parquet``); ``svg``
    (directory only) also writes ``NNN_input.svg`` and ``NNN_answer.svg``; ``shards``
    (shard formats): that many shards, split evenly (:class:`ShardWriter`); ``held_out``
    (``parquet``, ``webdataset``): the fraction of problems in the ``test`` split (default
    :data:`~paintkit.writers.splits.HELD_OUT`, 0 for none)."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; allowed: {', '.join(FORMATS)}")
    cls = FORMATS[format]
    if svg:
        if cls is not DirectoryWriter:
            raise ValueError(f"--svg writes SVG files beside the PNGs of the directory format; "
                             f"format {format!r} has no such files")
        return cls(root, suite, svg=True)
    if issubclass(cls, ShardWriter):
        return cls(root, suite, shard_size, shards=shards, held_out=held_out)
    if held_out:
        raise ValueError(f"a held-out split applies to --format parquet and webdataset, not "
                         f"{format!r}")
    if shards is not None:
        raise ValueError(f"shards applies to the shard formats, not {format!r}")
    return cls(root, suite)


__all__ = [
    "DEFAULT_SHARD_SIZE", "DirectoryWriter", "EncodedProblem", "FORMATS", "FileRecord",
    "ParquetWriter", "ShardWriter", "WebDatasetWriter", "WriteError", "Writer", "encode_problem",
    "make_writer",
]

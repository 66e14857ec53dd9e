"""Parquet shards whose rows are laid out the way one trainer's loader reads them.

Base of :mod:`paintkit.writers.parquet`, :mod:`paintkit.writers.verl_omni` and
:mod:`paintkit.writers.pix2pix`: shard ``k``
(``shard_name``) holds problems ``k * shard_size ..`` in suite order, written through a
temporary file and renamed when complete (a resumed run skips complete shards), one row
group per :data:`ROW_GROUP` rows. A subclass gives the Arrow schema and the columns of a
list of :class:`~paintkit.writers.record.EncodedProblem`.
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path

from paintkit.writers.record import EncodedProblem
from paintkit.writers.shards import ShardWriter

ROW_GROUP = 64


class TrainerParquetWriter(ShardWriter):
    extension = "parquet"
    json_indent = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise ValueError(f"--format {self.format} needs pyarrow: pip install "
                             "'paintkit[shards]'") from None

    @abstractmethod
    def schema(self):
        """The shard's Arrow schema."""

    @abstractmethod
    def columns(self, rows: list[EncodedProblem]) -> dict:
        """Column name -> one value per problem of ``rows``."""

    def writer_options(self) -> dict:
        """Keyword arguments of ``pyarrow.parquet.ParquetWriter`` (compression, ...)."""
        return {"compression": "zstd"}

    def _begin(self, path: Path) -> None:
        import pyarrow.parquet as pq

        self._schema = self.schema()
        self._pq = pq.ParquetWriter(str(path), self._schema, **self.writer_options())
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
        self._pq.write_table(pa.Table.from_pydict(self.columns(rows), schema=self._schema))

    def _end(self) -> None:
        self._flush()
        self._pq.close()

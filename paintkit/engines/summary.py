"""The closing summary of a generation run (the progress line is :mod:`paintkit.io.progress`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paintkit.io.plural import count_of


@dataclass(frozen=True)
class GenerateSummary:
    """What a run did: ``generated`` new problems, ``skipped`` ones already on disk."""

    out: Path | str  # a URL string for fsspec outputs
    format: str
    engine: str
    workers: int
    problems: int
    generated: int
    skipped: int
    files: int
    nbytes: int
    seconds: float
    #: ``(path, reason)`` of kept files that failed their check and were generated again.
    damaged: tuple = ()
    #: Bytes of results the driver received from workers (scaled-out runs; 0 otherwise).
    driver_bytes: int = 0

    @property
    def problems_per_second(self) -> float:
        return self.generated / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        skipped = f" ({self.skipped:,} already there)" if self.skipped else ""
        if self.damaged:
            path, reason = self.damaged[0]
            more = f" and {len(self.damaged) - 1:,} more" if len(self.damaged) > 1 else ""
            skipped += f" (regenerated damaged {path}: {reason}{more})"
        return (f"{count_of(self.problems, 'problem')}{skipped}, {count_of(self.files, 'file')}, "
                f"{self.nbytes / 1e6:,.1f} MB in {self.seconds:.1f} s: "
                f"{self.problems_per_second:,.1f} problems/s generated "
                f"[{self.engine}, {self.workers} worker{'s' if self.workers != 1 else ''}] -> {self.out}")

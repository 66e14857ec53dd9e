"""Progress bar (problems/s, ETA) and the closing summary of a generation run."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

BAR_WIDTH = 24


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """``[#####.....] 1,234/2,016  61%  142.3 problems/s  ETA 0:05`` on one updating line
    (a new line every 10 s when the stream is not a terminal)."""

    def __init__(self, total: int, enabled: bool = True, stream: TextIO | None = None):
        self.total, self.enabled = total, enabled
        self.stream = stream or sys.stderr
        self.generated = self.skipped = 0
        self.start = self.last = time.perf_counter()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._shown = False

    def update(self, generated: int = 0, skipped: int = 0) -> None:
        self.generated += generated
        self.skipped += skipped
        now = time.perf_counter()
        interval = 0.2 if self.tty else 10.0
        if self.enabled and (now - self.last >= interval or self.done == self.total):
            self.last = now
            self._show(now)

    @property
    def done(self) -> int:
        return self.generated + self.skipped

    @property
    def rate(self) -> float:
        return self.generated / max(time.perf_counter() - self.start, 1e-9)

    def _show(self, now: float) -> None:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(BAR_WIDTH * fraction)
        rate = self.generated / max(now - self.start, 1e-9)
        left = self.total - self.done
        eta = _clock(left / rate) if rate > 0 else "?"
        line = (f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done:,}/{self.total:,} "
                f"{100 * fraction:3.0f}%  {rate:.1f} problems/s  ETA {eta}")
        if self.skipped:
            line += f"  ({self.skipped:,} already there)"
        self.stream.write(("\r" + line + " ") if self.tty else line + "\n")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self.enabled and self._shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()


@dataclass(frozen=True)
class GenerateSummary:
    """What a run did: ``generated`` new problems, ``skipped`` ones already on disk."""

    out: Path
    format: str
    engine: str
    workers: int
    problems: int
    generated: int
    skipped: int
    files: int
    nbytes: int
    seconds: float

    @property
    def problems_per_second(self) -> float:
        return self.generated / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        skipped = f" ({self.skipped:,} already there)" if self.skipped else ""
        return (f"{self.problems:,} problems{skipped}, {self.files:,} files, "
                f"{self.nbytes / 1e6:,.1f} MB in {self.seconds:.1f} s: "
                f"{self.problems_per_second:,.1f} problems/s generated "
                f"[{self.engine}, {self.workers} worker{'s' if self.workers != 1 else ''}] -> {self.out}")

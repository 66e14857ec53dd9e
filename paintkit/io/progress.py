"""The one progress display of ``paintkit generate`` and ``paintkit eval`` (stderr).

On a terminal the line is redrawn in place (``\\r``, at most every :data:`TTY_INTERVAL`
seconds); in a pipe or a log file it is a plain line every :data:`LOG_INTERVAL` seconds
and one at the end, so a log shows the run moving without filling up with redraws.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 24
TTY_INTERVAL = 0.2
LOG_INTERVAL = 5.0


def _now() -> float:
    # One indirection so tests can step the clock without touching time.perf_counter itself.
    return time.perf_counter()


def clock(seconds: float) -> str:
    """``65`` -> ``"1:05"``, ``3725`` -> ``"1:02:05"``."""
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """``generated [#####.....] 1,234/2,016  61%  142.3 problems/s  ETA 0:05``.

    ``verb`` starts the line (``"generated"``, ``"scored"``); ``total`` counts every
    problem the run walks, skipped ones included. ``update(processed=, skipped=)`` adds
    problems done this run and problems found already done (on disk, in the results
    file); the rate and the ETA count only the processed ones. The ETA comes from the rate
    after the first problems came back (the warm-up before them, starting workers and
    compiling kernels on a first run, would make it hours long): until a second batch came
    back it shows ``?``, with ``note`` (for example ``"compiling kernels (first run only)"``)
    when one is set. :meth:`tick` redraws the line (its clock moves) while nothing finishes.
    """

    def __init__(self, total: int, *, verb: str = "done", enabled: bool = True,
                 stream: TextIO | None = None, unit: str = "problems"):
        self.total, self.verb, self.enabled, self.unit = total, verb, enabled, unit
        self.stream = stream or sys.stderr
        self.processed = self.skipped = 0
        self.start = self.last = _now()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._shown = False
        self.note = ""  # said beside "ETA ?" until the rate is measured
        self._warm: tuple[float, int] | None = None  # (time, processed) of the first batch

    @property
    def done(self) -> int:
        return self.processed + self.skipped

    def update(self, processed: int = 0, skipped: int = 0) -> None:
        self.processed += processed
        self.skipped += skipped
        if not self.enabled or not (processed or skipped):
            return
        now = _now()
        if processed and self._warm is None:
            self._warm = (now, self.processed)
        interval = TTY_INTERVAL if self.tty else LOG_INTERVAL
        if now - self.last >= interval or self.done == self.total:
            self.last = now
            self._show(now)

    def tick(self) -> None:
        """Redraw the line when its interval passed, though nothing finished: the clock
        moves while a slow unit works."""
        if not self.enabled:
            return
        now = _now()
        if now - self.last >= (TTY_INTERVAL if self.tty else LOG_INTERVAL):
            self.last = now
            self._show(now)

    def line(self, now: float) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(BAR_WIDTH * fraction)
        rate = self.processed / max(now - self.start, 1e-9)
        left = self.total - self.done
        if left == 0:
            eta = "0:00"
        elif self._warm is not None and self.processed > self._warm[1] and now > self._warm[0]:
            steady = (self.processed - self._warm[1]) / (now - self._warm[0])
            eta = clock(left / steady)
        else:
            eta = f"? ({self.note})" if self.note else "?"
        text = (f"{self.verb} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
                f"{self.done:,}/{self.total:,} {100 * fraction:3.0f}%  "
                f"{rate:.1f} {self.unit}/s  ETA {eta}  {clock(now - self.start)} elapsed")
        if self.skipped:
            text += f"  ({self.skipped:,} already there)"
        return text

    def _show(self, now: float) -> None:
        text = self.line(now)
        self.stream.write(("\r" + text + " ") if self.tty else text + "\n")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """End the redrawn line on a terminal (a pipe already ends every line)."""
        if self.enabled and self._shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()

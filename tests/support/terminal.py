"""Child processes that get Ctrl-C the way a terminal delivers it."""

from __future__ import annotations

import signal


def sigint_at_default() -> None:
    """``preexec_fn`` of a child that must see SIGINT: a test run started in the background
    of a non-interactive shell (``pytest &``, a CI runner) ignores SIGINT, children inherit
    that, and paintkit (like Python) leaves an ignored SIGINT ignored (``nohup``), so Ctrl-C
    would never arrive. A user's terminal never ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

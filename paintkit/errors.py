"""Exceptions shared across paintkit."""

from __future__ import annotations

import re

#: Characters that would break a reason across lines or drive a terminal: C0 and C1
#: controls (newline, carriage return, escape, ...), DEL, and the Unicode line and
#: paragraph separators.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text) -> str:
    """``text`` as one printable line: line breaks and control characters (a callable's
    message could otherwise forge a line of paintkit's own output) become single spaces."""
    return " ".join(_BREAKS.sub(" ", str(text)).split())


class PaintkitError(Exception):
    """Base class of paintkit's own exceptions."""


class RejectedSeed(PaintkitError):
    """This seed cannot produce a valid problem (scene does not fit, target ambiguous,
    degenerate edit, ...). Suites catch it and try the next attempt (docs/generator-rules.md, seeds)."""


class SceneSamplingError(RejectedSeed, ValueError):
    """The sampler could not place the requested shapes within its bounded number of tries."""

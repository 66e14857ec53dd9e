"""The release's hash list as a file: where it ships and how it is read.

``paintkit/verify/release_hashes.json`` lists the content hashes of every problem the
released PaintBench and TinyGrafixBench hold (:mod:`paintkit.verify.release` says what they
are and writes the file). Reading it is a plain JSON read, here, so that what needs only the
release's problem counts (a subset's "N of M problems") does not depend on the verify
package, which depends on scoring.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

__all__ = ["DIGITS", "FORMAT", "RELEASE_FILE", "read_release"]

#: Hex digits of SHA-256 kept per part (64 bits).
DIGITS = 16
#: The list's format.
FORMAT = 1
RELEASE_FILE = Path(__file__).resolve().parents[1] / "verify" / "release_hashes.json"


@cache
def read_release(path: Path = RELEASE_FILE) -> dict:
    """The shipped list (cached); ``ValueError`` naming the file if it is unreadable."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        if doc["format"] != FORMAT or doc["digits"] != DIGITS:
            raise ValueError(f"format {doc['format']}, {doc['digits']} digits")
        doc["benchmarks"].items()
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: the release's hash list is unreadable ({exc}); reinstall "
                         "paintkit") from None
    return doc

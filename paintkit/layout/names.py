"""Names read from trees and rows (model, benchmark, task folders), as printable text."""

from __future__ import annotations


def display(value) -> str:
    """``value`` as text that encodes to UTF-8 (lone surrogates -> U+FFFD).

    A folder name that is not UTF-8 arrives as lone surrogates (``os.fsdecode``); printing
    or writing it as UTF-8 would raise.

    >>> display("model") == "model", display("m\\udcff")
    (True, 'm\ufffd')
    """
    text = str(value)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:  # a file name's undecodable bytes (os.fsdecode): decode them, replacing bad ones
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")

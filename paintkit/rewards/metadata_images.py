"""Where a trainer's metadata holds a problem's images: the keys looked for, and an image as
given there (a path, encoded bytes, a Hugging Face ``{"bytes", "path"}`` dict, an array or a
tensor) made loadable."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paintkit.types import PathLike

#: Metadata keys of a problem's answer image, the first present one used.
ANSWER_KEYS = ("answer", "answer_image", "answer_path", "target", "target_image")
#: Metadata keys of a problem's input image, the first present one used.
INPUT_KEYS = ("input", "input_image", "input_path", "source", "source_image")


def find(meta: object, keys: Sequence[str], what: str, where: str) -> Any:
    """The first of ``keys`` present in the mapping ``meta``; a clear error otherwise."""
    if not isinstance(meta, dict):
        raise ValueError(f"{where}: expected a dict carrying the {what} image (one of keys "
                         f"{', '.join(keys)}), got {type(meta).__name__}")
    for key in keys:
        if meta.get(key) is not None:
            return meta[key]
    raise ValueError(f"{where}: no {what} image; expected one of the keys {', '.join(keys)} "
                     f"(a path, encoded bytes, an array or a tensor), got keys {sorted(meta)}")


def resolve(image: Any, root: PathLike | None = None) -> Any:
    """An image as given in metadata, made loadable: a relative path joined to ``root`` (the
    dataset folder), a ``{"bytes": ..., "path": ...}`` dict (how Hugging Face ``datasets``
    and parquet files store images) reduced to its bytes or path; others unchanged."""
    if isinstance(image, dict) and ("bytes" in image or "path" in image):
        image = image.get("bytes") if image.get("bytes") is not None else image.get("path")
    if isinstance(image, str | os.PathLike) and root is not None and \
            not os.path.isabs(os.fspath(image)):
        return str(Path(root) / image)
    return image

"""Model functions that record what they get, for the reference-image tests (loaded by name
as ``reference_editors:<function>``)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageOps

#: Per call: ``(instruction, [(uint8 pixels, role), ...] or None)`` for each problem.
SEEN: list[list[tuple[str, list | None]]] = []


def with_references(batch, references):
    """Opts in: the inverted input, after recording every reference it got."""
    SEEN.append([(text, [(np.asarray(ref.image), ref.role) for ref in refs])
                 for (_, text), refs in zip(batch, references, strict=True)])
    return [ImageOps.invert(image) for image, _ in batch]


def one_image(batch):
    """Written for one image, as every callable before references: the inverted input."""
    SEEN.append([(text, None) for _, text in batch])
    return [ImageOps.invert(image) for image, _ in batch]


def options_only(batch, **options):
    """Takes ``**options`` only: gets no references either."""
    SEEN.append([(text, None) for _, text in batch])
    assert "references" not in options
    return [ImageOps.invert(image) for image, _ in batch]


#: The benchmark tree ``answers`` reads from (``[root]``, set by the test).
ROOT: list = []


def answers(batch, references, problems):
    """An oracle that takes several images: each problem's answer file, after recording the
    references it got."""
    SEEN.append([(text, [(np.asarray(ref.image), ref.role) for ref in refs])
                 for (_, text), refs in zip(batch, references, strict=True)])
    return [Image.open(ROOT[0] / p["benchmark"] / p["task"] / f"{p['index']:03d}_answer.png")
            for p in problems]

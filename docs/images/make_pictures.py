"""The pictures of docs/references.md: one problem of each reference task, as a row of panels.

    python docs/images/make_pictures.py [--out DIR] [NAME ...]

writes ``NAME.png`` for each picture named (default: all six of :data:`PICTURES`) into
``DIR`` (default: the folder of this script, ``docs/images``). Each picture is one problem,
made by paintkit's public API (``paintkit.generate(task, slot, condition, source=...)``),
laid out left to right in the order a model gets its images, then the answer::

    source | reference 1 (role) | reference 2 (role) | answer

Each panel has a 1 px grey border and its caption under it, in Pillow's built-in font
(``ImageFont.load_default()``), so the pictures never depend on the machine's fonts.

A panel is its image reduced by the picture's integer factor (5 for the 1024 x 1024 scenes,
3 for the 1024 x 768 charts), see :func:`reduce_image`; :func:`make_picture` returns each
panel's rectangle with the picture, so a panel can be checked against its problem.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import paintkit

HERE = Path(__file__).resolve().parent

MARGIN = 8  # px of white around the row of panels
GAP = 8  # px of white between two panels
CAPTION = 22  # px under the panels for the captions
CAPTION_OFFSET = 4  # px from a panel's bottom border to its caption's top
BACKGROUND = (255, 255, 255)
BORDER = (160, 160, 160)
TEXT = (0, 0, 0)


class Picture(NamedTuple):
    """One picture: the problem ``paintkit.generate(task, slot, condition, source=source)``,
    its panels reduced by ``factor``."""

    task: str
    slot: int
    condition: str | None
    source: str
    factor: int


#: The pictures docs/references.md shows, by file name (without ``.png``).
PICTURES: dict[str, Picture] = {
    "reference_copy": Picture("reference_copy", 0, "baseline", "references", 5),
    "reference_remove": Picture("reference_remove", 0, "n_med", "references", 5),
    "reference_move": Picture("reference_move", 1, "baseline", "references", 5),
    "reference_recolor": Picture("reference_recolor", 0, "n_med", "references", 5),
    "reference_move_recolor": Picture("reference_move_recolor", 2, "baseline", "references", 5),
    "style_transfer": Picture("bar_chart", 0, None, "style-transfer", 3),
}


class Panel(NamedTuple):
    """One panel of a picture: its caption and where its image lies in the picture,
    ``picture[top:bottom, left:right]`` (the border is outside)."""

    caption: str
    left: int
    top: int
    right: int
    bottom: int


def problem_of(name: str) -> paintkit.Problem:
    """The problem picture ``name`` shows (a key of :data:`PICTURES`)."""
    if name not in PICTURES:
        raise ValueError(f"no picture {name!r}; the pictures are {', '.join(PICTURES)}")
    spec = PICTURES[name]
    return paintkit.generate(spec.task, spec.slot, spec.condition, source=spec.source)


def panel_images(problem: paintkit.Problem) -> list[tuple[str, np.ndarray]]:
    """``(caption, image)`` for each panel of ``problem``, left to right: the source, each
    reference (``"reference k (role)"``), the answer; images ``(H, W, 3)`` uint8."""
    panels = [("source", np.asarray(problem.input))]
    panels += [(f"reference {k} ({ref.role})", np.asarray(ref.image))
               for k, ref in enumerate(problem.references, start=1)]
    panels.append(("answer", np.asarray(problem.answer)))
    return panels


def reduce_image(image: np.ndarray, factor: int) -> np.ndarray:
    """``(H, W, 3)`` uint8 -> ``(ceil(H / factor), ceil(W / factor), 3)`` uint8: each pixel the
    mean of its ``factor x factor`` box of ``image`` (the boxes of the last row and column
    clipped to the image), per channel, rounded half up."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 3) uint8 image, got {image.shape} {image.dtype}")
    if factor < 1:
        raise ValueError(f"factor must be an int >= 1, got {factor}")
    height, width = image.shape[:2]
    rows, cols = np.arange(0, height, factor), np.arange(0, width, factor)
    sums = np.add.reduceat(np.add.reduceat(image.astype(np.int64), rows, axis=0), cols, axis=1)
    counts = np.outer(np.diff(np.append(rows, height)), np.diff(np.append(cols, width)))[..., None]
    return ((2 * sums + counts) // (2 * counts)).astype(np.uint8)


def lay_out(panels: list[tuple[str, np.ndarray]], factor: int) -> tuple[Image.Image, list[Panel]]:
    """The picture of ``panels`` (``(caption, (H, W, 3) uint8 image)``, left to right), each
    reduced by ``factor``: an RGB image and each panel's place in it."""
    reduced = [(caption, reduce_image(image, factor)) for caption, image in panels]
    width = 2 * MARGIN + sum(image.shape[1] for _, image in reduced) + GAP * (len(reduced) - 1)
    height = MARGIN + max(image.shape[0] for _, image in reduced) + CAPTION
    picture = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    font = ImageFont.load_default()
    places = []
    left = MARGIN
    for caption, image in reduced:
        right, bottom = left + image.shape[1], MARGIN + image.shape[0]
        picture.paste(Image.fromarray(image, "RGB"), (left, MARGIN))
        draw.rectangle((left - 1, MARGIN - 1, right, bottom), outline=BORDER)
        draw.text((left, bottom + 1 + CAPTION_OFFSET), caption, fill=TEXT, font=font)
        places.append(Panel(caption, left, MARGIN, right, bottom))
        left = right + GAP
    return picture, places


def make_picture(name: str) -> tuple[Image.Image, list[Panel]]:
    """Picture ``name`` (a key of :data:`PICTURES`) and its panels' places."""
    return lay_out(panel_images(problem_of(name)), PICTURES[name].factor)


def write_pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    """Write ``out/NAME.png`` for each of ``names`` (default: every picture); the paths."""
    names = list(PICTURES) if names is None else names
    unknown = [name for name in names if name not in PICTURES]
    if unknown:
        raise ValueError(f"no picture {', '.join(unknown)}; the pictures are {', '.join(PICTURES)}")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        picture, _ = make_picture(name)
        path = out / f"{name}.png"
        picture.save(path, format="PNG")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the pictures of docs/references.md.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"pictures to make (default: all): {', '.join(PICTURES)}")
    parser.add_argument("--out", type=Path, default=HERE, metavar="DIR",
                        help="folder to write NAME.png into (default: docs/images)")
    args = parser.parse_args(argv)
    try:
        paths = write_pictures(args.out, args.names or None)
    except ValueError as error:
        parser.error(str(error))
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

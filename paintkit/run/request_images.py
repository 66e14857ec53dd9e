"""The images a model gets for one problem, read from the benchmark tree.

The input ``NNN_input.png`` first, then, for a problem with reference images,
``NNN_reference_1.png``, ``NNN_reference_2.png``, ... beside it, in that order. How many
there are and their roles come from the metadata's ``references`` list
(``[{"role": "style"}, ...]``, docs/file-layout.md): the metadata is the source of truth,
so a reference file the metadata does not list is never sent, and one it lists but that is
missing fails the problem. A one-image problem has no ``references`` key and reads its
input alone, as it always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from paintkit.io.images import load_rgb
from paintkit.layout.benchmark import read_references
from paintkit.run.interface import ReferenceImage

if TYPE_CHECKING:
    from paintkit.layout.benchmark import BenchmarkProblem


def read_request_images(problem: BenchmarkProblem,
                        metadata: dict) -> tuple[Image.Image, tuple[ReferenceImage, ...]]:
    """``(input, references)`` of ``problem`` as RGB PIL images, the references with the
    roles of ``metadata`` (the problem's ``NNN.json``), in the order the model gets them
    (read by :func:`paintkit.layout.benchmark.read_references`, as every reader of a tree
    reads them).

    Raises:
        ValueError: an image is missing or does not decode (naming the file), or the
            metadata's ``references`` is malformed (naming the metadata file).
    """
    image = Image.fromarray(load_rgb(problem.input_path))
    return image, tuple(ReferenceImage(Image.fromarray(pixels), role)
                        for role, pixels in read_references(problem, metadata))

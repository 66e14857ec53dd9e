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
from paintkit.layout.problem_files import reference_paths
from paintkit.run.interface import ReferenceImage

if TYPE_CHECKING:
    from paintkit.layout.benchmark import BenchmarkProblem


def reference_roles(metadata: dict) -> tuple[str, ...]:
    """The roles of a problem's reference images, in order (``()`` without references).

    Raises:
        ValueError: ``references`` is not a list of ``{"role": <non-empty string>}`` objects.
    """
    listed = metadata.get("references")
    if listed is None:
        return ()
    if not isinstance(listed, list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("role"), str) and entry["role"]
            for entry in listed):
        raise ValueError(f"metadata 'references': expected a list of {{\"role\": name}} "
                         f"objects, got {str(listed)[:80]}")
    return tuple(entry["role"] for entry in listed)


def read_request_images(problem: BenchmarkProblem,
                        metadata: dict) -> tuple[Image.Image, tuple[ReferenceImage, ...]]:
    """``(input, references)`` of ``problem`` as RGB PIL images, the references with the
    roles of ``metadata`` (the problem's ``NNN.json``), in the order the model gets them.

    Raises:
        ValueError: an image is missing or does not decode (naming the file), or the
            metadata's ``references`` is malformed.
    """
    image = Image.fromarray(load_rgb(problem.input_path))
    roles = reference_roles(metadata)
    paths = reference_paths(problem.metadata_path, len(roles))
    return image, tuple(ReferenceImage(Image.fromarray(load_rgb(path)), role)
                        for path, role in zip(paths, roles, strict=True))

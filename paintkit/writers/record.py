"""A generated problem as the bytes a writer stores, and the file records of a manifest."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from paintkit.io.png_encode import encode_png
from paintkit.renderers.svg_scene import problem_svgs, reference_svgs
from paintkit.suites.spec import ProblemSpec
from paintkit.tasks import Problem

#: Metadata fields an encoded problem keeps as plain attributes (Parquet columns).
COLUMNS = ("task", "mode", "visual_condition", "category")


@dataclass(frozen=True)
class EncodedProblem:
    """Problem ``index`` of a suite, encoded: two PNGs and the metadata JSON (UTF-8)."""

    index: int
    key: str  # the problem id, also the shard key
    folder: str  # task folder of the directory layout
    stem: str  # NNN
    input_png: bytes
    answer_png: bytes
    metadata_json: bytes
    instruction: str
    task: str = ""
    mode: str = ""
    visual_condition: str = ""
    category: str = ""
    input_svg: bytes = b""  # SVG of input and answer (paintkit generate --svg), else empty
    answer_svg: bytes = b""
    #: The reference images' PNGs, in order (the metadata's ``references`` names their roles);
    #: empty for a one-image problem.
    reference_pngs: tuple[bytes, ...] = ()
    #: With ``svg``, each reference image's SVG, in the same order; else empty.
    reference_svgs: tuple[bytes, ...] = ()

    @property
    def nbytes(self) -> int:
        return (len(self.input_png) + len(self.answer_png) + len(self.metadata_json)
                + len(self.input_svg) + len(self.answer_svg)
                + sum(len(png) for png in self.reference_pngs)
                + sum(len(svg) for svg in self.reference_svgs))


@dataclass(frozen=True)
class FileRecord:
    """One finished file for the manifest: path relative to the output root, size, SHA-256."""

    path: str
    nbytes: int
    sha256: str

    @classmethod
    def of_bytes(cls, path: str, data: bytes) -> FileRecord:
        return cls(path, len(data), hashlib.sha256(data).hexdigest())

    @classmethod
    def of_file(cls, root: Path, path: str) -> FileRecord:
        digest, size = hashlib.sha256(), 0
        with open(Path(root) / path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
        return cls(path, size, digest.hexdigest())


def metadata_bytes(metadata: dict, indent: int | None) -> bytes:
    """The metadata JSON: ``indent=1`` for the human-read directory layout, compact in shards."""
    separators = None if indent else (",", ":")
    return json.dumps(metadata, indent=indent, separators=separators, ensure_ascii=False).encode()


def encode_problem(spec: ProblemSpec, problem: Problem, *, png_encoder: str = "auto",
                   json_indent: int | None = 1, svg: bool = False) -> EncodedProblem:
    """Encode ``problem`` (generated for ``spec``): PNGs and metadata JSON, and with ``svg``
    the input and answer as SVG (:func:`paintkit.renderers.svg_scene.problem_svgs`) and each
    reference image too (:func:`~paintkit.renderers.svg_scene.reference_svgs`)."""
    svgs, ref_svgs = (b"", b""), ()
    if svg:
        svgs = tuple(text.encode() for text in
                     problem_svgs(problem.metadata, problem.input, problem.answer))
        ref_svgs = tuple(text.encode() for text in reference_svgs(
            problem.metadata, [ref.image for ref in problem.references]))
    input_png = encode_png(problem.input, png_encoder)
    same = problem.answer is problem.input  # preservation problems: encode once
    answer_png = input_png if same else encode_png(problem.answer, png_encoder)
    return EncodedProblem(
        index=spec.index, key=spec.problem_id, folder=spec.folder, stem=spec.stem,
        input_png=input_png, answer_png=answer_png,
        metadata_json=metadata_bytes(problem.metadata, json_indent), instruction=problem.instruction,
        input_svg=svgs[0], answer_svg=svgs[1],
        reference_pngs=tuple(encode_png(ref.image, png_encoder) for ref in problem.references),
        reference_svgs=ref_svgs,
        **{name: str(problem.metadata.get(name, "")) for name in COLUMNS},
    )

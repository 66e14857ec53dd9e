"""``--format flow-grpo`` / ``flow-factory``: the JSONL editing datasets those trainers load.

Both read one JSON object per line with the instruction under ``prompt`` and the input
image's path under ``image``; the other keys reach the reward as the sample's metadata:

- flow_grpo: ``<root>/{train,test}_metadata.jsonl``, paths relative to ``<root>``, read by
  both of its editing trainers: ``train_flux_kontext.py`` (its image-prompt dataset opens
  ``image``, the input) and ``train_qwenimage_edit_plus.py`` (its dataset opens
  ``ctrl_image``, the image to edit: the input; ``ref_image``, the image the instruction
  refers to: the input again, as a PaintBench edit refers to no other image; ``sup_image``,
  the supervision target: the answer). The reward :func:`paintkit.rewards.flow_grpo_pixel_miou` reads
  ``image`` and ``answer`` from the metadata line, relative to ``root=`` (the dataset folder);
- Flow-Factory (``GeneralDataset``): ``<root>/{train,test}.jsonl``, ``image`` relative to
  ``<root>/images`` (the condition image). Flow-Factory's GRPO loop keeps only the sample's
  own fields (the prompt verbatim, the generated image, the resized condition images): the
  other columns never reach the reward. :class:`paintkit.rewards.FlowFactoryPixelMIoU` with
  ``dataset`` = ``<root>`` maps each prompt back to its line here (the condition image
  telling apart problems that share an instruction) and reads ``answer`` and ``input``
  under ``<root>/images``, or regenerates them from ``problem_id``.

Images go to ``images/<task folder>/<NNN>_input.png`` and ``_answer.png``; every line also
carries ``problem_id`` (the rewards' cache key) and ``task``. Problems whose index ends in 9
(one in ten) form the ``test`` split, the others ``train``. Each problem's line is kept in a
sidecar ``<NNN>.json`` beside its images, written last (a problem whose files exist is
done), and the two JSONL files are written atomically when the run ends, in suite order.

A problem with reference images (docs/references.md) also has ``<NNN>_reference_1.png``, ...
beside its input, in the layout each trainer reads for several images:

- flow_grpo's ``dataset/dual_ref`` layout (``train_qwenimage_edit_plus.py``): ``ref_image``
  is the reference (``ctrl_image`` the input, ``sup_image`` the answer; ``image`` stays the
  input, which the reward reads). Its pipeline takes one reference per sample, so a problem
  with two or more is refused. It encodes ``[ref_image, ctrl_image]``: the model sees the
  reference first, while the instructions call the source "the first image";
- Flow-Factory: the line's ``images`` list, the input first, then each reference in order
  (``GeneralDataset`` opens every path of ``images`` under ``images/``; the multi-image edit
  models, Qwen-Image-Edit-Plus and FLUX.2, take them as their condition images), in place of
  ``image``. A dataset that mixes one-image problems with such problems writes
  ``images: [input]`` for the former in its JSONL files (one column for the table the loader
  builds; a line with ``image`` beside lines with ``images`` would lose its images there),
  while their sidecars keep ``image``.

Scores depend only on the problem: the rewards read ``answer`` and the input, never a
reference.
"""

from __future__ import annotations

import json

from paintkit.layout.problem_files import (
    answer_name,
    input_name,
    metadata_name,
    reference_name,
    required_suffixes,
)
from paintkit.writers.base import Writer, write_files
from paintkit.writers.record import EncodedProblem, FileRecord
from paintkit.writers.reference_limits import check_references

SUFFIXES = required_suffixes()


def split_of(index: int) -> str:
    return "test" if index % 10 == 9 else "train"


class EditJsonlWriter(Writer):
    """Base of the two JSONL formats: ``jsonl`` names the split files; line paths are
    relative to the dataset folder, or to its ``images/`` with ``relative_to_images``."""

    json_indent = None
    jsonl = "{split}.jsonl"
    relative_to_images = False

    def __init__(self, root, suite):
        super().__init__(root, suite)
        self._lines: dict[int, bytes] = {}

    def temp_folders(self):
        return [self.root / "images"]

    def _stem(self, index: int) -> str:
        spec = self.suite.spec(index)
        return f"images/{spec.folder}/{spec.stem}"

    def line(self, problem: EncodedProblem, stem: str) -> dict:
        base = stem[len("images/"):] if self.relative_to_images else stem
        line = {"prompt": problem.instruction, "image": input_name(base),
                "answer": answer_name(base), "problem_id": problem.key, "task": problem.task}
        if self.relative_to_images:
            line["input"] = line["image"]  # the loader consumes "image"; the reward reads this
        return line

    def reference_count(self, line: dict) -> int:
        """How many reference images the problem of a (sidecar) line has."""
        return 0

    @staticmethod
    def _files(stem: str, references: int) -> list[str]:
        """The problem's files in writing order: input, answer, references, the line last."""
        return [stem + SUFFIXES[0], stem + SUFFIXES[1],
                *(reference_name(stem, n) for n in range(1, references + 1)),
                metadata_name(stem)]

    def _kept_references(self, stem: str) -> int | None:
        """The reference count its kept sidecar line names, or None when it is unreadable
        (the problem is made again)."""
        try:
            return self.reference_count(json.loads((self.root / metadata_name(stem)).read_bytes()))
        except (OSError, ValueError, TypeError, AttributeError, KeyError):
            return None

    def is_done(self, index: int) -> bool:
        stem = self._stem(index)  # kept only when they match the earlier manifest's records
        if not all(self.kept.intact(self.root, stem + suffix) for suffix in SUFFIXES):
            return False
        references = self._kept_references(stem)
        return references is not None and all(
            self.kept.intact(self.root, reference_name(stem, n)) for n in range(1, references + 1))

    def skip(self, index: int) -> list[FileRecord]:
        stem = self._stem(index)
        self._lines[index] = (self.root / metadata_name(stem)).read_bytes()
        return [self.kept.record(self.root, path)
                for path in self._files(stem, self._kept_references(stem) or 0)]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        check_references(self, problem)
        stem = f"images/{problem.folder}/{problem.stem}"
        line = json.dumps(self.line(problem, stem), ensure_ascii=False).encode()
        records = write_files(self.root, self._files(stem, len(problem.reference_pngs)),
                              (problem.input_png, problem.answer_png, *problem.reference_pngs,
                               line))
        self._lines[problem.index] = line
        return records

    def split_lines(self, lines: list[bytes]) -> list[bytes]:
        """The lines of the JSONL split files, in suite order (the sidecars' lines, by
        default)."""
        return lines

    def close(self) -> list[FileRecord]:
        splits = ("train", "test")
        indices = sorted(self._lines)
        lines = dict(zip(indices, self.split_lines([self._lines[k] for k in indices]),
                         strict=True))
        return write_files(self.root, [self.jsonl.format(split=split) for split in splits],
                           [b"".join(lines[k] + b"\n" for k in indices if split_of(k) == split)
                            for split in splits])


class FlowGrpoWriter(EditJsonlWriter):
    format = "flow-grpo"
    jsonl = "{split}_metadata.jsonl"

    max_references = 1
    references_why = ("train_qwenimage_edit_plus.py's dual_ref rows name one ref_image, and "
                      "its pipeline encodes [ref_image, ctrl_image]")

    def line(self, problem: EncodedProblem, stem: str) -> dict:
        line = super().line(problem, stem)
        # train_qwenimage_edit_plus.py's keys: the image to edit, the image referred to, the
        # target; with no reference image the instruction refers to the input itself
        ref = reference_name(stem, 1) if problem.reference_pngs else line["image"]
        line.update(ctrl_image=line["image"], ref_image=ref, sup_image=line["answer"])
        return line

    def reference_count(self, line: dict) -> int:
        return int(line["ref_image"] != line["image"])


class FlowFactoryWriter(EditJsonlWriter):
    format = "flow-factory"
    jsonl = "{split}.jsonl"
    relative_to_images = True

    def line(self, problem: EncodedProblem, stem: str) -> dict:
        line = super().line(problem, stem)
        if not problem.reference_pngs:
            return line
        base = stem[len("images/"):]
        # GeneralDataset opens each path of "images": the input, then the references in order
        images = [line["image"], *(reference_name(base, n)
                                   for n in range(1, len(problem.reference_pngs) + 1))]
        return {("images" if key == "image" else key): (images if key == "image" else value)
                for key, value in line.items()}

    def reference_count(self, line: dict) -> int:
        return len(line["images"]) - 1 if "images" in line else 0

    def split_lines(self, lines: list[bytes]) -> list[bytes]:
        """A dataset with several-image lines writes ``images: [input]`` for its one-image
        lines too: the loader's table then has one image column (see the module docstring)."""
        if not any(b'"images":' in line for line in lines):
            return lines
        out = []
        for line in lines:
            fields = json.loads(line)
            if "image" in fields:
                fields = {("images" if key == "image" else key):
                          ([value] if key == "image" else value) for key, value in fields.items()}
                line = json.dumps(fields, ensure_ascii=False).encode()
            out.append(line)
        return out

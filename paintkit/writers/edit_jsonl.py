"""``--format flow-grpo`` / ``flow-factory``: the JSONL editing datasets those trainers load.

Both read one JSON object per line with the instruction under ``prompt`` and the input
image's path under ``image``; the other keys reach the reward as the sample's metadata:

- flow_grpo: ``<root>/{train,test}_metadata.jsonl``, paths relative to ``<root>``, read by
  both of its editing trainers: ``train_flux_kontext.py`` (its image-prompt dataset opens
  ``image``, the input) and ``train_qwenimage_edit_plus.py`` (its dataset opens
  ``ctrl_image``, the image to edit: the input; ``ref_image``, the image the instruction
  refers to: the input again, as a PaintBench edit refers to no other image; ``sup_image``,
  the supervision target: the answer). The reward :func:`paintkit.rewards.pixel_miou` reads
  ``image`` and ``answer`` from the metadata line, relative to ``root=`` (the dataset folder);
- Flow-Factory (``GeneralDataset``): ``<root>/{train,test}.jsonl``, ``image`` relative to
  ``<root>/images`` (the condition image). Flow-Factory's GRPO loop keeps only the sample's
  own fields (the prompt verbatim, the generated image, the resized condition images): the
  other columns never reach the reward. :class:`paintkit.rewards.PixelIoURewardModel` with
  ``dataset`` = ``<root>`` maps each prompt back to its line here (the condition image
  telling apart problems that share an instruction) and reads ``answer`` and ``input``
  under ``<root>/images``, or regenerates them from ``problem_id``.

Images go to ``images/<task folder>/<NNN>_input.png`` and ``_answer.png``; every line also
carries ``problem_id`` (the rewards' cache key) and ``task``. Problems whose index ends in 9
(one in ten) form the ``test`` split, the others ``train``. Each problem's line is kept in a
sidecar ``<NNN>.json`` beside its images, written last (a problem whose three files exist is
done), and the two JSONL files are written atomically when the run ends, in suite order.
"""

from __future__ import annotations

import json

from paintkit.layout.problem_files import answer_name, input_name, metadata_name, required_suffixes
from paintkit.writers.base import Writer, write_files
from paintkit.writers.record import EncodedProblem, FileRecord

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

    def is_done(self, index: int) -> bool:
        stem = self._stem(index)  # kept only when they match the earlier manifest's records
        return all(self.kept.intact(self.root, stem + suffix) for suffix in SUFFIXES)

    def skip(self, index: int) -> list[FileRecord]:
        stem = self._stem(index)
        self._lines[index] = (self.root / metadata_name(stem)).read_bytes()
        return [self.kept.record(self.root, stem + suffix) for suffix in SUFFIXES]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        stem = f"images/{problem.folder}/{problem.stem}"
        line = json.dumps(self.line(problem, stem), ensure_ascii=False).encode()
        records = write_files(self.root, [stem + suffix for suffix in SUFFIXES],
                              (problem.input_png, problem.answer_png, line))
        self._lines[problem.index] = line
        return records

    def close(self) -> list[FileRecord]:
        splits = ("train", "test")
        return write_files(self.root, [self.jsonl.format(split=split) for split in splits],
                           [b"".join(self._lines[k] + b"\n" for k in sorted(self._lines)
                                     if split_of(k) == split) for split in splits])


class FlowGrpoWriter(EditJsonlWriter):
    format = "flow-grpo"
    jsonl = "{split}_metadata.jsonl"

    def line(self, problem: EncodedProblem, stem: str) -> dict:
        line = super().line(problem, stem)
        # train_qwenimage_edit_plus.py's keys: the image to edit, the image referred to, the target
        line.update(ctrl_image=line["image"], ref_image=line["image"], sup_image=line["answer"])
        return line


class FlowFactoryWriter(EditJsonlWriter):
    format = "flow-factory"
    jsonl = "{split}.jsonl"
    relative_to_images = True

"""The standard layout (docs/file-layout.md): ``<root>/<benchmark>/<task>/<NNN>_input.png``,
``<NNN>_answer.png``, ``<NNN>.json`` (the preservation split in ``<benchmark>/preservation/``).

Each file is written atomically, the JSON last: a problem whose three files exist is done.
The file names come from :mod:`paintkit.layout.problem_files`.
"""

from __future__ import annotations

from pathlib import Path

from paintkit.io.names import check_folder_name  # noqa: F401 (re-exported)
from paintkit.layout.problem_files import written_suffixes
from paintkit.writers.base import Writer, write_files
from paintkit.writers.record import EncodedProblem, FileRecord


def benchmark_folders(suite) -> tuple[str, ...]:
    """The benchmark folders ``suite`` writes under the output root: its ``benchmark``, or each
    part's for a combined suite (whose own ``benchmark`` is the root itself, ``.``)."""
    parts = getattr(suite, "parts", None)
    return tuple(part.benchmark for part in parts) if parts else (suite.benchmark,)


class DirectoryWriter(Writer):
    format = "directory"
    json_indent = 1

    def __init__(self, root: Path | str, suite, svg: bool = False):
        super().__init__(root, suite)
        self.svg = svg
        self.suffixes = written_suffixes(svg)  # with --svg, the SVGs before the JSON
        self.folders = tuple(check_folder_name(name) for name in benchmark_folders(suite))
        # A combined suite's spec folders already start with the part's benchmark folder.
        self._prefix = "" if getattr(suite, "parts", None) else f"{suite.benchmark}/"

    def options(self) -> dict:
        return {**super().options(), "svg": True} if self.svg else super().options()

    def _stem_path(self, index: int) -> str:
        spec = self.suite.spec(index)
        return f"{self._prefix}{spec.folder}/{spec.stem}"

    def temp_folders(self) -> list[Path]:
        return [self.root / name for name in self.folders]

    def is_done(self, index: int) -> bool:
        stem = self._stem_path(index)
        return all(self.kept.intact(self.root, stem + suffix) for suffix in self.suffixes)

    def skip(self, index: int) -> list[FileRecord]:
        stem = self._stem_path(index)
        return [self.kept.record(self.root, stem + suffix) for suffix in self.suffixes]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        stem = f"{self._prefix}{problem.folder}/{problem.stem}"
        files = (problem.input_png, problem.answer_png, problem.metadata_json)
        if self.svg:
            files = files[:2] + (problem.input_svg, problem.answer_svg) + files[2:]
        return write_files(self.root, [stem + suffix for suffix in self.suffixes], files)

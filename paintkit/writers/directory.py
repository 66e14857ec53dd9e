"""The standard layout (docs/file-layout.md): ``<root>/<benchmark>/<task>/<NNN>_input.png``,
``<NNN>_answer.png``, ``<NNN>.json`` (the preservation split in ``<benchmark>/preservation/``).

A problem with reference images also gets ``<NNN>_reference_1.png``, ... and with ``--svg``
``<NNN>_reference_1.svg``, ... (before its JSON, whose ``references`` list says how many;
order: :func:`~paintkit.layout.problem_files.problem_suffixes`). Each file is written
atomically, the JSON last: a problem whose files exist is done. The file names come from
:mod:`paintkit.layout.problem_files`.
"""

from __future__ import annotations

from pathlib import Path

from paintkit.io.jsonl import parse_json
from paintkit.io.names import check_folder_name  # noqa: F401 (re-exported)
from paintkit.layout.benchmark import reference_roles
from paintkit.layout.errors import LayoutError
from paintkit.layout.problem_files import problem_suffixes, written_suffixes
from paintkit.writers.base import Writer, write_files
from paintkit.writers.record import EncodedProblem, FileRecord


def benchmark_folders(suite) -> tuple[str, ...]:
    """The benchmark folders ``suite`` writes under the output root: its ``benchmark``, or each
    part's for a combined suite (whose own ``benchmark`` is the root itself, ``.``)."""
    parts = getattr(suite, "parts", None)
    return tuple(part.benchmark for part in parts) if parts else (suite.benchmark,)


def reference_count(metadata: bytes) -> int | None:
    """How many reference images a problem's JSON (its bytes) lists: 0 for a one-image
    problem, None for a JSON that cannot be read as a problem's."""
    if b'"references"' not in metadata:  # a one-image problem: no parse
        return 0
    try:
        meta = parse_json(metadata)
        return len(reference_roles(meta)) if isinstance(meta, dict) else None
    except (ValueError, LayoutError):
        return None


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

    def _suffixes(self, references: int) -> tuple[str, ...]:
        """The problem's file suffixes in writing order: the references (and with ``svg``
        their SVGs) before the JSON."""
        return problem_suffixes(references, self.svg)

    def _kept_references(self, stem: str) -> int | None:
        """How many references the kept problem ``stem`` lists (its JSON, already checked
        intact), or None when that JSON cannot be read (the problem is made again)."""
        try:
            return reference_count((self.root / (stem + self.suffixes[-1])).read_bytes())
        except OSError:
            return None

    def stored_names(self, index: int, metadata: bytes) -> list[str]:
        """The files problem ``index`` has, in writing order (the manifest's), given its
        JSON's bytes ``metadata``: its reference images as that JSON lists them."""
        stem = self._stem_path(index)
        return [stem + suffix for suffix in self._suffixes(reference_count(metadata) or 0)]

    def is_done(self, index: int) -> bool:
        stem = self._stem_path(index)
        if not all(self.kept.intact(self.root, stem + suffix) for suffix in self.suffixes):
            return False
        references = self._kept_references(stem)
        return references is not None and all(
            self.kept.intact(self.root, stem + suffix)
            for suffix in self._suffixes(references) if suffix not in self.suffixes)

    def skip(self, index: int) -> list[FileRecord]:
        stem = self._stem_path(index)
        suffixes = self._suffixes(self._kept_references(stem) or 0)
        return [self.kept.record(self.root, stem + suffix) for suffix in suffixes]

    def write(self, problem: EncodedProblem) -> list[FileRecord]:
        stem = f"{self._prefix}{problem.folder}/{problem.stem}"
        files = (problem.input_png, problem.answer_png)
        if self.svg:
            files += (problem.input_svg, problem.answer_svg)
        files += problem.reference_pngs
        if self.svg:
            if len(problem.reference_svgs) != len(problem.reference_pngs):
                raise ValueError(f"{stem}: {len(problem.reference_pngs)} reference image(s) but "
                                 f"{len(problem.reference_svgs)} SVG(s); encode with svg=True")
            files += problem.reference_svgs
        files += (problem.metadata_json,)
        suffixes = self._suffixes(len(problem.reference_pngs))
        return write_files(self.root, [stem + suffix for suffix in suffixes], files)

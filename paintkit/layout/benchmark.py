"""Benchmark trees: ``<root>/<Benchmark>/<task>/<NNN>_input.png``, ``<NNN>_answer.png``,
``<NNN>.json`` (docs/file-layout.md), and reading one problem's metadata and images. The
file names come from :mod:`paintkit.layout.problem_files`.

A problem with reference images (docs/references.md) also has ``NNN_reference_1.png``, ...:
its metadata's ``references`` list (``[{"role": "style"}, ...]``) says how many and their
roles (:func:`reference_roles`), :func:`read_references` reads them.

Trees written by other tools are read the same way: any number of digits is accepted for
``NNN``, hidden files and files not starting with a digit are ignored, and anything else
that breaks the layout is reported with the first offending path.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paintkit.io.images import ImageDecodeError, load_rgb
from paintkit.io.jsonl import parse_json
from paintkit.io.names import check_folder_name
from paintkit.layout.errors import LayoutError
from paintkit.layout.folders import visible_dirs
from paintkit.layout.outputs import output_name
from paintkit.layout.problem_files import (
    answer_name,
    input_name,
    is_input_file,
    metadata_name,
    parse_problem_file,
    reference_name,
    required_suffixes,
)
from paintkit.layout.rows import RowKey


def _expected(stem: str = "NNN") -> str:
    return f"{input_name(stem)}, {answer_name(stem)}, {metadata_name(stem)}"


@dataclass(frozen=True)
class BenchmarkProblem:
    """One problem on disk. ``idx`` is the integer ``NNN``."""

    benchmark: str
    task: str
    idx: int
    folder: Path
    stem: str  # the NNN as written on disk (zero-padded)

    @property
    def input_path(self) -> Path:
        return self.folder / input_name(self.stem)

    @property
    def answer_path(self) -> Path:
        return self.folder / answer_name(self.stem)

    @property
    def metadata_path(self) -> Path:
        return self.folder / metadata_name(self.stem)

    def reference_paths(self, count: int) -> tuple[Path, ...]:
        """``NNN_reference_1.png`` .. ``NNN_reference_<count>.png`` (``count``: the length
        of the metadata's ``references`` list, :func:`reference_roles`)."""
        return tuple(self.folder / reference_name(self.stem, n) for n in range(1, count + 1))

    def output_path(self, outputs_root: Path, model: str, kind: str = "output.png") -> Path:
        """``<outputs_root>/<model>/<benchmark>/<task>/NNNN_output.png`` (or another file
        of :data:`~paintkit.layout.outputs.OUTPUT_COMPANIONS`); ``ValueError`` for a name
        that would leave ``outputs_root`` (paintkit/io/names.py)."""
        return Path(outputs_root) / check_folder_name(model, "model") / \
            check_folder_name(self.benchmark) / check_folder_name(self.task, "task") / \
            output_name(self.idx, kind)

    def key(self, model: str) -> RowKey:
        """The results-row key of ``model``'s output of this problem."""
        return RowKey(model, self.benchmark, self.task, self.idx)


def _task_problems(benchmark: str, task_dir: Path) -> list[BenchmarkProblem]:
    found: dict[str, set[str]] = {}
    try:
        entries = sorted(task_dir.iterdir())
    except OSError as exc:
        raise LayoutError(f"{task_dir}: cannot list folder: {exc.strerror or exc}") from None
    for path in entries:
        name = path.name
        if name.startswith(".") or not name[:1].isdigit():
            continue
        parsed = parse_problem_file(name)
        if parsed is None or not path.is_file():
            raise LayoutError(f"{path}: not a benchmark file; expected one of {_expected()} "
                              "(docs/file-layout.md)")
        found.setdefault(parsed[0], set()).add(parsed[1])
    if not found:
        raise LayoutError(f"{task_dir}: task folder holds no problems ({_expected()})")
    problems = []
    for stem in sorted(found, key=int):
        for suffix in required_suffixes():
            if suffix not in found[stem]:
                raise LayoutError(f"{task_dir / (stem + suffix)}: missing (problem {stem} has "
                                  f"{', '.join(sorted(stem + s for s in found[stem]))})")
        problems.append(BenchmarkProblem(benchmark, task_dir.name, int(stem), task_dir, stem))
    return problems


def _has_inputs(task: Path) -> bool:
    try:
        return any(is_input_file(p.name) for p in task.iterdir())
    except OSError:
        return False


def _is_benchmark_dir(folder: Path) -> bool:
    return any(_has_inputs(task) for task in visible_dirs(folder))


def benchmark_tasks(root) -> set[str]:
    """Names of every task folder of the benchmarks under ``root`` (before filtering)."""
    root = Path(root)
    bench_dirs = [root] if _is_benchmark_dir(root) else visible_dirs(root)
    return {t.name for bench in bench_dirs for t in visible_dirs(bench)}


def discover_problems(root, benchmarks=None, tasks=None) -> list[BenchmarkProblem]:
    """Every problem under ``root`` (a folder of benchmarks, or one benchmark folder).

    Args:
        root: ``<root>`` holding ``<Benchmark>/`` folders, or a ``<Benchmark>`` folder.
        benchmarks, tasks: optional names to keep (others are not even listed).

    Raises:
        LayoutError: naming the first path that breaks the layout.
    """
    root = Path(root)
    if not root.is_dir():
        raise LayoutError(f"{root}: benchmark folder does not exist")
    bench_dirs = [root] if _is_benchmark_dir(root) else visible_dirs(root)
    if not bench_dirs:
        raise LayoutError(f"{root}: holds no <Benchmark>/<task>/ folders (docs/file-layout.md)")
    if benchmarks:
        wanted = set(benchmarks)
        bench_dirs = [b for b in bench_dirs if b.name in wanted]
        unknown = wanted - {b.name for b in bench_dirs}
        if unknown:
            raise LayoutError(f"{root}: no benchmark named {', '.join(sorted(unknown))}; "
                              f"found: {', '.join(b.name for b in visible_dirs(root))}")
    problems: list[BenchmarkProblem] = []
    if tasks:
        known = {t.name for bench in bench_dirs for t in visible_dirs(bench)}
        unknown = sorted(set(tasks) - known)
        if unknown:
            raise LayoutError(f"{root}: no task folder named {', '.join(unknown)}; the "
                              f"benchmarks hold: {', '.join(sorted(known))}")
    for bench in bench_dirs:
        task_dirs = visible_dirs(bench)
        stray = [p for p in sorted(bench.iterdir())
                 if p.is_file() and not p.name.startswith(".") and p.name[:1].isdigit()]
        if stray:
            raise LayoutError(f"{stray[0]}: problem file outside a task folder; expected "
                              f"{bench}/<task>/{stray[0].name}")
        if not task_dirs:
            raise LayoutError(f"{bench}: benchmark folder holds no task folders")
        for task_dir in task_dirs:
            if tasks and task_dir.name not in tasks:
                continue
            problems.extend(_task_problems(bench.name or bench.resolve().name, task_dir))
    return problems


def read_metadata(problem: BenchmarkProblem) -> dict:
    """The problem's JSON; a clear :class:`LayoutError` if unreadable or not an object."""
    return read_metadata_file(problem.metadata_path)


def read_metadata_file(path: Path) -> dict:
    """A problem's ``NNN.json`` at ``path``: the checks of :func:`read_metadata`."""
    try:
        meta = parse_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LayoutError(f"{path}: cannot read problem metadata: {exc}") from exc
    if not isinstance(meta, dict):
        raise LayoutError(f"{path}: expected a JSON object, got {type(meta).__name__}")
    return meta


def read_images(problem: BenchmarkProblem) -> tuple[np.ndarray, np.ndarray]:
    """``(input, answer)`` of ``problem``: uint8 ``(H, W, 3)`` each, of the same size.

    Raises:
        ImageDecodeError: a file is missing or undecodable, or the two sizes differ.
    """
    answer = load_rgb(problem.answer_path)
    inp = load_rgb(problem.input_path)
    if answer.shape != inp.shape:
        raise ImageDecodeError(
            f"{problem.answer_path}: answer is {answer.shape[1]}x{answer.shape[0]} but the "
            f"input is {inp.shape[1]}x{inp.shape[0]}"
        )
    return inp, answer


def reference_roles(meta: dict, where: object = "problem metadata") -> tuple[str, ...]:
    """The roles of a problem's reference images, in order, from its metadata's
    ``references`` list (``[{"role": "style"}, ...]``); ``()`` for a one-image problem (no
    such key).

    Raises:
        LayoutError: ``references`` is not a list of objects each with a ``role`` string
            (one line naming ``where``).
    """
    listed = meta.get("references")
    if listed is None:
        return ()
    if not isinstance(listed, list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("role"), str) for entry in listed):
        raise LayoutError(f"{where}: 'references' must be a list of {{\"role\": name}} "
                          f"objects, got {str(listed)[:80]}")
    return tuple(entry["role"] for entry in listed)


def read_references(problem: BenchmarkProblem, meta: dict | None = None
                    ) -> tuple[tuple[str, np.ndarray], ...]:
    """``((role, image), ...)`` of ``problem``'s reference images in order (images uint8
    ``(H, W, 3)``, any size); ``()`` for a one-image problem. ``meta``: its metadata when
    already read.

    Raises:
        LayoutError: the metadata's ``references`` list is malformed.
        ImageDecodeError: a reference file it lists is missing or undecodable.
    """
    meta = read_metadata(problem) if meta is None else meta
    roles = reference_roles(meta, problem.metadata_path)
    return tuple((role, load_rgb(path))
                 for role, path in zip(roles, problem.reference_paths(len(roles)), strict=True))

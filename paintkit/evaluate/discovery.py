"""Benchmark and model-output trees in the standard layout (docs/file-layout.md).

Benchmarks: ``<root>/<Benchmark>/<task>/<NNN>_input.png``, ``<NNN>_answer.png``,
``<NNN>.json``. Outputs: ``<outputs>/<model>/<Benchmark>/<task>/<NNNN>_output.png``.
Trees written by other tools are read the same way: any number of digits is accepted for
``NNN``, hidden files and files not starting with a digit are ignored, and anything else
that breaks the layout is reported with the first offending path. In an outputs tree,
files that are not a problem's ``NNNN_output.png`` (``001_output.png``, ``.PNG``, ``.jpg``,
an unknown task folder) are listed once by :func:`ignored_outputs`, never scored.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from paintkit.errors import PaintkitError
from paintkit.io.jsonl import parse_json
from paintkit.io.names import check_folder_name

# NNN_input.svg / NNN_answer.svg: optional vector copies (paintkit generate --svg)
_PROBLEM_FILE = re.compile(r"^(\d+)(_input\.png|_answer\.png|\.json|_input\.svg|_answer\.svg)$")
_SUFFIXES = ("_input.png", "_answer.png", ".json")


#: Files of one problem in an outputs task folder: the output, and the model's text saved
#: beside it by ``paintkit run`` (never scored, never reported as ignored).
OUTPUT_COMPANIONS = ("output.png", "reasoning.txt", "plan.txt")


class LayoutError(PaintkitError, ValueError):
    """A benchmark or outputs tree does not follow the standard layout (docs/file-layout.md)."""


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
        return self.folder / f"{self.stem}_input.png"

    @property
    def answer_path(self) -> Path:
        return self.folder / f"{self.stem}_answer.png"

    @property
    def metadata_path(self) -> Path:
        return self.folder / f"{self.stem}.json"

    def output_path(self, outputs_root: Path, model: str) -> Path:
        """``<outputs_root>/<model>/<benchmark>/<task>/NNNN_output.png``; ``ValueError``
        for a name that would leave ``outputs_root`` (paintkit/io/names.py)."""
        return Path(outputs_root) / check_folder_name(model, "model") / \
            check_folder_name(self.benchmark) / check_folder_name(self.task, "task") / \
            f"{self.idx:04d}_output.png"

    def key(self, model: str) -> tuple[str, str, str, int]:
        return (model, self.benchmark, self.task, self.idx)


def _visible_dirs(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError as exc:
        raise LayoutError(f"{folder}: cannot list folder: {exc.strerror or exc}") from None


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
        match = _PROBLEM_FILE.match(name)
        if match is None or not path.is_file():
            raise LayoutError(
                f"{path}: not a benchmark file; expected NNN_input.png, NNN_answer.png or "
                "NNN.json (docs/file-layout.md)"
            )
        found.setdefault(match.group(1), set()).add(match.group(2))
    if not found:
        raise LayoutError(f"{task_dir}: task folder holds no problems (NNN_input.png, "
                          "NNN_answer.png, NNN.json)")
    problems = []
    for stem in sorted(found, key=int):
        for suffix in _SUFFIXES:
            if suffix not in found[stem]:
                raise LayoutError(f"{task_dir / (stem + suffix)}: missing (problem {stem} has "
                                  f"{', '.join(sorted(stem + s for s in found[stem]))})")
        problems.append(BenchmarkProblem(benchmark, task_dir.name, int(stem), task_dir, stem))
    return problems


def _has_inputs(task: Path) -> bool:
    try:
        return any(p.name.endswith("_input.png") for p in task.iterdir())
    except OSError:
        return False


def _is_benchmark_dir(folder: Path) -> bool:
    return any(_has_inputs(task) for task in _visible_dirs(folder))


def benchmark_tasks(root) -> set[str]:
    """Names of every task folder of the benchmarks under ``root`` (before filtering)."""
    root = Path(root)
    bench_dirs = [root] if _is_benchmark_dir(root) else _visible_dirs(root)
    return {t.name for bench in bench_dirs for t in _visible_dirs(bench)}


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
    bench_dirs = [root] if _is_benchmark_dir(root) else _visible_dirs(root)
    if not bench_dirs:
        raise LayoutError(f"{root}: holds no <Benchmark>/<task>/ folders (docs/file-layout.md)")
    if benchmarks:
        wanted = set(benchmarks)
        bench_dirs = [b for b in bench_dirs if b.name in wanted]
        unknown = wanted - {b.name for b in bench_dirs}
        if unknown:
            raise LayoutError(f"{root}: no benchmark named {', '.join(sorted(unknown))}; "
                              f"found: {', '.join(b.name for b in _visible_dirs(root))}")
    problems: list[BenchmarkProblem] = []
    if tasks:
        known = {t.name for bench in bench_dirs for t in _visible_dirs(bench)}
        unknown = sorted(set(tasks) - known)
        if unknown:
            raise LayoutError(f"{root}: no task folder named {', '.join(unknown)}; the "
                              f"benchmarks hold: {', '.join(sorted(known))}")
    for bench in bench_dirs:
        task_dirs = _visible_dirs(bench)
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


def discover_models(outputs_root, models=None) -> list[str]:
    """Model names under ``outputs_root`` (``<outputs>/<model>/``), optionally filtered."""
    outputs_root = Path(outputs_root)
    if not outputs_root.is_dir():
        raise LayoutError(f"{outputs_root}: outputs folder does not exist")
    names = [p.name for p in _visible_dirs(outputs_root)]
    if models:
        missing = sorted(set(models) - set(names))
        if missing:
            import difflib

            close = [m for name in missing for m in difflib.get_close_matches(name, names, n=1)]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise LayoutError(f"{outputs_root}: no model folder named {', '.join(missing)}{hint};"
                              f" the folder holds {', '.join(sorted(names)) or 'no model folders'}")
        names = [n for n in names if n in set(models)]
    return names


def ignored_outputs(outputs_root, models: list[str], problems: list[BenchmarkProblem],
                    filtered_tasks: set[str] = frozenset()) -> list[Path]:
    """Files and folders under ``<outputs>/<model>/<Benchmark>/`` that no problem reads.

    Near-miss names (``001_output.png``, ``0001_output.PNG``, ``0001_output.jpg``, an index
    the benchmark lacks) and task folders the benchmark does not have. Hidden entries and
    unreadable folders are left out (a problem there is scored as missing, with the reason).
    Only the benchmarks and tasks of ``problems`` are looked at; task folders named in
    ``filtered_tasks`` (left out with ``--task``) are not listed.
    """
    outputs_root = Path(outputs_root)
    expected: dict[tuple[str, str], set[str]] = {}
    for problem in problems:
        expected.setdefault((problem.benchmark, problem.task), set()).update(
            f"{problem.idx:04d}_{name}" for name in OUTPUT_COMPANIONS)
    tasks_of: dict[str, set[str]] = {}
    for bench, task in expected:
        tasks_of.setdefault(bench, set()).add(task)
    ignored = []
    for model in models:
        for bench, tasks in sorted(tasks_of.items()):
            folder = outputs_root / model / bench
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.name not in tasks:
                    if entry.name not in filtered_tasks:
                        ignored.append(entry)
                    continue
                try:
                    names = sorted(os.listdir(entry))
                except OSError:
                    continue
                wanted = expected[(bench, entry.name)]
                ignored.extend(entry / n for n in names
                               if not n.startswith(".") and n not in wanted)
    return ignored


def read_metadata(problem: BenchmarkProblem) -> dict:
    """The problem's JSON; a clear :class:`LayoutError` if unreadable or not an object."""
    path = problem.metadata_path
    try:
        meta = parse_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LayoutError(f"{path}: cannot read problem metadata: {exc}") from exc
    if not isinstance(meta, dict):
        raise LayoutError(f"{path}: expected a JSON object, got {type(meta).__name__}")
    return meta

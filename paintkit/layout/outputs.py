"""Model-output trees: ``<outputs>/<model>/<Benchmark>/<task>/<NNNN>_output.png`` (docs/file-layout.md).

The names of every file a model folder may hold are spelled here once: the output of a
problem (``NNNN_output.png``, or as code ``NNNN_output.svg`` / ``NNNN_output.json``), the
output of one turn of a conversational problem (``NNNN_turn<k>_output.png``), the model's
text saved beside an output by ``paintkit run`` (``NNNN_reasoning.txt``, ``NNNN_plan.txt``)
and the run's own records in ``<outputs>/<model>/`` (``run_manifest.json``, ``run_log.jsonl``, the run lock).
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

from paintkit.layout.errors import LayoutError
from paintkit.layout.folders import visible_dirs

#: Files of one problem in an outputs task folder: the output, and the model's text saved
#: beside it by ``paintkit run`` (never scored, never reported as ignored).
OUTPUT_COMPANIONS = ("output.png", "output.svg", "output.json", "reasoning.txt", "plan.txt")
#: A problem's output as code, in place of ``NNNN_output.png``: an SVG (scene-based problems)
#: or a chart state (TinyGrafixBench), rendered before scoring (paintkit.code_outputs).
CODE_OUTPUTS = ("output.svg", "output.json")
#: ``<outputs>/<model>/run_manifest.json``: one entry per ``paintkit run`` (docs/run.md).
RUN_MANIFEST_NAME = "run_manifest.json"
#: ``<outputs>/<model>/run_log.jsonl``: one line per problem attempted by ``paintkit run``.
RUN_LOG_NAME = "run_log.jsonl"
#: The lock ``paintkit run`` holds on ``<outputs>/<model>/``.
RUN_LOCK_NAME = ".paintkit-run.lock"
#: A turn's output of a conversational problem (``paintkit eval --turns``).
TURN_OUTPUT = re.compile(r"^\d{4}_turn\d+_output\.png$")


def output_name(idx: int, kind: str = "output.png") -> str:
    """``NNNN_<kind>``: the file of problem ``idx`` in an outputs task folder (``kind`` one
    of :data:`OUTPUT_COMPANIONS`)."""
    return f"{idx:04d}_{kind}"


def turn_output_name(idx: int, turn: int) -> str:
    """``NNNN_turn<k>_output.png``: the model's image after turn ``turn``."""
    return f"{idx:04d}_turn{turn}_output.png"


def discover_models(outputs_root, models=None) -> list[str]:
    """Model names under ``outputs_root`` (``<outputs>/<model>/``), optionally filtered.

    Raises:
        LayoutError: the folder does not exist, or a name in ``models`` is not there
            (with the closest names found).
    """
    outputs_root = Path(outputs_root)
    if not outputs_root.is_dir():
        raise LayoutError(f"{outputs_root}: outputs folder does not exist")
    names = [p.name for p in visible_dirs(outputs_root)]
    if models:
        missing = sorted(set(models) - set(names))
        if missing:
            close = [m for name in missing for m in difflib.get_close_matches(name, names, n=1)]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise LayoutError(f"{outputs_root}: no model folder named {', '.join(missing)}{hint};"
                              f" the folder holds {', '.join(sorted(names)) or 'no model folders'}")
        names = [n for n in names if n in set(models)]
    return names


def ignored_outputs(outputs_root, models: list[str], problems,
                    filtered_tasks: set[str] = frozenset()) -> list[Path]:
    """Files and folders under ``<outputs>/<model>/<Benchmark>/`` that no problem reads.

    Near-miss names (``001_output.png``, ``0001_output.PNG``, ``0001_output.jpg``, an index
    the benchmark lacks) and task folders the benchmark does not have. Hidden entries and
    unreadable folders are left out (a problem there is scored as missing, with the reason).
    Only the benchmarks and tasks of ``problems`` (:class:`~paintkit.layout.benchmark.
    BenchmarkProblem`) are looked at; task folders named in ``filtered_tasks`` (left out
    with ``--task``) are not listed.
    """
    outputs_root = Path(outputs_root)
    expected: dict[tuple[str, str], set[str]] = {}
    for problem in problems:
        expected.setdefault((problem.benchmark, problem.task), set()).update(
            output_name(problem.idx, name) for name in OUTPUT_COMPANIONS)
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

"""``paintkit show``: generate one problem and write it for a quick look.

Two ways to name a problem, never mixed up: ``--slot N`` is problem N of a (task, condition,
mode) cell in a seed namespace (PaintBench's own problems in ``paintbench``, found by the
attempt search: ``paintkit.generate(task, seed=N, ...)``), ``--seed S`` is a generator seed,
exactly the task module's ``generate(S, condition, mode)``. Either way ``show`` prints the
problem's id and seed and the Python calls that reproduce it. A problem with reference images
(docs/references.md: the scene reference tasks, the chart style transfer charts; addressed
by ``--slot``) also gets ``reference_1.png``, ``reference_2.png``, ... (their roles are in
``problem.json``'s ``references``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from paintkit.cli.flags import LARGEST_SEED, integer, seed
from paintkit.conditions import CONDITIONS
from paintkit.errors import RejectedSeed
from paintkit.io.atomic import write_text_atomic
from paintkit.layout.problem_files import input_name, problem_stem
from paintkit.layout.shard_members import reference_field

#: Problem sources whose problems have reference images, asked after PaintBench and
#: TinyGrafixBench for a task name they do not know.
REFERENCE_SOURCES = ("references", "style-transfer")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="write one problem's input.png, answer.png and instruction",
        description="Generate one problem of TASK and write input.png, answer.png, "
        "instruction.txt and problem.json into OUT. --slot N is problem N of the (task, "
        "condition, mode) cell in --namespace (in 'paintbench', the benchmark's own problem, "
        "found by the attempt search, as paintkit.generate(TASK, seed=N)); --seed S is a generator "
        "seed, the same as paintkit.tasks.task_module(TASK).generate(S). A problem with reference "
        "images also gets reference_1.png, reference_2.png, ... Prints the problem's id, "
        "seed and the Python calls that reproduce it.",
    )
    p.add_argument("task", help="task name (see 'paintkit tasks'), a TinyGrafixBench "
                   "<chart>_<task>, a scene reference task or a style transfer chart type")
    p.add_argument("--mode", default=None, help="task mode (default: the task's first mode)")
    p.add_argument("--condition", choices=CONDITIONS, default="baseline")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--slot", type=integer(0, LARGEST_SEED), default=None,
                       help="problem slot of the cell in --namespace (default 0)")
    which.add_argument("--seed", type=seed(), default=None,
                       help="generator seed, as in paintkit.tasks.task_module(task).generate(seed)")
    p.add_argument("--namespace", default="paintbench", help="seed namespace of --slot")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write into")
    p.set_defaults(func=run)


def benchmark_index(task: str, condition: str, mode: str, slot: int) -> int | None:
    """``NNN`` of slot ``slot`` in ``PaintBench/<task>/``, None past the 12 per cell.

    Cell position ``p = slot * len(modes) + mode's index`` (modes split evenly); problem
    ``NNN = condition's index * 12 + p``.
    """
    # Deferred (heavy): the suites and tasks import the Numba kernels; `paintkit --help`
    # stays fast.
    from paintkit.suites import PAINTBENCH_PER_CELL
    from paintkit.tasks import task_spec

    modes = task_spec(task).modes
    position = slot * len(modes) + modes.index(mode)
    if position >= PAINTBENCH_PER_CELL:
        return None
    return CONDITIONS.index(condition) * PAINTBENCH_PER_CELL + position


def describe(problem, task: str, condition: str, mode: str) -> list[str]:
    """Lines naming ``problem``: its id, its seed and the call that reproduces it."""
    meta = problem.metadata
    lines = []
    if "slot" in meta:
        slot, namespace = meta["slot"], meta["namespace"]
        lines.append(f"problem {namespace}-{task}-{condition}-{mode}-{slot:06d}: slot {slot}, "
                     f"attempt {meta['attempt']}, seed {meta['seed']}")
        idx = benchmark_index(task, condition, mode, slot) if namespace == "paintbench" else None
        if idx is not None:
            lines.append(f"PaintBench file: PaintBench/{task}/{input_name(problem_stem(idx))}")
        space = "" if namespace == "paintbench" else f", namespace={namespace!r}"
        lines.append(f"reproduce: paintkit.generate({task!r}, seed={slot}, condition={condition!r}, "
                     f"mode={mode!r}{space})")
    else:
        lines.append(f"problem with generator seed {meta['seed']}")
    lines.append(f"reproduce: paintkit.tasks.task_module({task!r}).generate({meta['seed']}, "
                 f"{condition!r}, {mode!r})")
    return lines


def write_problem(out: Path, problem) -> str:
    """Write ``problem``'s ``input.png``, ``answer.png``, ``reference_<n>.png`` (one per
    reference image, in order), ``instruction.txt`` and ``problem.json`` into ``out``; the
    names written, for the closing line."""
    from paintkit.io.images import write_png  # imagecodecs: the PNG encoders

    images = [("input.png", problem.input), ("answer.png", problem.answer),
              *((reference_field(n), ref.image) for n, ref in enumerate(problem.references, 1))]
    for name, image in images:
        write_png(out / name, image)
    write_text_atomic(out / "instruction.txt", problem.instruction + "\n")
    write_text_atomic(out / "problem.json", json.dumps(problem.metadata, indent=1))
    return ", ".join([name for name, _ in images] + ["instruction.txt", "problem.json"])


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy): the charts, slots and tasks import the renderer (Skia) and the Numba
    # kernels.
    from paintkit.sources import generate, get_source
    from paintkit.tasks import TASKS, task_module, task_spec
    from paintkit.tinygrafix import TINYGRAFIX_TASKS

    if args.task in TINYGRAFIX_TASKS:  # TinyGrafixBench: <chart>_<task>, no condition or mode
        return show_chart_problem(args)
    if args.task not in TASKS:
        for source in REFERENCE_SOURCES:
            if args.task in get_source(source).tasks():
                return show_reference_problem(args, source)
    mode = task_spec(args.task).check_mode(args.mode)
    if args.seed is not None:
        if args.seed < 0:
            raise ValueError(f"--seed must be a non-negative int, got {args.seed}")
        try:
            problem = task_module(args.task).generate(args.seed, args.condition, mode)
        except RejectedSeed as exc:
            raise ValueError(f"seed {args.seed} gives no valid problem ({exc}); try another "
                             f"--seed, or --slot for the attempt search") from None
    else:
        slot = 0 if args.slot is None else args.slot
        if slot < 0:
            raise ValueError(f"--slot must be a non-negative int, got {slot}")
        problem = generate(args.task, slot, args.condition, mode, namespace=args.namespace)
    written = write_problem(args.out, problem)
    print(problem.instruction)
    for line in describe(problem, args.task, args.condition, mode):
        print(line)
    print(f"wrote {args.out}/{written}")
    return 0


def show_reference_problem(args: argparse.Namespace, source: str) -> int:
    """``paintkit show <task>`` of a source whose problems have reference images
    (:data:`REFERENCE_SOURCES`): addressed by --slot, in the source's own namespace unless
    --namespace names another."""
    # Deferred (heavy: Skia, numba, matplotlib): as in run().
    from paintkit.sources import generate

    if args.seed is not None:
        raise ValueError(f"{source} tasks are addressed by --slot (their seed comes from the "
                         "slot and its attempt); --seed is for PaintBench tasks")
    slot = 0 if args.slot is None else args.slot
    namespace = None if args.namespace == "paintbench" else args.namespace
    condition = None if source == "style-transfer" else args.condition  # charts: one cell
    problem = generate(args.task, slot, condition, args.mode, namespace=namespace, source=source)
    meta = problem.metadata
    written = write_problem(args.out, problem)
    print(problem.instruction)
    print(f"problem {problem.problem_id}: slot {slot}, attempt {meta['attempt']}, "
          f"seed {meta['seed']}")
    where = "" if namespace is None else f", namespace={namespace!r}"
    mode = f", mode={meta['mode']!r}" if meta.get("mode") else ""
    cell = "" if condition is None else f", condition={condition!r}"
    print(f"reproduce: paintkit.generate({args.task!r}, seed={slot}{cell}{mode}{where}, "
          f"source={source!r})")
    print(f"wrote {args.out}/{written}")
    return 0


def show_chart_problem(args: argparse.Namespace) -> int:
    """``paintkit show <chart>_<task>``: TinyGrafixBench problems are addressed by --slot only."""
    # Deferred (heavy: Skia, numba): as in run().
    from paintkit.sources import generate

    if args.seed is not None:
        raise ValueError("TinyGrafixBench tasks are addressed by --slot (their seed comes from "
                         "'tinygrafixbench|chart|task|slot|attempt'); --seed is for PaintBench tasks")
    slot = 0 if args.slot is None else args.slot
    if slot < 0:
        raise ValueError(f"--slot must be a non-negative int, got {slot}")
    namespace = "tinygrafixbench" if args.namespace == "paintbench" else args.namespace
    problem = generate(args.task, slot, namespace=namespace, source="tinygrafixbench")
    meta = problem.metadata
    written = write_problem(args.out, problem)
    print(problem.instruction)
    print(f"problem {namespace}-{args.task}-{slot:06d}: slot {slot}, attempt {meta['attempt']}, "
          f"seed {meta['seed']}")
    if namespace == "tinygrafixbench" and slot < 30:
        print(f"TinyGrafixBench file: TinyGrafixBench/{args.task}/"
              f"{input_name(problem_stem(slot))}")
    print(f"reproduce: paintkit.generate({args.task!r}, seed={slot}, source='tinygrafixbench', "
          f"namespace={namespace!r})")
    print(f"wrote {args.out}/{written}")
    return 0

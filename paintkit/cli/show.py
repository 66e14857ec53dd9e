"""``paintkit show``: generate one problem and write it for a quick look."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from paintkit.conditions import CONDITIONS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="write one problem's input.png, answer.png and instruction",
        description="Generate PaintBench problem SLOT (--seed) of TASK and write input.png, "
        "answer.png, instruction.txt and problem.json into OUT. Seeds follow the PaintBench "
        "scheme with attempt search, so --seed N is the benchmark's problem N.",
    )
    p.add_argument("task", help="task name (see 'paintkit tasks'), or a TinyGrafixBench <chart>_<task>")
    p.add_argument("--mode", default=None, help="task mode (default: the task's first mode)")
    p.add_argument("--condition", choices=CONDITIONS, default="baseline")
    p.add_argument("--seed", type=int, default=0, help="problem slot (default 0)")
    p.add_argument("--namespace", default="paintbench", help="seed namespace")
    p.add_argument("--out", type=Path, required=True, help="folder to write into")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from paintkit.charts import TINYGRAFIX_TASKS, generate_chart_problem
    from paintkit.io.atomic import write_text_atomic
    from paintkit.io.images import write_png
    from paintkit.tasks.slots import generate_slot

    if args.task in TINYGRAFIX_TASKS:  # TinyGrafixBench: <chart>_<task>, no condition or mode
        namespace = "tinygrafixbench" if args.namespace == "paintbench" else args.namespace
        problem = generate_chart_problem(args.task, args.seed, namespace=namespace)
    else:
        problem = generate_slot(args.task, args.condition, args.mode, args.seed,
                                namespace=args.namespace)
    write_png(args.out / "input.png", problem.input)
    write_png(args.out / "answer.png", problem.answer)
    write_text_atomic(args.out / "instruction.txt", problem.instruction + "\n")
    write_text_atomic(args.out / "problem.json", json.dumps(problem.metadata, indent=1))
    print(problem.instruction)
    print(f"wrote {args.out}/input.png, answer.png, instruction.txt, problem.json")
    return 0

"""``paintkit tasks``: list the tasks, their categories and modes."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the PaintBench tasks with their modes")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from paintkit.tasks import TASKS, available_tasks, task_spec

    available = set(available_tasks())
    for name in TASKS:
        if name not in available:
            print(f"{name:18s} (not available)")
            continue
        spec = task_spec(name)
        print(f"{name:18s} {spec.category:26s} {', '.join(spec.modes)}")
    return 0

"""``paintkit tasks``: list the tasks, their categories and modes; ``paintkit tasks TASK``
prints one task's rules (its module docstring) and parameter ranges."""

from __future__ import annotations

import argparse
import re


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the PaintBench tasks with their modes",
                       description="List the tasks, or describe TASK: its rules, modes and "
                       "parameter ranges (the distributions the generator draws from).")
    p.add_argument("task", nargs="?", default=None, help="describe this task")
    p.set_defaults(func=run)


def describe(name: str) -> str:
    """The rules (module docstring) and parameter ranges of task ``name``."""
    # Deferred (heavy): the tasks import the Numba kernels; `paintkit --help` stays fast.
    from paintkit.tasks import task_module

    module = task_module(name)
    spec = module.SPEC
    lines = [f"{name} ({spec.category}); modes: {', '.join(spec.modes)}", "",
             (module.__doc__ or "").strip(), "", "Parameters:"]
    lines += [f"  {key}: {text}" for key, text in spec.parameters.items()]
    return _plain("\n".join(lines))


def _plain(text: str) -> str:
    """Docstring markup for a terminal: ``code`` -> code, :func:`x` -> x."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return re.sub(r"``([^`]+)``", r"\1", text)


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy: numba): as in describe().
    from paintkit.tasks import TASKS, task_spec

    if args.task is not None:
        print(describe(args.task))
        return 0
    for name in TASKS:
        spec = task_spec(name)
        print(f"{name:18s} {spec.category:26s} {', '.join(spec.modes)}")
    return 0

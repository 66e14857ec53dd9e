"""``paintkit tasks``: list the tasks, their categories and modes; ``paintkit tasks TASK``
prints one task's rules (its module docstring) and parameter ranges."""

from __future__ import annotations

import argparse
import json
import re


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the PaintBench tasks with their modes",
                       description="List the tasks, or describe TASK: its rules, modes and "
                       "parameter ranges (the distributions the generator draws from).")
    p.add_argument("task", nargs="?", default=None, help="describe this task")
    p.add_argument("--json", action="store_true",
                   help="print JSON for scripts: a list of {name, category, modes} (with TASK: "
                   "that task's rules and parameter ranges too)")
    p.set_defaults(func=run)


def describe(name: str) -> str:
    """The rules (module docstring) and parameter ranges of task ``name``."""
    # Deferred (heavy): the tasks import the Numba kernels; `paintkit --help` stays fast.
    from paintkit.tasks import task_module  # skia, numba: the task registry

    module = task_module(name)
    spec = module.SPEC
    lines = [f"{name} ({spec.category}); modes: {', '.join(spec.modes)}", "",
             (module.__doc__ or "").strip(), "", "Parameters:"]
    lines += [f"  {key}: {text}" for key, text in spec.parameters.items()]
    return _plain("\n".join(lines))


def task_json(name: str, rules: bool = True) -> dict:
    """``{"name", "category", "modes"}`` of task ``name`` (plus ``"rules"`` and
    ``"parameters"`` when ``rules``)."""
    from paintkit.tasks import task_module  # skia, numba: the task registry

    module = task_module(name)
    spec = module.SPEC
    doc = {"name": name, "category": spec.category, "modes": list(spec.modes)}
    if rules:
        doc["rules"] = _plain((module.__doc__ or "").strip())
        doc["parameters"] = {key: _plain(text) for key, text in spec.parameters.items()}
    return doc


def _plain(text: str) -> str:
    """Docstring markup for a terminal: ``code`` -> code, :func:`x` -> x."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return re.sub(r"``([^`]+)``", r"\1", text)


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy: numba): as in describe().
    from paintkit.tasks import TASKS, task_spec  # skia, numba: the task registry

    if args.json:
        print(json.dumps(task_json(args.task) if args.task is not None else
                         [task_json(name, rules=False) for name in TASKS], indent=1))
        return 0
    if args.task is not None:
        print(describe(args.task))
        return 0
    for name in TASKS:
        spec = task_spec(name)
        print(f"{name:18s} {spec.category:26s} {', '.join(spec.modes)}")
    return 0

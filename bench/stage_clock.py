"""Exclusive CPU time per stage of the generate path, for ``bench/stage_breakdown.py``.

:class:`StageClock` wraps functions and sums each stage's thread-CPU time with nested calls
subtracted; :func:`instrument` replaces every module-level reference to the stage functions
(:data:`GENERATE_STAGES`) in paintkit's loaded modules by a timed wrapper.
"""

from __future__ import annotations

import sys
from collections import defaultdict

from bench.floors import thread_time


class StageClock:
    """Exclusive thread-CPU time per stage of wrapped functions (nested calls subtracted)."""

    def __init__(self):
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[float] = []

    def wrap(self, stage: str, fn):
        def timed(*args, **kwargs):
            start = thread_time()
            self._stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                inner = self._stack.pop()
                spent = thread_time() - start
                self.totals[stage] += spent - inner
                self.calls[stage] += 1
                if self._stack:
                    self._stack[-1] += spent

        timed.__wrapped__ = fn
        return timed


GENERATE_STAGES = {
    "scene sampling": ("paintkit.sampling.condition", ("condition_scene",),
                       "paintkit.sampling.shapes", ("sample_shapes",)),
    "Skia render": ("paintkit.renderers.skia_scene",
                    ("render", "render_rgba", "render_window", "render_mask", "render_codes",
                     "render_background")),
}


def instrument(clock: StageClock) -> None:
    """Replace every module-level reference to the stage functions by a timed wrapper."""
    import importlib

    from paintkit.tasks import TASKS, task_module

    for task in TASKS:  # load every task module first
        task_module(task)

    originals = {}
    for stage, spec in GENERATE_STAGES.items():
        for module_name, names in zip(spec[::2], spec[1::2], strict=True):
            module = importlib.import_module(module_name)
            for name in names:
                originals[id(getattr(module, name))] = (stage, getattr(module, name))
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("paintkit"):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and id(value) in originals:
                stage, fn = originals[id(value)]
                setattr(module, attr, clock.wrap(stage, fn))

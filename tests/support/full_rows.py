"""``problem_stats.jsonl`` rows shaped like the full benchmarks, without images.

PaintBench: the 20 tasks x 8 conditions x 12 problems (modes in turn) plus the 96-problem
preservation split = 2,016 problems per model; TinyGrafixBench: its 20 tasks x ``per_task``.
Four baselines-like models of different skill, one of them missing 25 outputs. Deterministic.
"""

from __future__ import annotations

import random

from tests.support.rows_factory import problem_row

MODELS = {"oracle-like": 0.98, "strong": 0.7, "middling": 0.45, "weak": 0.2}
MISSING = {"weak": 25}


def full_rows(per_cell: int = 12, per_task: int = 10, seed: int = 0) -> list[dict]:
    from paintkit.conditions import CONDITIONS
    from paintkit.tasks import TASKS, task_spec
    from paintkit.tinygrafix.registry import TINYGRAFIX_TASKS

    rng = random.Random(seed)
    rows = []
    for model, skill in MODELS.items():
        k = 0
        for task in TASKS:
            modes = task_spec(task).modes
            idx = 0
            for cond in CONDITIONS:
                for slot in range(per_cell):
                    k += 1
                    missing = k <= MISSING.get(model, 0)
                    rows.append(problem_row(rng, model, "PaintBench", task, modes[slot % len(modes)],
                                            cond, idx, has_output=not missing, skill=skill))
                    idx += 1
        for idx in range(8 * per_cell):
            rows.append(problem_row(rng, model, "PaintBench", "preservation", "default",
                                    "baseline", idx, skill=skill))
        for task in TINYGRAFIX_TASKS:
            for idx in range(per_task):
                rows.append(problem_row(rng, model, "TinyGrafixBench", task, "default",
                                        "baseline", idx, skill=skill * 0.8))
    return rows

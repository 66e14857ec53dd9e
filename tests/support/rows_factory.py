"""Synthetic ``problem_stats.jsonl`` rows (SPEC 5) for the stats tests: no images needed."""

from __future__ import annotations

import random

PB_TASKS = {  # task -> (category, modes): a slice of the real registry
    "translation": ("geometric_transformation", ("amount", "target")),
    "rotation": ("geometric_transformation", ("local", "global")),
    "removal": ("structural_manipulation", ("default",)),
    "border": ("structural_manipulation", ("default",)),
    "recolor": ("color_change", ("default",)),
    "counting": ("symbolic_reasoning", ("default",)),
}
CONDITIONS = ("baseline", "striped", "n_high")
TGB_TASKS = ("bar_chart_add_bar", "bar_chart_recolor_bar", "heatmap_add_cell", "heatmap_mask_cells",
             "line_chart_shade_interval")


def problem_row(rng: random.Random, model, benchmark, task, mode, condition, idx,
                has_output=True, skill=0.5, edit_pixels=None):
    """One row with monotone-in-t figures drawn around ``skill``."""
    w, h = 64, 48
    e = edit_pixels if edit_pixels is not None else rng.randint(20, 800)
    p = w * h - e
    per_t = {}
    base_e, base_p = rng.random() * skill, 0.5 + rng.random() * 0.5
    for t in range(11):
        ce = 0 if not has_output else min(e, int(e * min(1.0, base_e + 0.03 * t)))
        cp = 0 if not has_output else min(p, int(p * min(1.0, base_p + 0.01 * t)))
        ip = p - cp
        changed = 0 if not has_output else rng.randint(0, 3 * e)
        per_t[str(t)] = {"edit_correct_pixels": ce, "preservation_correct_pixels": cp,
                         "edit_accuracy": ce / e, "preservation_accuracy": cp / p,
                         "iou": ce / (e + ip), "changed_pixels": changed}
    keys = list(per_t["0"])
    mean = {k: sum(per_t[str(t)][k] for t in range(11)) / 11 for k in keys}
    if not has_output:  # what paintkit eval writes for a missing output (all zeros)
        mean = {k: 0.0 for k in keys}
    return {"model": model, "benchmark": benchmark, "task": task, "mode": mode,
            "visual_condition": condition, "idx": idx, "input_size": [w, h],
            "bg_colors": ["#FFFFFF"], "has_output": has_output,
            "correct_output_size": has_output and rng.random() > 0.1,
            "output": {"output_size": [w, h] if has_output else None, "edit_pixels": e,
                       "preservation_pixels": p, "cie76_threshold": per_t, "cie76_mean": mean}}


def paintbench_rows(models=("m1", "m2"), per_cell=4, seed=0, missing_rate=0.1,
                    with_preservation=True):
    """Rows for a small PaintBench-like run: every task x condition x mode, ``per_cell`` each."""
    rng = random.Random(seed)
    rows = []
    for m, model in enumerate(models):
        for task, (_, modes) in PB_TASKS.items():
            idx = 0
            for cond in CONDITIONS:
                for k in range(per_cell):
                    mode = modes[k % len(modes)]
                    rows.append(problem_row(rng, model, "PaintBench", task, mode, cond, idx,
                                            has_output=rng.random() > missing_rate,
                                            skill=0.3 + 0.3 * m))
                    idx += 1
        if with_preservation:
            for idx in range(per_cell):
                rows.append(problem_row(rng, model, "PaintBench", "preservation", "default",
                                        "baseline", idx))
    return rows


def tinygrafix_rows(models=("m1",), per_task=6, seed=1):
    rng = random.Random(seed)
    return [problem_row(rng, model, "TinyGrafixBench", task, "default", "baseline", idx)
            for model in models for task in TGB_TASKS for idx in range(per_task)]

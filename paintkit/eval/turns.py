"""``paintkit eval --turns``: score every turn of the conversational problems.

Plain ``paintkit eval`` scores a conversational problem like any other: the model's final
image (``NNNN_output.png``) against the last turn's answer, from the problem's input. With
``--turns`` every turn ``k`` is also scored on its own and written to
``<out>/turn_stats.jsonl``, one row per (model, problem, turn):

- the model's image of turn ``k`` is ``<outputs>/<model>/<Benchmark>/<task>/NNNN_turn<k>_output.png``
  (the last turn falls back to ``NNNN_output.png``);
- its answer is the turn's exact answer (``turns[k-1].answer_scene`` rendered, checked
  against ``answer_sha256``) and its input the exact answer of turn ``k - 1`` (the problem's
  input for turn 1): a turn is judged on the edit it asks for, whatever the model did before.

Rows carry the usual docs/file-layout.md ``output`` object plus ``turn``, ``turns`` and
``delta_e`` (``paintkit eval --turns --delta-e ciede2000`` scores the turns with the same
formula as the final images, blocks named after it). The file is
rewritten whole (atomically) on each run.
"""

from __future__ import annotations

import json
from pathlib import Path

from paintkit.compositional.turns import answer_pixels
from paintkit.eval.problem import load_output, score_output
from paintkit.io.atomic import write_bytes_atomic
from paintkit.io.images import load_rgb
from paintkit.layout.errors import LayoutError
from paintkit.layout.outputs import TURN_OUTPUT, turn_output_name
from paintkit.layout.results import TURN_STATS_NAME
from paintkit.loader import load
from paintkit.metrics.version import METRIC_VERSION

__all__ = ["TURN_OUTPUT", "describe", "missing_turns", "score_turns", "turn_output_path"]


def turn_output_path(outputs_root, model: str, problem, turn: int) -> Path:
    """``<outputs>/<model>/<Benchmark>/<task>/NNNN_turn<k>_output.png``."""
    return problem.output_path(outputs_root, model).parent / turn_output_name(problem.idx, turn)


def _turn_number(turn, position: int, count: int, where: Path) -> int:
    """The ``turn`` of the ``position``-th (1-based) entry of ``turns``; ``LayoutError``
    naming the problem's JSON when it is missing, not an integer or out of order."""
    k = turn.get("turn") if isinstance(turn, dict) else None
    if isinstance(k, bool) or not isinstance(k, int) or k != position:
        got = "no 'turn' number" if k is None else f"'turn': {json.dumps(k)[:20]}"
        raise LayoutError(f"{where}: entry {position} of {count} in 'turns' has {got}; "
                          f"expected 'turn': {position}")
    return k


def score_turns(benchmarks_root, outputs_root, out_dir, *, models=None, benchmarks=None,
                tasks=None, delta_e: str = "cie76") -> tuple[Path, list[dict]]:
    """Score every turn (see the module docstring); returns ``(results path, rows)``.

    ``delta_e``: the colour difference, as ``paintkit eval --delta-e`` (each row records it
    in ``"delta_e"`` and its blocks are named after it, like the rows of
    ``problem_stats.jsonl``: one formula per results folder).

    Raises:
        LayoutError: as ``paintkit eval`` (a broken benchmark tree, unknown names), and a
            turn without its ``turn`` number.
        ValueError: a turn without an exact answer (see
            :func:`paintkit.compositional.turns.answer_pixels`).
    """
    bench = load(benchmarks_root, kind="benchmark", benchmarks=benchmarks, tasks=tasks)
    model_names = load(outputs_root, kind="outputs", models=models).models
    rows: list[dict] = []
    for item in bench:
        problem, meta = item.problem, item.metadata
        turns = meta.get("turns")
        if not turns:
            continue
        present = [m for m in model_names if (Path(outputs_root) / m / problem.benchmark).is_dir()]
        before = load_rgb(problem.input_path)
        for position, turn in enumerate(turns, start=1):
            k = _turn_number(turn, position, len(turns), problem.metadata_path)
            answer = answer_pixels(turn)
            for model in present:
                path = turn_output_path(outputs_root, model, problem, k)
                if k == len(turns) and not path.exists():
                    path = problem.output_path(outputs_root, model)
                result, _ = score_output(load_output(path), answer, before, delta_e=delta_e)
                row = {"model": model, "benchmark": problem.benchmark, "task": problem.task,
                       "mode": meta.get("mode"), "visual_condition": meta.get("visual_condition"),
                       "idx": problem.idx, "turn": k, "turns": len(turns),
                       "operation": turn.get("operation"), "has_output": result.has_output,
                       "delta_e": delta_e, "metric_version": METRIC_VERSION,
                       "output": result.to_schema()}
                if result.error is not None:
                    row["error"] = result.error
                rows.append(row)
            before = answer
    path = Path(out_dir) / TURN_STATS_NAME
    write_bytes_atomic(path, "".join(json.dumps(r) + "\n" for r in rows).encode())
    return path, rows


def describe(rows: list[dict]) -> str:
    """``turn 1: mIoU 0.912 over 24 rows (3 without an output); turn 2: ...`` (mean of the
    per-row mean IoU; a row without an output scores 0)."""
    by_turn: dict[int, list[float]] = {}
    absent: dict[int, int] = {}
    for row in rows:
        mean = f"{row.get('delta_e') or 'cie76'}_mean"
        by_turn.setdefault(row["turn"], []).append(row["output"][mean]["iou"])
        absent[row["turn"]] = absent.get(row["turn"], 0) + (not row["has_output"])
    parts = []
    for k, v in sorted(by_turn.items()):
        missing = f" ({absent[k]:,} without an output)" if absent[k] else ""
        row_word = "row" if len(v) == 1 else "rows"
        parts.append(f"turn {k}: mIoU {sum(v) / len(v):.3f} over {len(v):,} {row_word}{missing}")
    return "; ".join(parts) or "no conversational problems"


def missing_turns(rows: list[dict]) -> list[str]:
    """One line per model that wrote no image at all for a turn before the last (a model or
    baseline that writes final images only): those turns score 0 for it."""
    seen: dict[tuple[str, int], list[int]] = {}
    for row in rows:
        if row["turn"] < row["turns"]:
            counts = seen.setdefault((row["model"], row["turn"]), [0, 0])
            counts[0] += 1
            counts[1] += bool(row["has_output"])
    by_model: dict[str, list[int]] = {}
    for (model, turn), (total, present) in sorted(seen.items()):
        if present == 0 and total:
            by_model.setdefault(model, []).append(turn)
    return [f"{model} wrote no NNNN_turn<k>_output.png for turn{'s' if len(ks) > 1 else ''} "
            f"{', '.join(map(str, ks))} (final images only): those turns score 0 for it; "
            "see docs/compositional.md#turns" for model, ks in by_model.items()]

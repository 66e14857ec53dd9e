"""One problem's score, and its docs/file-layout.md ``problem_stats.jsonl`` form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.metrics.compute_step import mean_over_tolerances, tolerance_figures
from paintkit.metrics.statistics import TOLERANCES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paintkit.metrics.statistics import ToleranceStatistics

SCHEMA_KEYS = ("edit_correct_pixels", "preservation_correct_pixels", "edit_accuracy",
               "preservation_accuracy", "iou", "changed_pixels")


@dataclass(frozen=True)
class ProblemScore:
    """Counts and figures of one problem; sequences are indexed by tolerance t = 0..10.

    ``output_size`` and ``answer_size`` are ``(W, H)``; ``error`` says why an output is
    missing (no file, undecodable file) and is None otherwise. ``delta_e`` names the colour
    difference the counts use (``"cie76"``, the benchmark's, unless chosen otherwise).
    The figures come from the counts by :func:`~paintkit.metrics.compute_step.tolerance_figures`
    (build instances with :func:`scores_from_counts`): ``miou`` is the mean IoU over the 11
    tolerances (docs/metric-definition.md §7), ``over_edit_ratio`` the changed pixels at
    t = 5 over ``|E|`` (§10; NaN when ``|E| = 0``).
    """

    has_output: bool
    output_size: tuple[int, int] | None
    answer_size: tuple[int, int]
    edit_pixels: int
    preservation_pixels: int
    edit_correct: tuple[int, ...]
    preservation_correct: tuple[int, ...]
    changed: tuple[int, ...]
    edit_accuracy: tuple[float, ...]
    preservation_accuracy: tuple[float, ...]
    iou: tuple[float, ...]
    miou: float
    over_edit_ratio: float
    error: str | None = None
    delta_e: str = "cie76"

    @property
    def correct_output_size(self) -> bool:
        # has_output implies an output_size (scores_from_counts)
        return self.has_output and tuple(self.output_size) == tuple(self.answer_size)  # type: ignore[arg-type]

    def to_schema(self) -> dict[str, Any]:
        """The docs/file-layout.md ``output`` object: sizes, region sizes, per-tolerance and mean figures.

        The blocks are named after the formula: ``cie76_threshold`` / ``cie76_mean`` (docs/file-layout.md)
        for CIE76, ``cie94_*`` or ``ciede2000_*`` otherwise (``cie76_*`` always means CIE76).
        """
        per_t = {}
        for t in TOLERANCES:
            per_t[str(t)] = {
                "edit_correct_pixels": int(self.edit_correct[t]),
                "preservation_correct_pixels": int(self.preservation_correct[t]),
                "edit_accuracy": float(self.edit_accuracy[t]),
                "preservation_accuracy": float(self.preservation_accuracy[t]),
                "iou": float(self.iou[t]),
                "changed_pixels": int(self.changed[t]),
            }
        mean = {k: float(mean_over_tolerances(np.array([per_t[str(t)][k] for t in TOLERANCES],
                                                        np.float64)))
                for k in SCHEMA_KEYS}
        return {
            "output_size": list(self.output_size) if self.output_size is not None else None,
            "edit_pixels": int(self.edit_pixels),
            "preservation_pixels": int(self.preservation_pixels),
            f"{self.delta_e}_threshold": per_t,
            f"{self.delta_e}_mean": mean,
        }


def scores_from_counts(counts: dict[str, Any], has_output: Any,
                       output_sizes: Sequence[Any], answer_sizes: Sequence[Any],
                       errors: Sequence[str | None],
                       delta_e: str = "cie76") -> list[ProblemScore]:
    """One :class:`ProblemScore` per problem from NumPy counts.

    ``counts``: ``edit_pixels``, ``preservation_pixels`` ``(B,)`` and ``edit_correct``,
    ``preservation_correct``, ``changed`` ``(B, 11)`` (as
    :func:`~paintkit.metrics.counts.counts_from_histograms` gives them); a missing
    output's counts must already be 0. ``has_output``: bool ``(B,)``; sizes ``(W, H)``.
    """
    c = {k: np.asarray(v) for k, v in counts.items()}
    has = np.asarray(has_output, bool).reshape(-1)
    figures = tolerance_figures(c["edit_pixels"], c["preservation_pixels"], c["edit_correct"],
                                c["preservation_correct"], c["changed"], has)
    f = {k: v.tolist() for k, v in figures.items()}
    e, p = c["edit_pixels"].tolist(), c["preservation_pixels"].tolist()
    ce, cp, ch = (c[k].tolist() for k in ("edit_correct", "preservation_correct", "changed"))
    return [
        ProblemScore(
            has_output=bool(has[k]),
            output_size=tuple(output_sizes[k]) if output_sizes[k] is not None else None,
            answer_size=tuple(answer_sizes[k]),
            edit_pixels=int(e[k]), preservation_pixels=int(p[k]),
            edit_correct=tuple(ce[k]), preservation_correct=tuple(cp[k]), changed=tuple(ch[k]),
            edit_accuracy=tuple(f["edit_accuracy"][k]),
            preservation_accuracy=tuple(f["preservation_accuracy"][k]),
            iou=tuple(f["iou"][k]), miou=f["miou"][k], over_edit_ratio=f["over_edit_ratio"][k],
            error=errors[k], delta_e=delta_e,
        )
        for k in range(len(has))
    ]


def problem_scores(stats: ToleranceStatistics, output_sizes: Sequence[tuple[int, int] | None],
                   answer_sizes: Sequence[tuple[int, int]], errors: Sequence[str | None],
                   delta_e: str = "cie76") -> list[ProblemScore]:
    """Per-problem :class:`ProblemScore` from batched ``ToleranceStatistics``."""
    cpu = stats.to("cpu")
    counts = {k: getattr(cpu, k).numpy() for k in (
        "edit_pixels", "preservation_pixels", "edit_correct", "preservation_correct", "changed")}
    return scores_from_counts(counts, cpu.has_output.numpy(), output_sizes, answer_sizes,
                              errors, delta_e)

"""One problem's score, and its docs/file-layout.md ``problem_stats.jsonl`` form."""

from __future__ import annotations

from dataclasses import dataclass

from paintkit.metrics.statistics import MEDIAN_TOLERANCE, TOLERANCES

SCHEMA_KEYS = ("edit_correct_pixels", "preservation_correct_pixels", "edit_accuracy",
               "preservation_accuracy", "iou", "changed_pixels")


@dataclass(frozen=True)
class ProblemScore:
    """Counts and figures of one problem; sequences are indexed by tolerance t = 0..10.

    ``output_size`` and ``answer_size`` are ``(W, H)``; ``error`` says why an output is
    missing (no file, undecodable file) and is None otherwise. ``delta_e`` names the colour
    difference the counts use (``"cie76"``, the benchmark's, unless chosen otherwise).
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
    error: str | None = None
    delta_e: str = "cie76"

    @property
    def correct_output_size(self) -> bool:
        return self.has_output and tuple(self.output_size) == tuple(self.answer_size)

    @property
    def miou(self) -> float:
        """Mean IoU over the 11 tolerances (docs/metric-definition.md §7)."""
        return sum(self.iou) / len(self.iou)

    @property
    def over_edit_ratio(self) -> float:
        """Changed pixels at t = 5 over |E| (docs/metric-definition.md §10); NaN when |E| = 0."""
        if self.edit_pixels == 0:
            return float("nan")
        return self.changed[MEDIAN_TOLERANCE] / self.edit_pixels

    def to_schema(self) -> dict:
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
        n = len(TOLERANCES)
        mean = {k: sum(per_t[str(t)][k] for t in TOLERANCES) / n for k in SCHEMA_KEYS}
        return {
            "output_size": list(self.output_size) if self.output_size is not None else None,
            "edit_pixels": int(self.edit_pixels),
            "preservation_pixels": int(self.preservation_pixels),
            f"{self.delta_e}_threshold": per_t,
            f"{self.delta_e}_mean": mean,
        }


def problem_scores(stats, output_sizes, answer_sizes, errors,
                   delta_e: str = "cie76") -> list[ProblemScore]:
    """Per-problem :class:`ProblemScore` from batched ``ToleranceStatistics``."""
    cpu = stats.to("cpu")
    edit_acc = cpu.edit_accuracy().tolist()
    pres_acc = cpu.preservation_accuracy().tolist()
    iou = cpu.iou().tolist()
    e, p = cpu.edit_pixels.tolist(), cpu.preservation_pixels.tolist()
    ce, cp, ch = cpu.edit_correct.tolist(), cpu.preservation_correct.tolist(), \
        cpu.changed.tolist()
    has = cpu.has_output.tolist()
    return [
        ProblemScore(
            has_output=bool(has[k]),
            output_size=tuple(output_sizes[k]) if output_sizes[k] is not None else None,
            answer_size=tuple(answer_sizes[k]),
            edit_pixels=e[k], preservation_pixels=p[k],
            edit_correct=tuple(ce[k]), preservation_correct=tuple(cp[k]), changed=tuple(ch[k]),
            edit_accuracy=tuple(edit_acc[k]), preservation_accuracy=tuple(pres_acc[k]),
            iou=tuple(iou[k]), error=errors[k], delta_e=delta_e,
        )
        for k in range(len(has))
    ]

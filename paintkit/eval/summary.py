"""What one ``paintkit eval`` run did (:class:`EvalSummary`): returned by the folder-based
run (:func:`paintkit.eval.runner.evaluate`) and the shard-set run
(:mod:`paintkit.eval.shard_eval`), which both fill it in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["EvalSummary"]


@dataclass
class EvalSummary:
    """What a run did: rows written, rows already there, missing outputs, seconds.

    ``rescored``: rows replaced because their output appeared or changed; ``ignored``:
    output files no problem reads (near-miss names); ``notes``: repairs of the results file.
    """

    results_path: Path
    scored: int = 0
    skipped: int = 0
    missing: int = 0
    rescored: int = 0
    seconds: float = 0.0
    models: list[str] = field(default_factory=list)
    ignored: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: ``{"file", "problems", "of"}`` when only a subset's problems were scored.
    subset: dict | None = None

    @property
    def problems_per_second(self) -> float:
        return self.scored / self.seconds if self.seconds > 0 else 0.0

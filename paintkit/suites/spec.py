"""One problem of a suite, before it is generated: what to generate and where it goes."""

from __future__ import annotations

from dataclasses import dataclass

PROBLEM = "problem"
PRESERVATION = "preservation"
PRESERVATION_TASK = "preservation"  # folder and metadata task name of the preservation split
PRESERVATION_SOURCE = "removal"


@dataclass(frozen=True)
class ProblemSpec:
    """Problem ``index`` of a suite.

    ``task``/``condition``/``mode``/``slot`` pick the generator call (seeds of
    docs/generator-rules.md#seeds, with ``namespace`` and the condition key
    ``seed_condition``); ``folder``/``idx`` place it in the benchmark layout of
    docs/file-layout.md (``<folder>/<idx:03d>_input.png``); ``kind`` is ``"problem"`` or
    ``"preservation"`` (a removal problem whose answer is its input, see ``build.py``).
    """

    index: int
    kind: str
    task: str
    condition: str
    seed_condition: str
    mode: str
    slot: int
    namespace: str
    folder: str
    idx: int
    idx_digits: int = 3

    @property
    def stem(self) -> str:
        """``NNN``: the zero-padded index within the task folder."""
        return f"{self.idx:0{self.idx_digits}d}"

    @property
    def problem_id(self) -> str:
        """Unique, readable id, also the WebDataset / Parquet key (no dots, no slashes):
        ``<namespace>-<folder>-<condition key>-<mode>-<slot:06d>``."""
        return f"{self.namespace}-{self.folder}-{self.seed_condition}-{self.mode}-{self.slot:06d}"

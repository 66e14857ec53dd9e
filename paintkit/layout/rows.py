"""Results rows: the key of a row, built once, and :class:`ResultRow`, the typed row.

A row of ``problem_stats.jsonl`` (docs/file-layout.md#per-problem-results) is keyed by
``(model, benchmark, task, idx)`` (:class:`RowKey`, a plain tuple). :class:`ResultRow`
carries the key, the problem's ``mode``, ``visual_condition`` and ``category``, the colour
difference the figures use (``delta_e``), the ``metric_version`` of the arithmetic, and
the figures (the ``output`` object); fields it does not know are kept in ``extras`` in
their order, so a row read and written again loses nothing.

``category`` is copied by ``paintkit eval`` from the problem's JSON. Rows written before it
did (and rows of tools that leave it out) get it from
:func:`paintkit.stats.order.task_category`, which asks the task and chart registries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

#: The fields of a row's key, in key order.
KEY_FIELDS: tuple[str, ...] = ("model", "benchmark", "task", "idx")
#: The colour difference of rows without a ``delta_e`` field (the benchmark's).
DEFAULT_DELTA_E = "cie76"
TINYGRAFIX = "TinyGrafixBench"
#: Category of a task no registry knows and no row names.
OTHER_CATEGORY = "other"


class RowKey(NamedTuple):
    """``(model, benchmark, task, idx)``: one model's output of one problem."""

    model: str
    benchmark: str
    task: str
    idx: int


def row_key(row: dict) -> RowKey:
    """The :class:`RowKey` of a results (or explanations) row.

    Raises:
        KeyError: a key field is absent; TypeError / ValueError: ``idx`` is not a number.
    """
    return RowKey(str(row["model"]), str(row["benchmark"]), str(row["task"]), int(row["idx"]))


def row_delta_e(row: dict) -> str:
    """The colour difference a row was scored with (rows without the field: CIE76)."""
    return str(row.get("delta_e") or DEFAULT_DELTA_E)


@dataclass
class ResultRow:
    """One row of ``problem_stats.jsonl`` (docs/file-layout.md#per-problem-results).

    ``output`` is the figures object: ``output_size``, ``edit_pixels``,
    ``preservation_pixels``, ``<delta_e>_threshold`` (``"0"`` .. ``"10"``) and
    ``<delta_e>_mean``. ``extras``: every other field, in order (``output_file``,
    ``extra_metrics``, ``explanation``, ``error``, or another tool's keys).
    """

    model: str
    benchmark: str
    task: str
    idx: int
    output: dict
    has_output: bool
    correct_output_size: bool = False
    mode: str = "default"
    visual_condition: str | None = None
    category: str | None = None
    input_size: list | None = None
    bg_colors: list = field(default_factory=list)
    delta_e: str = DEFAULT_DELTA_E
    #: :data:`paintkit.metrics.version.METRIC_VERSION` for rows scored now; 1 for old rows.
    metric_version: int = 1
    extras: dict = field(default_factory=dict)

    @property
    def key(self) -> RowKey:
        return RowKey(self.model, self.benchmark, self.task, self.idx)

    def figure(self, name: str, tolerance: int | None = None) -> float | None:
        """One figure (``iou``, ``edit_accuracy``, ...) at ``tolerance``, or its mean over
        the 11 tolerances when ``tolerance`` is None; None when the row lacks it."""
        block = self.output.get(f"{self.delta_e}_mean") if tolerance is None else \
            (self.output.get(f"{self.delta_e}_threshold") or {}).get(str(tolerance))
        return block.get(name) if isinstance(block, dict) else None

    def to_dict(self) -> dict:
        """The row as written to ``problem_stats.jsonl``: the standard fields in schema order
        (``category`` after ``visual_condition``), then ``delta_e``, ``metric_version`` and
        the extras."""
        return {"model": self.model, "benchmark": self.benchmark, "task": self.task,
                "mode": self.mode, "visual_condition": self.visual_condition,
                "category": self.category, "idx": self.idx, "input_size": self.input_size,
                "bg_colors": self.bg_colors, "has_output": self.has_output,
                "correct_output_size": self.correct_output_size, "output": self.output,
                "delta_e": self.delta_e, "metric_version": self.metric_version,
                **self.extras}

    @classmethod
    def from_dict(cls, row: dict) -> ResultRow:
        """A row read from a results file (of paintkit or another tool). Absent fields take
        the schema's defaults: ``mode`` ``"default"``, ``delta_e`` CIE76,
        ``metric_version`` 1 (docs/metric-definition.md §9), ``category`` None (see
        :func:`task_category`).

        Raises:
            KeyError: a key field is absent; TypeError / ValueError: ``idx`` is no number.
        """
        # heavy: the metrics package imports numba (about 1 s); stats's command line is light
        from paintkit.metrics.version import row_metric_version

        key = row_key(row)
        known = {"model", "benchmark", "task", "idx", "mode", "visual_condition", "category",
                 "input_size", "bg_colors", "has_output", "correct_output_size", "output",
                 "delta_e", "metric_version"}
        output = row.get("output")
        return cls(
            model=key.model, benchmark=key.benchmark, task=key.task, idx=key.idx,
            output=output if isinstance(output, dict) else {},
            has_output=bool(row.get("has_output", False)),
            correct_output_size=bool(row.get("correct_output_size", False)),
            mode=row.get("mode") or "default", visual_condition=row.get("visual_condition"),
            category=row.get("category"), input_size=row.get("input_size"),
            bg_colors=row.get("bg_colors", []), delta_e=row_delta_e(row),
            metric_version=row_metric_version(row),
            extras={k: v for k, v in row.items() if k not in known},
        )

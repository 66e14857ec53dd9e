"""Writing the report of a results folder (:func:`paintkit.write_report`, ``paintkit report``).

>>> import paintkit
>>> paintkit.write_report("results", "report.html", benchmarks_root="bench",
...                       outputs_root=["outputs"])              # doctest: +SKIP
PosixPath('report.html')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paintkit.arguments import renamed_keywords
from paintkit.io.folder_lock import owned_outputs
from paintkit.layout.results import aggregate_path, problem_stats_path
from paintkit.report.page import build_report

if TYPE_CHECKING:
    from paintkit.subsets import SubsetLike

__all__ = ["write_report"]


def write_report(results: str | Path, output: str | Path = "report.html", *,
                 benchmarks_root: str | Path | None = None,
                 outputs_root: str | Path | Sequence[str | Path] | None = None,
                 n_boot: int = 10_000, seed: int = 0, gallery_per_model: int = 2,
                 thumb: int = 160, explanations: str | Path | None = None,
                 command: str | None = None, subset: SubsetLike | None = None, **old: Any) -> Path:
    """Write one self-contained offline HTML page of ``results``; returns its path.

    Args:
        results: a results folder (or its ``problem_stats.jsonl``). Its
            ``aggregate_stats.jsonl`` (:func:`paintkit.aggregate`) is read when it describes
            the same rows; otherwise the aggregate is computed here with ``n_boot``/``seed``.
        output: the HTML file (written atomically; never one of the report's inputs).
        benchmarks_root: the benchmark tree, for the gallery; ``outputs_root``: the model
            outputs tree(s), for the gallery's output and diff images (each model's outputs
            come from the first root that has its folder). Before 0.4.0 they were
            ``benchmarks=`` and ``outputs=`` (still accepted with a ``DeprecationWarning``
            until 0.5.0; ``benchmarks=`` names benchmarks in the other verbs).
        gallery_per_model: gallery problems per (task, model); ``thumb``: the longest side
            of gallery images, in pixels.
        explanations: an ``explanations.jsonl`` of ``paintkit explain`` (default: the one in
            the results folder, if any).
        command: the command line shown in the provenance block, if any.
        subset: a ``subset.json`` of ``paintkit subset`` (or a
            :class:`~paintkit.subsets.Subset`): only its problems' rows (the page says so).
    """
    if old:
        moved = renamed_keywords("write_report", old, {"benchmarks": "benchmarks_root",
                                                       "outputs": "outputs_root"})
        benchmarks_root = moved.get("benchmarks_root", benchmarks_root)
        outputs_root = moved.get("outputs_root", outputs_root)
    outputs = outputs_root
    source = problem_stats_path(results)
    output = Path(output)
    if output.resolve() in (source.resolve(), aggregate_path(source).resolve()):
        raise ValueError(f"output {output} is an input of the report; refusing to overwrite "
                         "it (choose another file, e.g. report.html)")
    if isinstance(outputs, str | Path):
        outputs = [outputs]
    roots = [str(root) for root in outputs] if outputs else None
    with owned_outputs([str(output)], "paintkit report"):  # also removes a killed run's temp
        build_report(results, output, benchmarks_root=benchmarks_root, outputs_root=roots,
                     n_boot=n_boot, seed=seed, gallery_per_model=gallery_per_model, thumb=thumb,
                     explanations=explanations, command=command, subset=subset)
    return output

"""``results.json``: one file that says what a run scored, for people and scripts.

As lm-evaluation-harness writes ``results.json``, ``paintkit eval`` and ``paintkit bench``
write ``<results>/results.json`` beside ``problem_stats.jsonl``, rewritten whole (atomically)
from every row of the folder on each run::

    {
     "paintkit_version": "0.4.0", "metric_version": "...", "created": "2026-11-27T00:00:00Z",
     "config": {"command": "paintkit eval ...", "delta_e": "cie76", "n_boot": 10000, "seed": 0},
     "benchmarks": {"PaintBench": {"manifest_sha256": "...", "problems": 2016}},
     "models": {"oracle": {"PaintBench": {
         "score": 1.0, "ci95": [1.0, 1.0], "categories": {"color_change": 1.0, ...},
         "coverage": {"problems": 2016, "outputs": 2016, "expected": 2016},
         "outputs_sha256": {"translation/0000": "...", ...}}}},
     "timings": {"eval_seconds": 12.3, "problems_per_second": 163.9},
     "subset": {"file": "subset.json", "problems": 60, "of": 2016}
    }

``subset`` is there only when the run scored a subset's problems (``--subset FILE``): the
scores are then of those problems, not of the whole benchmark.

Scores are the leaderboard's (mean-over-tolerances mIoU in 0..1, the 95% percentile bootstrap
CI, the same B and seed as ``paintkit stats``). ``manifest_sha256`` is the SHA-256 of the
benchmark's ``manifest.json`` (which lists every benchmark file's hash), and
``outputs_sha256`` each scored output file's: ``paintkit verify --results`` checks both.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from paintkit._version import __version__
from paintkit.code_outputs import output_file
from paintkit.io.atomic import write_text_atomic
from paintkit.layout.outputs import output_name

#: The file's name in a results folder.
RESULTS_FILE_NAME = "results.json"
#: The benchmark tree's manifest (``paintkit.writers.manifest.MANIFEST_NAME``).
MANIFEST_FILE_NAME = "manifest.json"

__all__ = ["MANIFEST_FILE_NAME", "RESULTS_FILE_NAME", "file_sha256", "manifest_sha256",
           "output_key", "recorded_subset", "results_document", "write_results_file"]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def manifest_sha256(benchmarks_root, benchmark: str) -> str | None:
    """SHA-256 of the ``manifest.json`` of the tree holding ``benchmark`` (the root, or the
    benchmark folder when the root is one); None when there is none."""
    root = Path(benchmarks_root)
    for folder in (root, root.parent) if root.name == benchmark else (root,):
        path = folder / MANIFEST_FILE_NAME
        if path.is_file():
            return file_sha256(path)
    return None


def output_key(task: str, idx: int) -> str:
    """``"<task>/<NNNN>"``: an output's key in ``outputs_sha256``."""
    return f"{task}/{idx:04d}"


def _outputs_sha256(outputs_roots: list[Path], table) -> dict[str, str]:
    """Each present output's hash, from the first root holding the model's folder."""
    roots = [r for r in outputs_roots if (r / table.model).is_dir()] or outputs_roots[:1]
    if not roots:
        return {}
    outputs_root = roots[0]
    found = {}
    for task, idx, present in zip(table.task.tolist(), table.idx.tolist(),
                                  table.has_output.tolist(), strict=True):
        if not present:
            continue
        path, _ = output_file(outputs_root / table.model / table.benchmark / task /
                              output_name(int(idx)))  # or its code form (.svg, .json)
        if path.is_file():
            found[output_key(task, int(idx))] = file_sha256(path)
    return dict(sorted(found.items()))


def results_document(result, *, benchmarks_root=None, outputs_root=None, config=None,
                     timings=None, n_boot: int | None = None, seed: int | None = None,
                     subset: dict | None = None) -> dict:
    """The ``results.json`` document of an :class:`~paintkit.stats.aggregate_folder.
    AggregateResult` (``result``); ``outputs_root`` (a folder, or several: each model's from
    the first that has its folder) adds each output file's hash; ``subset``: the scope of
    a subset's run (:meth:`paintkit.subsets.Subset.scope`)."""
    from paintkit.metrics.version import METRIC_VERSION  # numba (the metrics package)
    from paintkit.stats.leaderboard import leaderboard_rows  # numpy

    board = leaderboard_rows(result.rows, result.tables, block=f"{result.delta_e}_mean")
    tables = {(t.model, t.benchmark): t for t in result.tables}
    models: dict[str, dict] = {}
    benchmarks: dict[str, dict] = {}
    for row in board:
        bench, model = row["benchmark"], row["model"]
        benchmarks.setdefault(bench, {
            "manifest_sha256": None if benchmarks_root is None else
            manifest_sha256(benchmarks_root, bench),
            "problems": row["expected"]})
        entry = {"score": row["score"], "ci95": [row["low"], row["high"]],
                 "categories": row["categories"],
                 "coverage": {"problems": row["problems"], "outputs": row["outputs"],
                              "expected": row["expected"]}}
        table = tables.get((model, bench))
        if outputs_root is not None and table is not None:
            roots = [outputs_root] if isinstance(outputs_root, str | Path) else outputs_root
            entry["outputs_sha256"] = _outputs_sha256([Path(r) for r in roots], table)
        models.setdefault(model, {})[bench] = entry
    doc = {"paintkit_version": __version__, "metric_version": METRIC_VERSION,
           "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "config": {"delta_e": result.delta_e, "n_boot": n_boot, "seed": seed,
                      **(config or {})},
           "benchmarks": benchmarks, "models": models, "timings": timings or {}}
    if subset is not None:
        doc["subset"] = dict(subset)
    return doc


def recorded_subset(results) -> dict | None:
    """The ``subset`` a results folder's ``results.json`` records (None: none, or no file)."""
    path = Path(results)
    path = (path.parent if path.is_file() else path) / RESULTS_FILE_NAME
    try:
        scope = json.loads(path.read_text(encoding="utf-8")).get("subset")
    except (OSError, ValueError, AttributeError):
        return None
    return scope if isinstance(scope, dict) else None


def write_results_file(results_dir, result, **kwargs) -> Path:
    """Write ``<results_dir>/results.json`` (atomically); returns its path. ``kwargs``: as
    :func:`results_document`."""
    path = Path(results_dir) / RESULTS_FILE_NAME
    if Path(results_dir).is_file():  # a problem_stats.jsonl named directly
        path = Path(results_dir).parent / RESULTS_FILE_NAME
    write_text_atomic(path, json.dumps(results_document(result, **kwargs), indent=1) + "\n")
    return path

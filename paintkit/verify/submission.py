"""``paintkit verify --results DIR --outputs DIR``: a results folder against the outputs it
claims to score: each output file's hash against ``results.json``, the benchmark's manifest
hash, and every row rescored (``paintkit.evaluate`` into a temporary folder) and compared with
the submitted row. Whether the benchmark copy itself is the release is
:func:`~paintkit.verify.benchmark.verify_benchmark`'s question.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from paintkit.code_outputs import output_file
from paintkit.errors import one_line
from paintkit.io.jsonl import parse_json
from paintkit.layout.results import problem_stats_path
from paintkit.layout.rows import row_key
from paintkit.stats.results_file import RESULTS_FILE_NAME, file_sha256, manifest_sha256, output_key
from paintkit.verify.verdict import Verdict
from paintkit.writers.previous import safe_relative

__all__ = ["verify_submission"]


def _submitted(results: Path) -> tuple[dict, list[dict]]:
    from paintkit.eval import read_rows  # numba: the scoring package

    doc_path = results / RESULTS_FILE_NAME
    if not doc_path.is_file():
        raise ValueError(f"{results}: no {RESULTS_FILE_NAME} (written by 'paintkit eval' and "
                         "'paintkit bench' since 0.4.0); score the outputs again to write it")
    try:
        doc = parse_json(doc_path.read_text(encoding="utf-8"))
        _check_shape(doc)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{doc_path}: not a paintkit results file ({one_line(exc)})") from None
    return doc, read_rows(problem_stats_path(results))


def _check_shape(doc) -> None:
    """``ValueError`` (the field) unless ``doc`` has the objects of a results file:
    ``models`` -> model -> benchmark -> ``{"outputs_sha256": {key: hex}}``, and
    ``benchmarks`` -> benchmark -> ``{"manifest_sha256": hex}``."""
    def obj(value, where: str) -> dict:
        if not isinstance(value, dict):
            raise ValueError(f"{where} is a JSON {type(value).__name__}, not an object")
        return value

    obj(doc, "the document")
    for model, per_bench in obj(doc.get("models"), "'models'").items():
        for bench, entry in obj(per_bench, f"models.{model}").items():
            hashes = obj(entry, f"models.{model}.{bench}").get("outputs_sha256")
            if hashes is not None:
                for key, sha in obj(hashes, f"models.{model}.{bench}.outputs_sha256").items():
                    if not isinstance(sha, str):
                        raise ValueError(f"models.{model}.{bench}.outputs_sha256.{key} is not "
                                         "a string")
    for bench, entry in obj(doc.get("benchmarks", {}), "'benchmarks'").items():
        obj(entry, f"benchmarks.{bench}")


def _inside(*names: str) -> bool:
    """Whether the folder names and key stay inside their tree (no ``..``, ``/`` ...)."""
    *folders, key = names
    return all(safe_relative(n) and "/" not in n for n in folders) and safe_relative(key)


def verify_submission(results, outputs, benchmarks=None, *, jobs: int = 1) -> Verdict:
    """Check a results folder against the outputs it scored: each output's hash against
    ``results.json``; with ``benchmarks``, the benchmark's manifest hash and every row
    rescored and compared with the submitted one (the ``output`` figures, exactly)."""

    results, outputs = Path(results), Path(outputs)
    doc, rows = _submitted(results)
    verdict = Verdict()
    for model, per_bench in sorted(doc["models"].items()):
        for bench, entry in sorted(per_bench.items()):
            hashes = entry.get("outputs_sha256")
            if hashes is None:
                verdict.notes.append(f"{model} / {bench}: no output hashes recorded")
                continue
            for key, sha in hashes.items():
                verdict.count("output hashes")
                if not _inside(model, bench, key):
                    verdict.differs.append(f"{one_line(repr(f'{model}/{bench}/{key}'))[:200]}: "
                                           "the path leaves the outputs tree (not read)")
                    continue
                task, _, idx = key.rpartition("/")
                path, _ = output_file(outputs / model / bench / task / f"{idx}_output.png")
                if not path.is_file():
                    verdict.differs.append(f"{model}/{bench}/{key}: output missing")
                elif file_sha256(path) != sha:
                    verdict.differs.append(f"{model}/{bench}/{key}: output differs from the "
                                           "one scored")
    if benchmarks is None:
        verdict.notes.append("rows not rescored (give the benchmark folder to rescore them)")
        return verdict
    for bench, entry in sorted(doc.get("benchmarks", {}).items()):
        here = manifest_sha256(benchmarks, bench)
        if entry.get("manifest_sha256") != here:
            verdict.differs.append(f"{bench}: the benchmark's manifest.json differs from the "
                                   "one the results were scored against")
    from paintkit.eval import evaluate, read_rows  # numba: rescoring

    submitted = {row_key(r): r for r in rows}
    delta_e = next((r.get("delta_e") for r in rows if r.get("delta_e")), "cie76")
    with tempfile.TemporaryDirectory(prefix="paintkit-verify-") as scratch:
        summary = evaluate(benchmarks, outputs, scratch, models=sorted(doc["models"]),
                           jobs=jobs, progress=False, delta_e=delta_e)
        rescored = {row_key(r): r for r in read_rows(summary.results_path)}
    for key, row in sorted(submitted.items(), key=lambda kv: tuple(map(str, kv[0]))):
        verdict.count("rows rescored")
        again = rescored.get(key)
        name = f"{key.model}/{key.benchmark}/{output_key(key.task, key.idx)}"
        if again is None:
            verdict.differs.append(f"{name}: a submitted row with no problem or model here")
        elif again.get("has_output") != row.get("has_output") or \
                again.get("output") != row.get("output"):
            verdict.differs.append(f"{name}: the submitted row differs from the rescore")
    for key in sorted(set(rescored) - set(submitted), key=lambda k: tuple(map(str, k))):
        verdict.differs.append(f"{key.model}/{key.benchmark}/{output_key(key.task, key.idx)}: "
                               "scored here, absent from the submitted rows")
    return verdict

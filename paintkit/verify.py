"""Checking a benchmark copy and a submitted results folder (``paintkit verify``).

:func:`verify_benchmark`: a benchmark tree against its ``manifest.json`` (every file's size
and SHA-256, written by ``paintkit generate``), saying which problems differ and why: a file
edited, missing or added, a tree made by another paintkit version, or a namespace other than
the released benchmark's.

:func:`verify_submission`: a results folder against the outputs it claims to score: each
output file's hash against ``results.json``, the benchmark's manifest hash, and every row
rescored (``paintkit.evaluate`` into a temporary folder) and compared with the submitted row.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from paintkit._version import __version__
from paintkit.layout.results import problem_stats_path
from paintkit.layout.rows import row_key
from paintkit.stats.results_file import (
    MANIFEST_FILE_NAME,
    RESULTS_FILE_NAME,
    file_sha256,
    manifest_sha256,
    output_key,
)

#: The namespace of each released benchmark's own problems.
RELEASE_NAMESPACES = {"PaintBench": "paintbench", "TinyGrafixBench": "tinygrafixbench"}
_PROBLEM_FILE = re.compile(r"^(?P<problem>.+/\d{3,})(?P<kind>_input\.png|_answer\.png|\.json|"
                           r"_input\.svg|_answer\.svg)$")

__all__ = ["Verdict", "verify_benchmark", "verify_submission"]


@dataclass
class Verdict:
    """What a check found: ``ok`` when nothing differs; ``notes`` (why, for the whole tree),
    ``differs`` (one line per problem or output that differs), ``checked`` (how many)."""

    checked: int = 0
    notes: list[str] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differs


def _problem_of(name: str) -> tuple[str, str]:
    m = _PROBLEM_FILE.match(name)
    return (m["problem"], m["kind"].lstrip("_.")) if m else (name, "")


def verify_benchmark(root) -> Verdict:
    """Check the benchmark tree ``root`` against its ``manifest.json``.

    Raises:
        ValueError: no manifest, or one that is not a complete paintkit manifest.
    """
    root = Path(root)
    path = root / MANIFEST_FILE_NAME
    if not path.is_file():
        raise ValueError(f"{root}: no {MANIFEST_FILE_NAME}; 'paintkit verify' checks a tree "
                         "made by 'paintkit generate' (give the folder holding manifest.json)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        files = manifest["files"]
        suite = manifest.get("suite", {})
        if not isinstance(files, dict) or not manifest.get("complete"):
            raise ValueError("incomplete (the generation did not finish)")
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a complete paintkit manifest ({exc})") from None
    verdict = Verdict()
    version = manifest.get("paintkit_version")
    if version != __version__:
        verdict.notes.append(f"made by paintkit {version}, this is {__version__}: tasks changed "
                             "between them (CHANGELOG.md) make other bytes")
    benchmark, namespace = suite.get("benchmark"), suite.get("namespace")
    release = RELEASE_NAMESPACES.get(benchmark)
    if release is not None and namespace != release:
        verdict.notes.append(f"namespace {namespace!r}: a fresh set of {benchmark} problems, "
                             f"not the released ones (namespace {release!r})")
    problems: dict[str, list[str]] = {}
    for name, entry in files.items():
        verdict.checked += 1
        target = root / name
        problem, kind = _problem_of(name)
        if not target.is_file():
            problems.setdefault(problem, []).append(f"{kind or name} missing")
        elif target.stat().st_size != entry.get("bytes") or file_sha256(target) != entry.get(
                "sha256"):
            problems.setdefault(problem, []).append(f"{kind or name} edited")
    listed = set(files)
    for target in sorted(p for p in root.rglob("*") if p.is_file()):
        name = target.relative_to(root).as_posix()
        if name in listed or name == MANIFEST_FILE_NAME or "/" not in name or \
                target.name.startswith("."):
            continue
        problem, kind = _problem_of(name)
        problems.setdefault(problem, []).append(f"{kind or name} not in the manifest")
    verdict.differs = [f"{problem}: {', '.join(why)}" for problem, why in sorted(problems.items())]
    return verdict


def _submitted(results: Path) -> tuple[dict, list[dict]]:
    from paintkit.eval import read_rows  # numba: the scoring package

    doc_path = results / RESULTS_FILE_NAME
    if not doc_path.is_file():
        raise ValueError(f"{results}: no {RESULTS_FILE_NAME} (written by 'paintkit eval' and "
                         "'paintkit bench' since 0.4.0); score the outputs again to write it")
    try:
        doc = json.loads(doc_path.read_text(encoding="utf-8"))
        doc["models"].items()
    except (ValueError, KeyError, AttributeError) as exc:
        raise ValueError(f"{doc_path}: not a paintkit results file ({exc})") from None
    return doc, read_rows(problem_stats_path(results))


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
                verdict.checked += 1
                task, _, idx = key.rpartition("/")
                path = outputs / model / bench / task / f"{idx}_output.png"
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
        verdict.checked += 1
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

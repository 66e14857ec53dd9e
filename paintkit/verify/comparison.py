"""What ``paintkit verify`` compares a copy's problems with: the release's hashes, and why a
problem differs (the copy's manifest: another version, namespace or settings)."""

from __future__ import annotations

import json

from paintkit.layout.problem_files import answer_name, input_name, metadata_name
from paintkit.stats.results_file import MANIFEST_FILE_NAME
from paintkit.verify.release import PARTS
from paintkit.verify.tree_manifest import names_in, suite_of
from paintkit.verify.verdict import Verdict

#: Manifest suite fields that change which problems a tree holds (tasks, modes and the
#: preservation split only choose among them).
SETTINGS = ("conditions", "per_cell", "start_slot", "size", "counts", "any_matplotlib")
FILE_PART = {"input": "input.png", "answer": "answer.png", "metadata": "json"}
PART_NAME = {"input": input_name, "answer": answer_name, "metadata": metadata_name}


def tree_reason(manifest: dict | None, benchmark: str, release: dict) -> str:
    """Why a released benchmark's problems in this copy would differ (from its manifest)."""
    if manifest is None:
        return f"no {MANIFEST_FILE_NAME} says how the copy was made"
    version = manifest.get("paintkit_version")
    if version != release["paintkit_version"]:
        return (f"made by paintkit {version}, the release list is of "
                f"{release['paintkit_version']}: tasks changed between them (CHANGELOG.md)")
    mine, theirs = suite_of(manifest, benchmark), release["benchmarks"][benchmark]["suite"]
    if mine is None:
        return f"{MANIFEST_FILE_NAME} does not describe {benchmark}"
    if mine.get("namespace") != theirs.get("namespace"):
        return (f"namespace {mine.get('namespace')!r}, not the release's "
                f"{theirs.get('namespace')!r}: a fresh set of problems")
    if mine.get("matplotlib"):
        return f"charts drawn with matplotlib {mine['matplotlib']} (--any-matplotlib)"
    other = [key for key in SETTINGS if mine.get(key) != theirs.get(key)]
    tasks = names_in(mine.get("tasks"))
    if {m for m in names_in(mine.get("modes")) if m.split(":")[0] in tasks} != \
            {m for m in names_in(theirs.get("modes")) if m.split(":")[0] in tasks}:
        other.append("modes")
    if other:
        return "made with other settings: " + ", ".join(
            f"{key} {json.dumps(mine.get(key))}" for key in other)
    return ("made by this version with the release's settings, yet different: please "
            "report it (the benchmark's bytes are the same on every machine)")


def ranges(stems: list[str]) -> str:
    """``["003", "004", "005", "009"]`` -> ``"003-005, 009"``."""
    runs: list[list[str]] = []
    for stem in sorted(stems, key=int):
        if runs and int(stem) == int(runs[-1][-1]) + 1:
            runs[-1].append(stem)
        else:
            runs.append([stem])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def compare_problems(name: str, expected: dict, found: dict[str, tuple], reason: str,
             edited: dict[str, list[str]], verdict: Verdict, part: bool = False) -> int:
    """Compare one released benchmark's problems found in the copy with its list; returns
    how many problems whose files differ from the manifest still hold the release's
    content. ``part``: the copy is a smaller tree of the release (matched by
    ``problem_id``): the released problems it does not hold are not checked."""
    present_tasks = {key.split("/")[0] for key in found}
    lines: list[str] = []
    absent_tasks: dict[str, int] = {}
    gone_whole: dict[str, list[str]] = {}
    reencoded = 0
    for key in sorted(set(expected) | set(found)):
        problem = f"{name}/{key}"
        why = "; ".join(edited.get(problem, [])) or reason
        if key not in expected:
            verdict.checked += 1
            lines.append(f"{problem}: not in the release ({why})")
            continue
        task = key.split("/")[0]
        if key not in found and part:  # a part holds what it holds (the note says how much)
            continue
        if task not in present_tasks:
            absent_tasks[task] = absent_tasks.get(task, 0) + 1
            continue
        verdict.checked += 1
        if key not in found:
            gone_whole.setdefault(task, []).append(key.split("/")[1])
            continue
        hashes, wrong = found[key]
        if wrong is not None:
            lines.append(f"{problem}: {wrong}")
            continue
        differ = [part for part, mine, theirs in
                  zip(PARTS, hashes.split(), expected[key].split(), strict=True) if mine != theirs]
        if differ:
            verb = "differs" if len(differ) == 1 else "differ"
            lines.append(f"{problem}: {', '.join(differ)} {verb} from the release ({why})")
        elif problem in edited:
            reencoded += 1
    for task, count in sorted(absent_tasks.items()):
        verdict.checked += count
        lines.append(f"{name}/{task}: not in this copy ({count:,} released problem"
                     f"{'s' if count != 1 else ''})")
    for task, stems in gone_whole.items():
        lines.append(f"{name}/{task}: {len(stems):,} released problem"
                     f"{'s' if len(stems) != 1 else ''} missing ({ranges(stems)})")
    verdict.differs += sorted(lines)
    return reencoded

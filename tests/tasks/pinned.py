"""The pinned-bytes table: SHA-256 of input, answer and metadata of one benchmark problem per
(task, mode, condition) (slot 0 of the ``paintbench`` namespace).

The benchmark's bytes are part of its identity: a change in the order of random draws, a
renderer detail or an instruction's wording changes them, and ``test_pinned_hashes.py``
fails. When the change is intended, bump ``paintkit/_version.py``, say what changed in
``CHANGELOG.md`` and rewrite the table::

    python tests/tasks/pinned.py --update

``--update`` refuses to rewrite changed hashes under an unchanged version.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

TABLE = Path(__file__).with_name("pinned_hashes.json")
UPDATE_COMMAND = "python tests/tasks/pinned.py --update"


def key(task: str, mode: str, condition: str, slot: int = 0) -> str:
    return f"{task}/{mode}/{condition}/{slot}"


def problem_hashes(problem) -> dict[str, str]:
    """``{"input", "answer", "metadata"}`` SHA-256 hex digests of a problem (metadata as
    canonical JSON: sorted keys, no spaces)."""
    meta = json.dumps(problem.metadata, sort_keys=True, separators=(",", ":"))
    return {
        "input": hashlib.sha256(problem.input.tobytes()).hexdigest(),
        "answer": hashlib.sha256(problem.answer.tobytes()).hexdigest(),
        "metadata": hashlib.sha256(meta.encode("utf-8")).hexdigest(),
    }


def load_table() -> dict:
    return json.loads(TABLE.read_text()) if TABLE.exists() else {"version": None, "problems": {}}


def pinned_cells() -> list[tuple[str, str, str]]:
    from paintkit.conditions import CONDITIONS
    from paintkit.tasks import TASKS, task_spec

    return [(t, m, c) for t in TASKS for m in task_spec(t).modes for c in CONDITIONS]


def compute_table() -> dict:
    from paintkit import __version__
    from paintkit.sources import generate

    problems = {key(t, m, c): problem_hashes(generate(t, 0, c, m))
                for t, m, c in pinned_cells()}
    return {"version": __version__, "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the table")
    args = parser.parse_args(argv)
    old, new = load_table(), compute_table()
    changed = sorted(k for k, v in new["problems"].items() if old["problems"].get(k) != v)
    print(f"{len(changed)} of {len(new['problems'])} pinned problems differ from the table")
    for k in changed[:20]:
        print(f"  {k}")
    if not args.update:
        return 1 if changed else 0
    if changed and old["problems"] and old["version"] == new["version"]:
        print(f"refusing: bytes changed but the version is still {new['version']}; bump "
              f"paintkit/_version.py and add a CHANGELOG.md entry first", file=sys.stderr)
        return 1
    TABLE.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
    print(f"wrote {TABLE} (version {new['version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""SHA-256 of a chart problem (pixels and metadata) for the hash-pinned tests.

Regenerate the pinned table (only after a deliberate change to the charts, the renderer or
the matplotlib pin): ``python -m tests.tinygrafix.chart_hashing`` (from the
repository root).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

TABLE = Path(__file__).with_name("pinned_hashes.json")
PINNED_SLOTS = (0, 7)


def problem_hashes(problem) -> dict[str, str]:
    meta = json.dumps(problem.metadata, sort_keys=True, ensure_ascii=False).encode()
    return {"input": hashlib.sha256(problem.input.tobytes()).hexdigest(),
            "answer": hashlib.sha256(problem.answer.tobytes()).hexdigest(),
            "metadata": hashlib.sha256(meta).hexdigest()}


def hashes_of(names_slots) -> dict[str, dict[str, str]]:
    """``{"<task>/<slot>": hashes}`` generated in this process (also a spawn target)."""
    from paintkit.sources import generate

    return {f"{name}/{slot}": problem_hashes(generate(name, slot, source="tinygrafixbench"))
            for name, slot in names_slots}


if __name__ == "__main__":
    from paintkit.tinygrafix import TINYGRAFIX_TASKS

    table = hashes_of([(n, s) for n in TINYGRAFIX_TASKS for s in PINNED_SLOTS])
    TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(table)} entries to {TABLE}")

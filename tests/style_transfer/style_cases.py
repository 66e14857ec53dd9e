"""Shared style transfer problems, generated once per test session (a problem draws three
charts, ~0.3-1 s), and the SHA-256 of a problem (pixels of every image and the metadata) for
the hash-pinned test.

Regenerate the pinned table (only after a deliberate change to the style transfer family,
the chart renderer or the matplotlib pin): ``python -m tests.style_transfer.style_cases``
(from the repository root).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

CHARTS = ("bar_chart", "scatter_plot", "line_chart", "heatmap", "network")
TABLE = Path(__file__).with_name("pinned_hashes.json")
PINNED_SLOTS = (0, 3)


@functools.cache
def style_problem(chart: str, slot: int):
    from paintkit.sources import generate

    return generate(chart, slot, source="style-transfer")


def problem_hashes(problem) -> dict[str, str]:
    meta = json.dumps(problem.metadata, sort_keys=True, ensure_ascii=False).encode()
    out = {"input": hashlib.sha256(problem.input.tobytes()).hexdigest(),
           "answer": hashlib.sha256(problem.answer.tobytes()).hexdigest(),
           "metadata": hashlib.sha256(meta).hexdigest()}
    for n, ref in enumerate(problem.references, 1):
        out[f"reference_{n}"] = hashlib.sha256(ref.image.tobytes()).hexdigest()
    return out


def hashes_of(charts_slots) -> dict[str, dict[str, str]]:
    """``{"<chart>/<slot>": hashes}`` generated in this process (also a spawn target)."""
    from paintkit.sources import generate

    return {f"{chart}/{slot}": problem_hashes(generate(chart, slot, source="style-transfer"))
            for chart, slot in charts_slots}


if __name__ == "__main__":
    table = hashes_of([(c, s) for c in CHARTS for s in PINNED_SLOTS])
    TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(table)} entries to {TABLE}")

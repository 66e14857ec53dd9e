"""Rewards for models that write code: a completion's SVG or chart state, drawn, then scored.

:func:`code_render` is the ``render=`` of :func:`paintkit.rewards.trl_pixel_miou` for an
LLM trained with trl (GRPO, RLOO) to edit SVGs or chart states: it takes the code out of a
completion (a fenced ```` ```svg ```` / ```` ```json ```` block, or a bare ``<svg>...</svg>``)
and draws it as ``paintkit eval`` draws an ``NNNN_output.svg`` / ``.json``
(:mod:`paintkit.code_outputs`). The problem's metadata (its canvas, scene or chart states)
comes from the row: a ``metadata`` column (the problem's JSON, a dict or text), else its
``problem_id`` looked up in ``root`` (a benchmark folder) or, without ``root``, regenerated
from the key as ``paintkit serve`` does.

A completion with no code, several candidates, or code that cannot be drawn (outside the
SVG subset, hostile, another chart) renders to None: the sample scores 0, as a missing
output does in ``paintkit eval``; ``render.failures`` counts them by reason.

    from paintkit.rewards import trl_pixel_miou
    from paintkit.rewards.code import code_render
    reward = trl_pixel_miou(code_render(), root="out/paintbench")
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from paintkit.code_outputs import NoCode, code_kind, extract_code, render_code
from paintkit.rewards.problem_index import ProblemIndex

__all__ = ["code_render"]


def _metadata_from_root(index: ProblemIndex, problem_id: str) -> dict:
    input_path, _ = index.paths(problem_id)
    if not isinstance(input_path, str):
        raise ValueError(f"problem_id {problem_id!r}: a shard set holds no problem JSON; give "
                         "rows a metadata column")
    path = Path(input_path)
    return json.loads(path.with_name(path.name.split("_", 1)[0] + ".json").read_text())


def code_render(*, root: Any = None,
                cache_size: int = 4096) -> Callable[[str, np.ndarray, dict], np.ndarray | None]:
    """A ``render(text, input_image, row)`` drawing the code in a completion (see the module).

    Args:
        root: a benchmark folder for rows that name their problem by ``problem_id``; None
            regenerates problems from their key.
        cache_size: problems' metadata kept between calls.
    """
    metas: dict[str, dict] = {}
    index = ProblemIndex(Path(root)) if root is not None else None  # scanned once, on first use
    lock = threading.Lock()
    failures: Counter[str] = Counter()

    def metadata(row: dict) -> dict:
        given = row.get("metadata")
        if isinstance(given, str):
            given = json.loads(given)
        if isinstance(given, dict) and ("scene" in given or "input_state" in given):
            return given
        pid = row.get("problem_id")
        if pid is None:
            raise ValueError("the row has no metadata column and no problem_id")
        with lock:
            hit = metas.get(str(pid))
        if hit is None:
            if index is not None:
                hit = _metadata_from_root(index, str(pid))
            else:
                from paintkit.suites.problem_keys import problem_from_key  # skia: regenerates

                hit = dict(problem_from_key(str(pid)).metadata)
            with lock:
                if len(metas) >= cache_size:
                    metas.pop(next(iter(metas)))
                metas[str(pid)] = hit
        return hit

    def render(text: str, input_image: np.ndarray, row: dict) -> np.ndarray | None:
        meta = metadata(row)
        kind = code_kind(meta)
        try:
            pixels, _ = render_code(extract_code(text, kind), kind, meta)
        except (NoCode, ValueError) as exc:
            with lock:
                failures["no code" if isinstance(exc, NoCode) else "cannot be drawn"] += 1
            return None
        return pixels

    render.failures = failures  # type: ignore[attr-defined]
    return render

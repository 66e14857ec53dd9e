"""Generate one TinyGrafixBench problem: seed -> base state -> task -> render both states.

Seeds: ``seed_from_key(namespace, chart, task, slot, attempt)`` (namespace
``tinygrafixbench`` for the benchmark). A seed whose state breaks a rule (values too close,
no colour far enough) raises :class:`~paintkit.errors.RejectedSeed`, and a rendered pair
that breaks the contract is dropped the same way: an answer must change at least
:data:`MIN_EDIT_PIXELS` pixels, and doing nothing must not be rewarded (the input, scored as
if it were a model output, gets an mIoU of at most
:data:`~paintkit.tasks.base.MAX_IDENTITY_MIOU`, as for PaintBench). The next attempt is
then tried: a problem never drops out, and the attempt that made it is recorded in the
metadata.
"""

from __future__ import annotations

import random

from paintkit.charts.environment import CHART_MATPLOTLIB, check_matplotlib
from paintkit.charts.registry import chart_task
from paintkit.errors import RejectedSeed
from paintkit.kernels.edit_region import count_changed
from paintkit.seeds import tinygrafixbench_seed
from paintkit.tasks import Problem
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_miou

NAMESPACE = "tinygrafixbench"
MAX_ATTEMPTS = 100
MIN_EDIT_PIXELS = 20  # an answer must differ from its input in at least this many pixels
MODE = "default"
VISUAL_CONDITION = "default"  # charts have no visual conditions (standard field (docs/file-layout.md) kept)


def chart_seed(chart: str, task: str, slot: int, attempt: int = 0, namespace: str = NAMESPACE) -> int:
    """Seed of attempt ``attempt`` of problem ``slot`` of ``chart`` / ``task``."""
    return tinygrafixbench_seed(chart, task, slot, attempt, namespace)


def generate_chart_problem(name: str, slot: int, namespace: str = NAMESPACE, *,
                           any_matplotlib: bool = False) -> Problem:
    """Problem ``slot`` of chart task ``name`` (``"<chart>_<task>"``, e.g. ``"heatmap_add_cell"``).

    Returns a :class:`~paintkit.tasks.Problem` with uint8 ``(768, 1024, 3)`` input and answer
    and the standard metadata (docs/file-layout.md) (``category`` = chart type) plus both chart states.

    The pixels are the benchmark's only with matplotlib
    :data:`~paintkit.charts.environment.CHART_MATPLOTLIB`; another version raises
    :class:`~paintkit.charts.environment.MatplotlibVersionError` unless ``any_matplotlib``,
    which draws with it and records it in the metadata (``"matplotlib"``).
    """
    from paintkit.renderers.charts import HEIGHT, WIDTH, render_pair

    matplotlib_version = check_matplotlib(any_matplotlib)
    entry = chart_task(name)
    if not isinstance(slot, int) or isinstance(slot, bool) or slot < 0:
        raise ValueError(f"slot must be an int >= 0, got {slot!r}")
    for attempt in range(MAX_ATTEMPTS):
        seed = chart_seed(entry.chart, entry.task, slot, attempt, namespace)
        rng = random.Random(seed)
        try:
            base = entry.base_state(rng)
            inp, ans, instruction, params = entry.edit(base, rng)
        except RejectedSeed:
            continue
        input_pixels, answer_pixels = render_pair(inp, ans)
        edit_pixels = count_changed(input_pixels, answer_pixels)
        if edit_pixels < MIN_EDIT_PIXELS or identity_miou(input_pixels, answer_pixels) > MAX_IDENTITY_MIOU:
            continue
        metadata = {
            "instruction": instruction, "task": name, "mode": MODE,
            "visual_condition": VISUAL_CONDITION, "category": entry.chart, "chart": entry.chart,
            "chart_task": entry.task, "seed": seed, "slot": slot, "attempt": attempt,
            "namespace": namespace, "W": WIDTH, "H": HEIGHT,
            "bg_colors": [inp["theme"]["background"]], "text_color": inp["theme"]["text"],
            "edit_pixels": edit_pixels, "params": params,
            "input_state": inp, "answer_state": ans,
        }
        if matplotlib_version != CHART_MATPLOTLIB:
            metadata["matplotlib"] = matplotlib_version
        return Problem(input_pixels, answer_pixels, instruction, metadata)
    raise RuntimeError(f"{name} slot {slot}: no valid problem in {MAX_ATTEMPTS} attempts "
                       f"(namespace {namespace!r}); this is a bug in the chart task")

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
import warnings

from paintkit.attempts import CHART_ATTEMPTS, search_attempts
from paintkit.charts.environment import CHART_MATPLOTLIB, check_matplotlib
from paintkit.charts.registry import ChartTask, chart_task
from paintkit.errors import RejectedSeed
from paintkit.seeds import tinygrafixbench_seed
from paintkit.tasks import Problem
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_check

NAMESPACE = "tinygrafixbench"
#: Attempts of a chart slot (kept name; see :data:`paintkit.attempts.CHART_ATTEMPTS`).
MAX_ATTEMPTS = CHART_ATTEMPTS
MIN_EDIT_PIXELS = 20  # an answer must differ from its input in at least this many pixels
MODE = "default"
VISUAL_CONDITION = "default"  # charts have no visual conditions (standard field (docs/file-layout.md) kept)


def chart_seed(chart: str, task: str, slot: int, attempt: int = 0, namespace: str = NAMESPACE) -> int:
    """Seed of attempt ``attempt`` of problem ``slot`` of ``chart`` / ``task``."""
    return tinygrafixbench_seed(chart, task, slot, attempt, namespace)


def make_chart_problem(task: str, slot: int, *, namespace: str = NAMESPACE,
                       any_matplotlib: bool = False) -> Problem:
    """Problem ``slot`` of chart task ``task`` (``"<chart>_<task>"``, e.g.
    ``"heatmap_add_cell"``), in memory.

    Returns a :class:`~paintkit.tasks.Problem` with uint8 ``(768, 1024, 3)`` input and answer
    and the standard metadata (docs/file-layout.md) (``category`` = chart type) plus both
    chart states.

    The pixels are the benchmark's only with matplotlib
    :data:`~paintkit.charts.environment.CHART_MATPLOTLIB`; another version raises
    :class:`~paintkit.charts.environment.MatplotlibVersionError` unless ``any_matplotlib``,
    which draws with it and records it in the metadata (``"matplotlib"``).

    Raises:
        ValueError: unknown task, a slot that is not an int >= 0, another matplotlib.
        AttemptsExhausted: (a ``RuntimeError``) :data:`MAX_ATTEMPTS` seeds in a row gave
            no valid problem: a bug in the chart task.
    """
    matplotlib_version = check_matplotlib(any_matplotlib)
    entry = chart_task(task)
    if not isinstance(slot, int) or isinstance(slot, bool) or slot < 0:
        raise ValueError(f"slot must be an int >= 0, got {slot!r}")
    found = search_attempts(
        lambda attempt: chart_seed(entry.chart, entry.task, slot, attempt, namespace),
        lambda seed: _chart_pair(entry, seed),
        max_attempts=MAX_ATTEMPTS, what=f"{task} slot {slot} (namespace {namespace!r})")
    inp, ans, instruction, params, input_pixels, answer_pixels, edit_pixels = found.value
    height, width = input_pixels.shape[:2]
    metadata = {
        "instruction": instruction, "task": task, "mode": MODE,
        "visual_condition": VISUAL_CONDITION, "category": entry.chart, "chart": entry.chart,
        "chart_task": entry.task, "seed": found.seed, "slot": slot, "attempt": found.attempt,
        "namespace": namespace, "W": width, "H": height,
        "bg_colors": [inp["theme"]["background"]], "text_color": inp["theme"]["text"],
        "edit_pixels": edit_pixels, "params": params,
        "input_state": inp, "answer_state": ans,
    }
    if matplotlib_version != CHART_MATPLOTLIB:
        metadata["matplotlib"] = matplotlib_version
    return Problem(input_pixels, answer_pixels, instruction, metadata)


def _chart_pair(entry: ChartTask, seed: int):
    """Seed -> both states and their pixels, or :class:`~paintkit.errors.RejectedSeed`
    (a rule of the state, or a rendered pair that breaks the contract)."""
    # Deferred: the renderer imports matplotlib's pyplot machinery (slow), needed only when
    # charts are drawn; the version check above runs first and fails fast.
    from paintkit.renderers.charts import render_pair

    rng = random.Random(seed)
    base = entry.base_state(rng)
    inp, ans, instruction, params = entry.edit(base, rng)
    input_pixels, answer_pixels = render_pair(inp, ans)
    edit_pixels, free = identity_check(input_pixels, answer_pixels)
    if edit_pixels < MIN_EDIT_PIXELS:
        raise RejectedSeed(f"chart seed {seed}: the answer changes {edit_pixels} px "
                           f"(< {MIN_EDIT_PIXELS})")
    if free > MAX_IDENTITY_MIOU:
        raise RejectedSeed(f"chart seed {seed}: doing nothing would score an mIoU above "
                           f"{MAX_IDENTITY_MIOU}")
    return inp, ans, instruction, params, input_pixels, answer_pixels, edit_pixels


def generate_chart_problem(name: str, slot: int, namespace: str = NAMESPACE, *,
                           any_matplotlib: bool = False) -> Problem:
    """Deprecated alias of :func:`make_chart_problem` (``namespace`` now keyword-only);
    removed in the next version."""
    warnings.warn("paintkit.charts.generate_chart_problem is deprecated; use "
                  "make_chart_problem(task, slot, namespace=...)", DeprecationWarning, stacklevel=2)
    return make_chart_problem(name, slot, namespace=namespace, any_matplotlib=any_matplotlib)

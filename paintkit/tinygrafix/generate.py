"""One TinyGrafixBench attempt: seed -> base state -> task -> render both states.

Seeds: ``seed_from_key(namespace, chart, task, slot, attempt)`` (namespace
``tinygrafixbench`` for the benchmark). A seed whose state breaks a rule (values too close,
no colour far enough) raises :class:`~paintkit.errors.RejectedSeed`, and a rendered pair
that breaks the contract is dropped the same way: an answer must change at least
:data:`MIN_EDIT_PIXELS` pixels, and doing nothing must not be rewarded (the input, scored as
if it were a model output, gets an mIoU of at most
:data:`~paintkit.tasks.base.MAX_IDENTITY_MIOU`, as for PaintBench). The next attempt is
then tried (:class:`~paintkit.tinygrafix.source.TinyGrafixSource` runs the search): a problem never
drops out, and the attempt that made it is recorded in the metadata.
"""

from __future__ import annotations

import random

from paintkit.errors import RejectedSeed
from paintkit.seeds import tinygrafixbench_seed
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_check
from paintkit.tinygrafix.registry import ChartTask

NAMESPACE = "tinygrafixbench"
MIN_EDIT_PIXELS = 20  # an answer must differ from its input in at least this many pixels
MODE = "default"
VISUAL_CONDITION = "default"  # charts have no visual conditions (standard field (docs/file-layout.md) kept)


def chart_seed(chart: str, task: str, slot: int, attempt: int = 0, namespace: str = NAMESPACE) -> int:
    """Seed of attempt ``attempt`` of problem ``slot`` of ``chart`` / ``task``."""
    return tinygrafixbench_seed(chart, task, slot, attempt, namespace)


def chart_pair(entry: ChartTask, seed: int):
    """Seed -> ``(input state, answer state, instruction, params, input pixels, answer pixels,
    edit pixels)``, or :class:`~paintkit.errors.RejectedSeed` (a rule of the state, or a
    rendered pair that breaks the contract). :class:`~paintkit.tinygrafix.source.TinyGrafixSource`
    runs the attempt search over it."""
    # Deferred: the renderer imports matplotlib's pyplot machinery (slow), needed only when
    # charts are drawn; the source's version check runs first and fails fast.
    from paintkit.tinygrafix.render import render_pair

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

"""Visual-guidance variants of the single-target tasks: the target is marked, not named.

For problem ``slot`` of (task, condition, mode), attempt 0, 1, ... of the seed
``guidance|task|condition|mode|slot|attempt`` (namespace first;
:class:`~paintkit.sources.guidance.GuidanceSource` runs the search): generate the task's own
problem with that seed, then

1. take its one target and the phrase that names it ("the red star"), which must occur
   exactly once in the instruction;
2. pick a cue (ring or arrow, 50/50) and a colour far from every colour of the input and
   answer scenes (CIE76 at least :data:`MIN_CUE_DELTA_E` from each), and place the cue around the
   target (:func:`~paintkit.guidance.cues.place_cue`);
3. replace the phrase by "the shape marked by the #RRGGBB ring" / "the shape the #RRGGBB
   arrow points at" and add that the cue is a marker the answer does not show.

The input is the task's input scene with the cue drawn on top; the answer is the task's
answer unchanged (the cue removed). The seed is rejected when any step fails or when doing
nothing would score an mIoU above ``MAX_IDENTITY_MIOU``.
"""

from __future__ import annotations

import math

from paintkit.colors import rgb_to_hex
from paintkit.errors import RejectedSeed
from paintkit.guidance.cues import CUES, NoCue, place_cue
from paintkit.hex_lab import lab_of_hex
from paintkit.language.phrases import describe_shape
from paintkit.renderers import render
from paintkit.scene import Scene
from paintkit.seeds import python_rng, seed_from_key
from paintkit.tasks import Problem
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_check

#: Tasks whose problems edit exactly one shape named by a phrase, answered from a scene.
GUIDED_TASKS: tuple[str, ...] = ("translation", "rotation", "reflection", "scaling", "shearing")
# The cue's colour code is part of the phrase: no shape of the scene has that colour, so "the
# #2339B2 ring" can only be the cue, even in scenes with ring or arrow shapes.
CUE_PHRASES = {"ring": "the shape marked by the {code} ring",
               "arrow": "the shape the {code} arrow points at"}
#: The cue's colour is at least this CIE76 distance from every colour of the input and answer
#: scenes: far beyond the metric's tolerances, and plainly another colour to a reader.
MIN_CUE_DELTA_E = 40.0
COLOR_TRIES = 200


def cue_delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """CIE76 distance between two 8-bit sRGB colours (plain Python, same on every machine)."""
    return math.dist(lab_of_hex(rgb_to_hex(a)), lab_of_hex(rgb_to_hex(b)))


def _cue_color(rng, colors: set) -> tuple[int, int, int]:
    for _ in range(COLOR_TRIES):
        color = tuple(rng.randrange(256) for _ in range(3))
        if all(cue_delta_e(color, c) >= MIN_CUE_DELTA_E for c in colors):
            return color
    raise NoCue("no colour far enough from every scene colour")


def guide(problem: Problem, seed: int) -> Problem:
    """The guided variant of ``problem`` (see the module docstring); raises
    :class:`~paintkit.errors.RejectedSeed` when it has none."""
    meta = problem.metadata
    if len(meta.get("targets", ())) != 1 or "answer_scene" not in meta:
        raise RejectedSeed(f"guidance seed {seed}: needs one target and an answer scene")
    scene = Scene.from_dict(meta["scene"])
    answer_scene = Scene.from_dict(meta["answer_scene"])
    target = scene.element(meta["targets"][0])
    phrase = describe_shape(target, scene.shapes)
    if problem.instruction.count(phrase) != 1:
        raise RejectedSeed(f"guidance seed {seed}: '{phrase}' is not named exactly once")
    rng = python_rng(seed_from_key(seed, "cue"))
    kind = rng.choice(CUES)
    try:
        color = _cue_color(rng, set(scene.colors) | set(answer_scene.colors))
        cue = place_cue(rng, scene, target, kind, color)
    except NoCue as exc:
        raise RejectedSeed(f"guidance seed {seed}: {exc}") from None
    cued = scene.with_elements(*cue)
    pixels = render(cued)
    edit_pixels, free = identity_check(pixels, problem.answer)
    if free > MAX_IDENTITY_MIOU:
        raise RejectedSeed(f"guidance seed {seed}: doing nothing would score too well")
    code = rgb_to_hex(color)
    instruction = (problem.instruction.replace(phrase, CUE_PHRASES[kind].format(code=code))
                   + f" The {code} {kind} is only a marker: the answer does not show it.")
    out = dict(meta)
    out.update({
        "instruction": instruction, "seed": seed, "edit_pixels": edit_pixels,
        "scene": cued.to_dict(),
        "guidance": {"cue": kind, "color": code, "elements": [e.id for e in cue],
                     "replaces": phrase},
    })
    return Problem(pixels, problem.answer, instruction, out)

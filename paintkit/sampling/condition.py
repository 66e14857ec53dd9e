"""Scenes for a visual condition: palette split, background and shapes from one seed.

This is the common first step of every PaintBench task generator: a seed and a condition
name give the canvas, the shuffled palette (background, stripe holdout, object colors), the
background (solid, or striped under ``striped``) and a rule-abiding set of shapes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from paintkit.colors import ColorSplit, split_palette
from paintkit.conditions import Condition, get_condition
from paintkit.sampling.shapes import DEFAULT_RULES, PlacementRules, sample_shapes
from paintkit.scene import (
    SHAPE_TYPES,
    STRIPE_ORIENTATIONS,
    WAVEFORMS,
    Background,
    Canvas,
    Scene,
    Stripes,
)

STRIPE_BAND_WIDTHS = (0.06, 0.08, 0.10)  # fractions of the canvas width
STRIPE_AMPLITUDE = (0.01, 0.04)  # fraction of the canvas width
STRIPE_FREQUENCY = (4.0, 10.0)  # boundary cycles per canvas width


def sample_stripes(rng: random.Random, canvas: Canvas, holdout: tuple[int, int, int]) -> Stripes:
    """Random stripe geometry following docs/generator-rules.md#striped-background (line
    waveforms get no displacement)."""
    orientation = rng.choice(STRIPE_ORIENTATIONS)
    band_width = rng.choice(STRIPE_BAND_WIDTHS) * canvas.width
    waveform = rng.choice(WAVEFORMS)
    amplitude = rng.uniform(*STRIPE_AMPLITUDE) * canvas.width
    frequency = rng.uniform(*STRIPE_FREQUENCY)
    phase = rng.random()
    if waveform == "line":
        amplitude, frequency, phase = 0.0, 0.0, 0.0
    return Stripes(color=holdout, orientation=orientation, band_width=band_width,
                   waveform=waveform, amplitude=amplitude, frequency=frequency, phase=phase)


@dataclass(frozen=True)
class ConditionScene:
    """A sampled scene with the condition and palette split it came from."""

    condition: Condition
    colors: ColorSplit
    scene: Scene


def condition_background(rng: random.Random, condition: Condition) -> tuple[ColorSplit, Background]:
    """Shuffle the condition's palette and build its background (striped or solid)."""
    split = split_palette(condition.palette, rng)
    canvas = Canvas(condition.width, condition.height)
    stripes = sample_stripes(rng, canvas, split.holdout.rgb) if condition.striped else None
    return split, Background(color=split.background.rgb, stripes=stripes)


def condition_scene(rng: random.Random, condition: str | Condition, task: str = "default", *,
                    count_range: int | tuple[int, int] | None = None,
                    shape_types: Sequence[str] = SHAPE_TYPES,
                    rules: PlacementRules = DEFAULT_RULES) -> ConditionScene:
    """Sample the scene of one problem under ``condition``.

    ``task`` picks the object-count table (``comparison``, ``ordering``, ``pattern``,
    ``counting`` have their own; every other name uses the default); ``count_range``
    overrides it.
    """
    cond = condition if isinstance(condition, Condition) else get_condition(condition)
    split, background = condition_background(rng, cond)
    canvas = Canvas(cond.width, cond.height)
    count = cond.object_count(task) if count_range is None else count_range
    shapes = sample_shapes(rng, canvas, [c.rgb for c in split.objects], count,
                           shape_types=shape_types, rules=rules)
    return ConditionScene(cond, split, Scene(canvas, background, tuple(shapes)))

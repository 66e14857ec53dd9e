"""Random scenes from one seed: the first step of every PaintBench task.

- :mod:`paintkit.sampling.shapes`: ``sample_shapes`` places shapes under every placement
  rule (size, aspect, rotation, margins, spacing, colour identity, optional quota);
- :mod:`paintkit.sampling.condition`: ``condition_scene`` turns a seed and a visual
  condition into the canvas, the palette split, the background and the shapes.
"""

from paintkit.sampling.condition import (
    ConditionScene,
    condition_background,
    condition_scene,
)
from paintkit.sampling.shapes import DEFAULT_RULES, PlacementRules, sample_scene, sample_shapes

__all__ = ["DEFAULT_RULES", "ConditionScene", "PlacementRules", "condition_background",
           "condition_scene", "sample_scene", "sample_shapes"]

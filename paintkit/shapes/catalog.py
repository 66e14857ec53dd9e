"""Per-shape constraints of the 12 PaintBench shapes (paper appendix A.2)."""

from __future__ import annotations

from paintkit.scene import SHAPE_TYPES

ROTATABLE: frozenset[str] = frozenset(
    {"hexagon", "triangle", "ring", "arrow", "heart", "star", "semicircle", "diamond"}
)
ASPECT_FREE: frozenset[str] = frozenset({"rectangle", "ring", "arrow", "cross", "diamond"})
# AR-free shapes that must not look square: their aspect ratio avoids [0.8, 1.25].
NEAR_SQUARE_EXCLUDED: frozenset[str] = frozenset({"rectangle", "ring", "diamond"})


def check_shape_type(name: str) -> str:
    if name not in SHAPE_TYPES:
        raise ValueError(f"unknown shape type {name!r}; allowed: {', '.join(SHAPE_TYPES)}")
    return name

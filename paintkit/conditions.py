"""The 8 visual conditions of PaintBench (docs/generator-rules.md#visual-conditions): each
changes one parameter of the baseline (canvas size, palette, background or object count)."""

from __future__ import annotations

from dataclasses import dataclass

CONDITIONS: tuple[str, ...] = (
    "baseline", "horizontal", "vertical", "nonstandard", "striped", "n_med", "n_high", "n_xhigh",
)
COUNT_LEVELS: tuple[str, ...] = ("baseline", "n_med", "n_high", "n_xhigh")

# Object counts per count level (baseline / n_med / n_high / n_xhigh), by task family.
COUNTS: dict[str, tuple[int, int, int, int]] = {
    "default": (3, 10, 25, 60),
    "comparison": (3, 5, 7, 9),
    "ordering": (3, 5, 7, 9),
    "pattern": (1, 3, 6, 10),
    "counting": (5, 10, 25, 60),
}


@dataclass(frozen=True)
class Condition:
    """What a visual condition sets: canvas size, palette, background and count level."""

    name: str
    width: int
    height: int
    palette: str
    striped: bool
    count_level: str

    def object_count(self, task: str = "default") -> int:
        """The default object count of ``task`` under this condition."""
        table = COUNTS.get(task, COUNTS["default"])
        return table[COUNT_LEVELS.index(self.count_level)]


def get_condition(name: str) -> Condition:
    """The :class:`Condition` called ``name``; ``ValueError`` listing the allowed names."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown visual condition {name!r}; allowed: {', '.join(CONDITIONS)}")
    width, height = {"horizontal": (1024, 576), "vertical": (576, 1024)}.get(name, (1024, 1024))
    return Condition(
        name=name,
        width=width,
        height=height,
        palette="nonstandard" if name == "nonstandard" else "standard",
        striped=name == "striped",
        count_level=name if name in COUNT_LEVELS else "baseline",
    )

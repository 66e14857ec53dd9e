"""Plain-NumPy helpers shared by the structural-manipulation task tests (no generator code)."""

from __future__ import annotations

import re

import numpy as np

from paintkit.colors import describe_color
from paintkit.scene import Scene
from paintkit.sources import generate

CONDITIONS_SAMPLE = ("baseline", "horizontal", "striped", "n_high")


def problems(task: str, mode: str | None, conditions=CONDITIONS_SAMPLE, slots=(0, 1)):
    """(problem, input scene) for each condition and slot."""
    for condition in conditions:
        for slot in slots:
            p = generate(task, slot, condition, mode)
            yield p, Scene.from_dict(p.metadata["scene"])


def color_mask(image: np.ndarray, colors) -> np.ndarray:
    """bool (H, W): pixels of ``image`` equal to any of ``colors``."""
    out = np.zeros(image.shape[:2], bool)
    for c in colors:
        out |= np.all(image == np.asarray(c, np.uint8), axis=-1)
    return out


def pixel_centers(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) float grids of pixel centers, each (H, W)."""
    ys, xs = np.mgrid[0:h, 0:w]
    return xs + 0.5, ys + 0.5


def shapes_named(phrase: str, scene: Scene) -> list:
    """Shapes of ``scene`` a phrase like "the red star" / "the star" / "the red shape" names,
    parsed from the words alone."""
    words = phrase.removeprefix("the ").strip()
    out = []
    for s in scene.shapes:
        color = describe_color(s.fill)
        if words in (s.type, f"{color} shape", f"{color} {s.type}"):
            out.append(s)
    return out


def numbers_in(text: str) -> set[str]:
    return set(re.findall(r"-?\d+(?:\.\d+)?", text))

"""Each element's visible pixels, rebuilt exactly from a stored scene.

A problem's metadata holds its input scene (``scene``) and, for tasks whose answer is a
re-rendered scene, its answer scene (``answer_scene``). Rendering is exact and coverage does
not depend on colour, so drawing the scene once with element ``k`` painted in the colour
that encodes ``k + 1`` (background 0, no stripes) gives the *footprint map*: per pixel, the
index + 1 of the topmost element covering it, 0 for background. No mask needs storing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from paintkit.scene import Background, Line, Scene, Stroke

__all__ = ["Footprints", "footprints", "scene_from_metadata", "underlay"]


@dataclass
class Footprints:
    """The footprint map of a scene: ``index`` int32 ``(H, W)`` (0 background, ``k + 1``
    for element ``ids[k]``), each element's visible ``area`` (px) and box ``(top, left,
    bottom, right)`` inclusive (``boxes[k + 1]``)."""

    scene: Scene
    ids: list
    index: np.ndarray
    area: np.ndarray
    boxes: np.ndarray

    def mask(self, element_id: str) -> np.ndarray:
        return self.index == self.ids.index(element_id) + 1

    def window(self, k: int) -> tuple[slice, slice]:
        """Slices of the box of element index ``k`` (0-based)."""
        top, left, bottom, right = (int(v) for v in self.boxes[k + 1])
        return slice(top, bottom + 1), slice(left, right + 1)


def _id_color(k: int) -> tuple[int, int, int]:
    """Colour encoding index ``k``: code ``k + 1`` in the low 24 bits of the RGBA pixel read
    as a little-endian uint32 (R lowest), so decoding is one mask over the render buffer."""
    code = k + 1
    return code & 255, (code >> 8) & 255, (code >> 16) & 255


def _painted(element, color):
    """``element`` with every colour it paints replaced by ``color``."""
    if isinstance(element, Line):
        return replace(element, color=color)
    stroke = element.stroke
    return replace(element, fill=None if element.fill is None else color,
                   stroke=None if stroke is None else Stroke(color, stroke.width))


def footprints(scene: Scene) -> Footprints:
    """The footprint map of ``scene`` (one render)."""
    from paintkit.kernels.components import label_boxes
    from paintkit.renderers import render_rgba

    if len(scene.elements) >= (1 << 24) - 1:
        raise ValueError(f"scene: at most {(1 << 24) - 2} elements can be told apart, got "
                         f"{len(scene.elements)}")
    coded = Scene(scene.canvas, Background((0, 0, 0)),
                  tuple(_painted(e, _id_color(k)) for k, e in enumerate(scene.elements)))
    rgba = render_rgba(coded)  # this thread's buffer: decoded into a new array at once
    words = rgba.view("<u4")[..., 0]
    index = np.bitwise_and(words, np.uint32(0xFFFFFF)).view(np.int32)
    area, boxes = label_boxes(index, len(scene.elements))
    return Footprints(scene, [e.id for e in scene.elements], index, area, boxes)


def underlay(scene: Scene, element_id: str) -> np.ndarray:
    """What the scene shows without ``element_id``: uint8 ``(H, W, 3)``."""
    from paintkit.renderers import render

    return render(scene.without(element_id))


def scene_from_metadata(metadata: dict, key: str) -> Scene | None:
    """The scene stored under ``key`` (``"scene"`` / ``"answer_scene"``), or None when the
    metadata has none; ``ValueError`` naming the key when it does not parse."""
    data = metadata.get(key)
    if data is None:
        return None
    try:
        return Scene.from_dict(data)
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"metadata[{key!r}]: not a valid scene ({exc})") from exc

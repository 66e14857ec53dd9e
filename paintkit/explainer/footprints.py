"""Each element's visible pixels, rebuilt exactly from a stored scene.

A problem's metadata holds its input scene (``scene``) and, for tasks whose answer is a
re-rendered scene, its answer scene (``answer_scene``). Rendering is exact and coverage does
not depend on colour, so drawing the scene once with element ``k``'s fill and stroke
painted in colours that encode them (the code render,
:func:`paintkit.renderers.render_codes`) gives the *footprint map*: per pixel, the
index + 1 of the topmost element covering it, 0 for background. No mask needs storing. The
same render checks that the scene is the stored image: the image is the codes' colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from paintkit.kernels.scene_codes import decode_codes, renders_exactly
from paintkit.scene import Line, Scene

__all__ = ["Footprints", "checked_footprints", "footprints", "same_coverage",
           "scene_from_metadata", "underlay"]


@dataclass
class Footprints:
    """The footprint map of a scene: ``index`` ``(H, W)`` (0 background, ``k + 1`` for
    element ``ids[k]``; uint8, uint16 or int32, the smallest that holds the element count),
    each element's visible ``area`` (px) and box ``(top, left, bottom, right)`` inclusive
    (``boxes[k + 1]``)."""

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


def _palette(scene: Scene) -> np.ndarray:
    """uint8 ``(2n + 1, 3)``: the colour each code of the scene's code render stands for
    (element ``k``'s fill, or a line's colour, at ``2k + 1``, its stroke at ``2k + 2``)."""
    palette = np.zeros((2 * len(scene.elements) + 1, 3), np.uint8)
    for k, element in enumerate(scene.elements):
        if isinstance(element, Line):
            palette[2 * k + 1] = element.color
            continue
        if element.fill is not None:
            palette[2 * k + 1] = element.fill
        if element.stroke is not None:
            palette[2 * k + 2] = element.stroke.color
    return palette


def _background(scene: Scene) -> np.ndarray:
    """What code 0 shows: uint8 ``(1, 1, 3)`` for a solid background, ``(H, W, 4)`` striped."""
    from paintkit.renderers import render_background  # skia

    if scene.background.stripes is None:
        return np.array(scene.background.color, np.uint8).reshape(1, 1, 3)
    return render_background(scene)


def same_coverage(a: Scene, b: Scene) -> bool:
    """Whether two scenes have the same code render (same canvas, the same elements in the
    same order up to ids and colours), e.g. an input and an answer that differ by colours
    only."""
    from paintkit.renderers import coverage_key  # skia

    return a.canvas == b.canvas and len(a.elements) == len(b.elements) and all(
        coverage_key(x) == coverage_key(y) for x, y in zip(a.elements, b.elements, strict=True))


def footprints(scene: Scene) -> Footprints:
    """The footprint map of ``scene`` (one code render)."""
    return checked_footprints([(scene, None)])[0][0]


def checked_footprints(pairs) -> list[tuple[Footprints | None, bool]]:
    """Footprints of scenes, each checked against the image it should render to.

    Args:
        pairs: ``(scene, image)`` pairs; ``image`` uint8 ``(H, W, 3)`` or None (no check),
            ``scene`` None for a missing scene.

    Returns:
        Per pair ``(footprints, renders)``: ``renders`` is whether the scene renders to the
        image exactly (True without an image); ``(None, False)`` for a missing scene or an
        image of another size. One code render per scene gives both the footprints and the
        check (the image is the code render's lookup, :func:`paintkit.renderers.render_codes`);
        a scene with the coverage of the pair before it (:func:`same_coverage`) shares that
        render and its footprint map.
    """
    from paintkit.renderers import render_codes  # skia

    results: list[tuple[Footprints | None, bool]] = []
    last = None  # (scene, words, Footprints) of the latest render in this call
    for scene, image in pairs:
        if scene is None or (image is not None and image.shape[:2]
                             != (scene.canvas.height, scene.canvas.width)):
            results.append((None, False))
            continue
        n = len(scene.elements)
        ids = [e.id for e in scene.elements]
        check = () if image is None else (_palette(scene), _background(scene), image)
        if last is not None and same_coverage(last[0], scene):
            _, words, shared = last
            fp = Footprints(scene, ids, shared.index, shared.area, shared.boxes)
            exact = renders_exactly(words, n, *check) if check else True
        else:
            words = render_codes(scene)  # this thread's buffer: used before the next render
            index, area, boxes, exact = decode_codes(words, n, *check)
            fp = Footprints(scene, ids, index, area, boxes)
            last = (scene, words, fp)
        results.append((fp, exact))
    return results


def underlay(scene: Scene, element_id: str, window: tuple[slice, slice]) -> np.ndarray:
    """What the scene shows without ``element_id`` in ``window`` (row and column slices,
    e.g. :meth:`Footprints.window`): uint8 ``(h, w, 3)``, drawn in the window only."""
    from paintkit.renderers import render_window  # skia

    rows, cols = window
    return render_window(scene.without(element_id), rows.start, cols.start, rows.stop,
                         cols.stop)


def scene_from_metadata(metadata: Mapping[str, Any], key: str) -> Scene | None:
    """The scene stored under ``key`` (``"scene"`` / ``"answer_scene"``), or None when the
    metadata has none; ``ValueError`` naming the key when it does not parse."""
    data = metadata.get(key)
    if data is None:
        return None
    try:
        return Scene.from_dict(data)
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"metadata[{key!r}]: not a valid scene ({exc})") from exc

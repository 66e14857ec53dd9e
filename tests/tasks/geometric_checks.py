"""Independent checks for the geometric tasks (rotation, reflection, scaling, shearing).

Everything here re-derives the expected answer from the instruction's words and the input
scene with plain NumPy: points named in the instruction are resolved from the scene
(bounding boxes from outline vertices, canvas points from the canvas size), the stated edit
is applied to the input target's outline vertices, and the result is rasterized with the
pixel-center oracle of ``tests/render/raster_oracle.py``. Nothing calls the task modules'
own geometry (``paintkit.edits.geometric``).
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

import numpy as np

from paintkit.colors import describe_color
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.shapes import control_points, shape_outline

_spec = importlib.util.spec_from_file_location(
    "raster_oracle_for_tasks", Path(__file__).parents[1] / "render" / "raster_oracle.py")
raster_oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(raster_oracle)

# Unit-square position of the 9 named points of a box (bounding box or canvas).
BOX_UV = {
    "top-left corner": (0, 0), "top edge midpoint": (0.5, 0), "top-right corner": (1, 0),
    "left edge midpoint": (0, 0.5), "center": (0.5, 0.5), "right edge midpoint": (1, 0.5),
    "bottom-left corner": (0, 1), "bottom edge midpoint": (0.5, 1), "bottom-right corner": (1, 1),
}
EDGE_EPS = 0.1  # px: answer and oracle masks may disagree only this close to an edge


# -- reading the instruction ------------------------------------------------------------
def shapes_matching(phrase: str, scene: Scene) -> list:
    """Shapes a phrase "the star" / "the red shape" / "the red star" can mean."""
    assert phrase.startswith("the "), phrase
    words = phrase[4:]
    out = []
    for s in scene.shapes:
        color = describe_color(s.fill)
        if words == s.type or words == f"{color} shape" or words == f"{color} {s.type}":
            out.append(s)
    return out


def the_shape(phrase: str, scene: Scene):
    """The one shape ``phrase`` names (asserts the phrase is unambiguous)."""
    found = shapes_matching(phrase, scene)
    assert len(found) == 1, f"{phrase!r} matches {len(found)} shapes"
    return found[0]


def outline_box(shape) -> tuple[float, float, float, float]:
    """Axis-aligned bounds of the placed outline, from its vertices."""
    pts = np.concatenate(shape_outline(shape))
    return (*pts.min(axis=0), *pts.max(axis=0))


def box_point(box, name: str) -> tuple[float, float]:
    u, v = BOX_UV[name]
    x0, y0, x1, y1 = box
    return (x0 + u * (x1 - x0), y0 + v * (y1 - y0))


def resolve_point(text: str, scene: Scene, target) -> tuple[float, float]:
    """The canvas point an instruction's words name, found from the scene alone."""
    m = re.fullmatch(r"the canvas point \((\d+), (\d+)\)", text)
    if m:
        return (float(m[1]), float(m[2]))
    m = re.fullmatch(r"the (.+) of the canvas", text)
    if m:
        w, h = scene.canvas.width, scene.canvas.height
        return box_point((0, 0, w, h), m[1])
    m = re.fullmatch(r"the (.+) of its bounding box", text)
    if m:
        return box_point(outline_box(target), m[1])
    m = re.fullmatch(r"its (.+)", text)
    if m:
        return control_points(target)[m[1]]
    m = re.fullmatch(r"the (.+?) of (the .+)'s bounding box", text)
    if m:
        return box_point(outline_box(the_shape(m[2], scene)), m[1])
    m = re.fullmatch(r"the (.+?) of (the .+)", text)
    assert m, text
    return control_points(the_shape(m[2], scene))[m[1]]


def scenes(p):
    """(input scene, answer scene, input target, answer target) of a problem."""
    scene = Scene.from_dict(p.metadata["scene"])
    answer_scene = Scene.from_dict(p.metadata["answer_scene"])
    (tid,) = p.metadata["targets"]
    return scene, answer_scene, scene.element(tid), answer_scene.element(tid)


# -- checking the answer ----------------------------------------------------------------
def check_answer_scene(p, verb: str):
    """The target is named uniquely, the rest of the scene is untouched, the layer is as
    stated and the answer pixels are the answer scene rendered."""
    scene, answer_scene, target, _ = scenes(p)
    m = re.match(rf"{verb} (the .+?) (?:\d|across|horizontally|vertically|uniformly|along|so)",
                 p.instruction)
    assert m, p.instruction
    assert the_shape(m[1], scene).id == target.id
    on_top = "It goes on top of any shape it overlaps." in p.instruction
    assert on_top != ("It goes beneath any shape it overlaps." in p.instruction)
    assert on_top == p.metadata["params"]["on_top"]
    rest = [e.id for e in answer_scene.elements if e.id != target.id]
    assert [e for e in answer_scene.elements if e.id != target.id] == \
        [e for e in scene.elements if e.id != target.id]
    assert len(rest) == len(scene.elements) - 1
    assert answer_scene.elements[-1 if on_top else 0].id == target.id
    assert np.array_equal(p.input, render(scene))
    assert np.array_equal(p.answer, render(answer_scene))
    assert "Any part that leaves the canvas is clipped." in p.instruction


def _segment_distance(points: np.ndarray, contours) -> np.ndarray:
    """Distance of each of ``points`` (K, 2) to the nearest edge of closed ``contours``."""
    a = np.concatenate([np.asarray(c) for c in contours])
    b = np.concatenate([np.roll(np.asarray(c), -1, axis=0) for c in contours])
    d = b - a
    t = np.clip(((points[:, None, :] - a[None]) * d[None]).sum(-1) / (d * d).sum(-1).clip(1e-18), 0, 1)
    nearest = a[None] + t[..., None] * d[None]
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(-1)).min(axis=1)


def check_target_mask(p, mapping):
    """The answer target's pixels equal the oracle rasterization of the input target's
    outline mapped by ``mapping`` (float (N, 2) -> (N, 2)), up to pixel centers within
    :data:`EDGE_EPS` of the expected outline; where the target is on top, the answer
    shows its fill on every one of those pixels."""
    scene, answer_scene, target, _ = scenes(p)
    contours = [mapping(np.asarray(c, float)) for c in shape_outline(target)]
    got = render_mask(answer_scene, target.id)
    h, w = got.shape
    pts = np.concatenate(contours)
    x0, y0 = (max(0, int(np.floor(v)) - 1) for v in pts.min(axis=0))
    x1 = min(w, int(np.ceil(pts[:, 0].max())) + 1)
    y1 = min(h, int(np.ceil(pts[:, 1].max())) + 1)
    assert x1 > x0 and y1 > y0, "the edited shape left the canvas"
    shifted = [c - np.array([x0, y0], float) for c in contours]
    expected = raster_oracle.winding_mask(shifted, y1 - y0, x1 - x0)
    window = got[y0:y1, x0:x1]
    assert window.sum() == got.sum(), "target pixels outside the expected outline's bounds"
    assert expected.sum() > 0
    wrong = np.argwhere(window != expected)
    if len(wrong):
        centers = wrong[:, ::-1] + 0.5
        assert _segment_distance(centers, shifted).max() <= EDGE_EPS, (
            f"{len(wrong)} mismatched pixels, farthest "
            f"{_segment_distance(centers, shifted).max():.3f} px from the expected edge")
    if p.metadata["params"]["on_top"]:
        assert (p.answer[got] == np.array(target.fill, np.uint8)).all()


def check_control_points(p, mapping, tol: float = 1e-6):
    """Every intrinsic control point of the answer target is the input's, mapped."""
    _, _, target, edited = scenes(p)
    before, after = control_points(target), control_points(edited)
    names = sorted(before)
    expected = mapping(np.array([before[n] for n in names], float))
    got = np.array([after[n] for n in names], float)
    assert np.abs(expected - got).max() <= tol


# -- plain affine maps written from their definitions (y down, clockwise on screen) -----
def rotate(points: np.ndarray, pivot, degrees: float, clockwise: bool) -> np.ndarray:
    t = math.radians(degrees if clockwise else -degrees)
    d = points - np.asarray(pivot, float)
    # On screen (y down) a clockwise turn takes +x toward +y.
    x = d[:, 0] * math.cos(t) - d[:, 1] * math.sin(t)
    y = d[:, 0] * math.sin(t) + d[:, 1] * math.cos(t)
    return np.stack([x, y], axis=1) + np.asarray(pivot, float)


def mirror(points: np.ndarray, p, q) -> np.ndarray:
    p, q = np.asarray(p, float), np.asarray(q, float)
    u = (q - p) / np.linalg.norm(q - p)
    d = points - p
    foot = p + np.outer(d @ u, u)
    return 2 * foot - points


def scale(points: np.ndarray, pivot, sx: float, sy: float) -> np.ndarray:
    return (points - np.asarray(pivot, float)) * np.array([sx, sy]) + np.asarray(pivot, float)

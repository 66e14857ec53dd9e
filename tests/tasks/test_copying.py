"""Copying: the destination square's interior shows the source square's shapes pixel for
pixel, nothing else changes, and the scene keeps shapes fully inside the source or fully
outside both squares."""

import numpy as np
from structural_checks import color_mask, problems

from paintkit.renderers import render_mask
from paintkit.scene import Polygon
from paintkit.shapes import shape_bounds


def _interior(image, corner, side, half):
    x, y = corner
    return image[y + half:y + side - half, x + half:x + side - half]


def _box_relation(bounds, corner, side, half):
    x0, y0, x1, y1 = bounds
    ix0, iy0, ix1, iy1 = corner[0] + half, corner[1] + half, corner[0] + side - half, \
        corner[1] + side - half
    if ix0 <= x0 and iy0 <= y0 and x1 <= ix1 and y1 <= iy1:
        return "inside"
    ox0, oy0, ox1, oy1 = ix0 - 2 * half, iy0 - 2 * half, ix1 + 2 * half, iy1 + 2 * half
    if x1 < ox0 or x0 > ox1 or y1 < oy0 or y0 > oy1:
        return "outside"
    return "crossing"


def test_destination_shows_the_source_content():
    for p, scene in problems("copying", None, slots=(0, 1, 2)):
        prm = p.metadata["params"]
        side, half = prm["side"], prm["outline_width"] // 2
        src, dst = prm["source_corner"], prm["destination_corner"]
        bg = scene.background.colors
        a_src = _interior(p.answer, src, side, half)
        a_dst = _interior(p.answer, dst, side, half)
        src_shapes = ~color_mask(a_src, bg)
        dst_shapes = ~color_mask(a_dst, bg)
        assert src_shapes.any()
        assert np.array_equal(src_shapes, dst_shapes)
        assert np.array_equal(a_src[src_shapes], a_dst[dst_shapes])
        if scene.background.stripes is None:
            assert np.array_equal(a_src, a_dst)
        # The destination was empty; the source and everything outside the destination
        # interior are unchanged.
        assert color_mask(_interior(p.input, dst, side, half), bg).all()
        keep = np.ones(p.input.shape[:2], bool)
        _interior(keep, dst, side, half)[...] = False
        assert np.array_equal(p.answer[keep], p.input[keep])
        # The stated offset is the offset between the squares.
        dx, dy = dst[0] - src[0], dst[1] - src[1]
        assert (prm["dx"], prm["dy"]) == (dx, dy)
        for v in (dx, dy):
            if v:
                assert f"{abs(v)} pixels" in p.instruction
        assert f"{prm['source']} square into the {prm['destination']} square" in p.instruction


def test_shapes_are_inside_the_source_or_outside_both_squares():
    for p, scene in problems("copying", None, ("baseline", "n_xhigh"), slots=(0, 1)):
        prm = p.metadata["params"]
        side, half = prm["side"], prm["outline_width"] // 2
        marks = [e for e in scene.elements if isinstance(e, Polygon)]
        assert len(marks) == 2 and {m.stroke.color for m in marks} == {tuple(prm["outline_color"])}
        assert all(prm["outline_color"] != list(s.fill) for s in scene.shapes)
        inside = set()
        for s in scene.shapes:
            b = shape_bounds(s)
            rel_src = _box_relation(b, prm["source_corner"], side, half)
            rel_dst = _box_relation(b, prm["destination_corner"], side, half)
            assert rel_dst == "outside"
            assert rel_src in ("inside", "outside")
            if rel_src == "inside":
                inside.add(s.id)
                assert render_mask(scene, s.id).any()
        assert inside == set(p.metadata["targets"]) and inside
        # Squares are told apart by position: their ranges along the named axis are disjoint.
        axis = 0 if prm["arrangement"] == "horizontal" else 1
        lo, hi = sorted((prm["source_corner"][axis], prm["destination_corner"][axis]))
        assert hi - lo > side

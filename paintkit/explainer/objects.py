"""Object-level tags: what happened to each element of a scored output.

Every element visible in the answer (its footprint ``F``: the pixels where it is the
topmost element) gets one tag, decided in this order at tolerance ``t`` (a pixel matches
when ``ΔE(O, A) <= t``):

1. ``correct``: at least :data:`CORRECT_SHARE` of ``F`` matches.
2. ``misplaced``: the element's appearance is found elsewhere: shifted by an integer
   ``offset`` ``(dx, dy)`` (output minus answer, px), at least :data:`MISPLACED_SHARE` of
   ``F`` matches the output (pixels shifted off the canvas do not count; at least half of
   ``F`` must stay on it). The offset is found from the centroid of a component of wrong output
   pixels of the element's main colour, then refined by 1 px steps while the share grows.
   ``left_in_place`` says whether the output still shows it where the input had it
   (its input footprint matches the input on at least :data:`MISSING_SHARE`).
3. ``missing``: the output shows what lies under the element (the answer scene rendered
   without it) on at least :data:`MISSING_SHARE` of the pixels of ``F`` where that differs
   from the answer.
4. ``wrong_colour``: for each colour the element paints, the output is one colour (within
   ``t`` of its most frequent colour) on at least :data:`UNIFORM_SHARE` of those pixels, and
   at least one of them is more than ``t`` away: ``delta_e`` is the largest such distance.
5. ``damaged``: none of the above; ``share`` says how much of ``F`` is right.

Elements of the input that the answer no longer shows (removed, or covered) are tagged on
the edit pixels of their input footprint: ``correct`` (removed as asked, same share as 1),
``not_removed`` (the output keeps the input there on at least :data:`MISSING_SHARE`), else
``damaged``.
"""

from __future__ import annotations

import numpy as np

from paintkit.kernels.color.delta_e_numba import (
    SERIAL_PIXELS,
    count_within_delta_e_rgb,
    delta_e_rgb_numba,
    within_colour_lab,
    within_delta_e_rgb,
)
from paintkit.kernels.color.lab_canonical import canonical_lab
from paintkit.kernels.components import connected_components

__all__ = ["CORRECT_SHARE", "MISPLACED_SHARE", "MISSING_SHARE", "UNIFORM_SHARE", "ObjectTagger"]

CORRECT_SHARE = 0.95
MISPLACED_SHARE = 0.8
MISSING_SHARE = 0.9
UNIFORM_SHARE = 0.9
_CANDIDATES = 4  # same-colour components tried per misplaced search
_CLIMB_STEPS = 12  # 1 px refinement steps of a misplaced offset


def _pack(rgb: np.ndarray) -> np.ndarray:
    rgb = rgb.astype(np.int64)
    return (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def _take(image: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Pixels of ``image`` (``(H, W)`` or ``(H, W, C)``) at raster indices ``flat``: one
    ``take`` (several times faster than boolean or paired-index gathers on a window)."""
    rows = image.reshape(image.shape[0] * image.shape[1], -1)
    picked = rows.take(flat, axis=0)
    return picked if image.ndim == 3 else picked[:, 0]


def _distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(codes, return_counts=True)`` of a non-empty array, without the sort when
    it holds one value (most elements and their outputs are one flat colour)."""
    if (codes == codes[0]).all():
        return codes[:1].copy(), np.array([codes.size], np.int64)
    return np.unique(codes, return_counts=True)


def _unpack(code: int) -> np.ndarray:
    return np.array([(code >> 16) & 255, (code >> 8) & 255, code & 255], np.uint8)


def _hex(rgb) -> str:
    return "#{:02X}{:02X}{:02X}".format(*(int(v) for v in rgb))


class ObjectTagger:
    """Tags the elements of one problem (module docstring).

    Args:
        output, answer, inputs: uint8 ``(H, W, 3)`` (the output normalised to the answer).
        correct: bool ``(H, W)``, ``ΔE(O, A) <= tolerance``.
        edit_mask: bool ``(H, W)``.
        tolerance: ``t``. delta_e: the ΔE formula.
    """

    def __init__(self, output, answer, inputs, correct, edit_mask, tolerance: int,
                 delta_e: str):
        self.o, self.a, self.i = output, answer, inputs
        self.correct, self.edit = correct, edit_mask
        self.t, self.delta_e = tolerance, delta_e
        self._colour_masks: dict = {}
        self._wrong_at = None
        self._wrong_colours = None
        self._wrong_lab = None
        self._wrong_counts: dict = {}

    @property
    def wrong_at(self) -> np.ndarray:
        """Flat (raster-order) indices of the wrong pixels, int64 ``(N,)``: listed once (the
        error segments use them too), as most pixels of a fair output are right."""
        if self._wrong_at is None:
            self._wrong_at = np.flatnonzero(~self.correct)
        return self._wrong_at

    def _wrong(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`wrong_at` and the output's colours there, uint8 ``(N, 3)``."""
        if self._wrong_colours is None:
            self._wrong_colours = _take(self.o, self.wrong_at)
        return self.wrong_at, self._wrong_colours

    def wrong_pixels(self, fp) -> np.ndarray:
        """Wrong pixels per element of footprints ``fp``: int64 ``(len(fp.ids) + 1,)``,
        indexed like ``fp.area`` (one count over the wrong pixels for every element)."""
        counts = self._wrong_counts.get(id(fp))
        if counts is None:
            counts = np.bincount(np.ravel(fp.index).take(self.wrong_at),
                                 minlength=len(fp.ids) + 1)
            self._wrong_counts[id(fp)] = counts
        return counts

    def _matches(self, reference: np.ndarray, sample: np.ndarray) -> np.ndarray:
        """``ΔE(reference, sample) <= t`` for two ``(N, 3)`` uint8 arrays (or a colour
        ``(3,)`` and ``(N, 3)``). Equal colours (most pixels of a shifted copy on
        flat-colour scenes) cost no arithmetic."""

        return within_delta_e_rgb(reference, sample, self.t, self.delta_e)

    def _count_matches(self, reference: np.ndarray, sample: np.ndarray,
                       mask: np.ndarray) -> int:
        """How many of the ``mask`` pixels (bool ``(N,)``) of two ``(N, 3)`` uint8 arrays
        have ``ΔE(reference, sample) <= t``, without gathering them."""

        return count_within_delta_e_rgb(reference[None], sample[None], mask[None],
                                              self.t, self.delta_e)

    def _distance(self, c1: np.ndarray, c2: np.ndarray) -> float:
        return float(delta_e_rgb_numba(c1[None], c2[None], self.delta_e)[0])

    # ------------------------------------------------------------------ present elements
    def tag_present(self, k: int, fp, underlay=None, input_fp=None) -> dict:
        """Tag element index ``k`` of footprints ``fp`` (the answer's). ``underlay(id, window)``
        returns the answer scene rendered without the element in the element's box window
        (None: skip the missing test); ``input_fp`` the input footprints (for ``left_in_place``)."""
        element_id = fp.ids[k]
        area = int(fp.area[k + 1])
        top, left, bottom, right = (int(v) for v in fp.boxes[k + 1])
        # the share right is (area - wrong) / area, the mean of the footprint's "right" flags
        share = float((area - int(self.wrong_pixels(fp)[k + 1])) / area)
        entry = {"id": element_id, "expected": "present", "area": area,
                 "bbox": [left, top, right - left + 1, bottom - top + 1],
                 "share": round(share, 4)}
        if share >= CORRECT_SHARE:
            return {**entry, "tag": "correct"}
        # The footprint's pixels, in raster order: coordinates, answer and output colours,
        # and the answer's colours packed and counted (shared by the tests below).
        win = fp.window(k)
        m = fp.index[win] == k + 1
        ys, xs = np.nonzero(m)
        ys, xs = ys + win[0].start, xs + win[1].start
        flat = ys * self.a.shape[1] + xs
        expected, out = _take(self.a, flat), _take(self.o, flat)
        packed = _pack(expected)
        codes, counts = _distinct(packed)
        found = self._find_offset(ys, xs, packed, int(codes[np.argmax(counts)]))
        if found is not None:
            (dx, dy), moved_share = found
            entry.update(tag="misplaced", offset=[dx, dy], offset_share=round(moved_share, 4))
            if input_fp is not None and element_id in input_fp.ids:
                entry["left_in_place"] = self._left_in_place(input_fp, element_id)
            return entry
        if underlay is not None:  # drawn in the element's box: index it there
            under = _take(underlay(element_id, win),
                          (ys - win[0].start) * (win[1].stop - win[1].start) + xs - win[1].start)
            visible = _pack(under) != packed
            shown = int(visible.sum())
            if shown:
                gone = self._count_matches(under, out, visible) / shown
                if gone >= MISSING_SHARE:
                    return {**entry, "tag": "missing", "missing_share": round(gone, 4)}
        recolour = self._recolour(out, packed, codes)
        if recolour is not None:
            return {**entry, "tag": "wrong_colour", **recolour}
        return {**entry, "tag": "damaged"}

    def _left_in_place(self, input_fp, element_id) -> bool:
        """Whether the output still shows the element where the input has it."""
        k = input_fp.ids.index(element_id)
        win = input_fp.window(k)
        iy, ix = np.nonzero(input_fp.index[win] == k + 1)
        if iy.size == 0:
            return False
        iy, ix = iy + win[0].start, ix + win[1].start
        flat = iy * self.i.shape[1] + ix
        return bool(self._matches(_take(self.i, flat), _take(self.o, flat)).mean()
                    >= MISSING_SHARE)

    def _near(self, code: int) -> np.ndarray:
        """Raster indices of the wrong pixels within ``t`` of colour ``code``. Many wrong
        pixels (an output that differs everywhere) get their Lab converted once, for every
        colour tested against them."""

        at, colours = self._wrong()
        if at.size < SERIAL_PIXELS:
            return at[self._matches(_unpack(code), colours)]
        if self._wrong_lab is None:
            self._wrong_lab = canonical_lab(colours)
        return at[within_colour_lab(_unpack(code), colours, self._wrong_lab, self.t,
                                    self.delta_e)]

    def _colour_components(self, code: int):
        """The components of the wrong output pixels within ``t`` of colour ``code``
        (cached per colour): ``(labels, sizes, pixels)``, the component numbers and sizes
        (ascending numbers) and ``pixels(n)``, the ``(ys, xs)`` of component ``labels[n]``
        in raster order; None when there are none. Only wrong pixels are converted: a
        shifted copy is wrong wherever it does not overlap its right place, and the offset
        is refined after."""

        if code in self._colour_masks:
            return self._colour_masks[code]
        near_at = self._near(code)
        hit = None
        if near_at.size:  # labelled in their box: raster order, so the image's own numbering
            ys, xs = np.divmod(near_at, self.o.shape[1])
            y0, x0 = int(ys[0]), int(xs.min())
            near = np.zeros((int(ys[-1]) - y0 + 1, int(xs.max()) - x0 + 1), bool)
            near[ys - y0, xs - x0] = True
            labels, _ = connected_components(near)
            of_pixel = labels[ys - y0, xs - x0]  # the near pixels' components, raster order
            order = np.argsort(of_pixel, kind="stable")  # grouped, raster order within
            numbers, starts, sizes = np.unique(of_pixel[order], return_index=True,
                                               return_counts=True)

            def pixels(n, ys=ys, xs=xs, order=order, starts=starts, sizes=sizes):
                picked = order[starts[n]:starts[n] + sizes[n]]
                return ys[picked], xs[picked]

            hit = numbers, sizes, pixels
        self._colour_masks[code] = hit
        return hit

    def _shift_share(self, element, dx, dy) -> float:
        """Share of the element's pixels (those whose shifted place is inside the image; 0
        when under half are) matched by the output shifted by ``(dx, dy)``. Window slices,
        not gathers: the climb evaluates many shifts of one element."""

        y0, x0, mask, a_win, n = element
        h, w = self.o.shape[:2]
        wh, ww = mask.shape
        # the part of the element's window whose shifted place lies inside the image
        top, left = max(0, -(y0 + dy)), max(0, -(x0 + dx))
        bottom, right = min(wh, h - (y0 + dy)), min(ww, w - (x0 + dx))
        if bottom <= top or right <= left:
            return 0.0
        m = mask[top:bottom, left:right]
        inside = int(m.sum())
        if inside * 2 < n:
            return 0.0
        a = a_win[top:bottom, left:right]
        o = self.o[y0 + dy + top:y0 + dy + bottom, x0 + dx + left:x0 + dx + right]
        return count_within_delta_e_rgb(a, o, m, self.t, self.delta_e) / inside

    def _climb(self, element, dx, dy):
        """Hill-climb the shift share from ``(dx, dy)`` over 1 px steps (the centroid guess
        is off by a few px when occlusion or a sub-pixel move reshapes the copy)."""
        seen: dict = {}  # neighbourhoods of successive steps overlap: each shift once

        def share_at(sx, sy):
            if (sx, sy) not in seen:
                seen[sx, sy] = self._shift_share(element, sx, sy)
            return seen[sx, sy]

        best = ((dx, dy), share_at(dx, dy) if (dx, dy) != (0, 0) else 0.0)
        for _ in range(_CLIMB_STEPS):
            (bx, by), share = best
            if share >= 1.0:  # no neighbour can beat a perfect copy
                break
            step = max((((bx + sx, by + sy), share_at(bx + sx, by + sy))
                        for sx in (-1, 0, 1) for sy in (-1, 0, 1)
                        if (sx, sy) != (0, 0) and (bx + sx, by + sy) != (0, 0)),
                       key=lambda item: item[1])
            if step[1] <= share:
                break
            best = step
        return best

    def _find_offset(self, ys, xs, packed, main):
        """``((dx, dy), share)`` of the best shifted copy of the element (pixels ``ys``,
        ``xs``, answer colours ``packed``, the most frequent ``main``), or None."""
        in_main = packed == main
        my, mx = ys[in_main], xs[in_main]
        components = self._colour_components(main)
        if components is None:
            return None
        _, sizes, pixels = components
        ranked = np.argsort(-sizes)[:_CANDIDATES]
        y0, x0 = int(ys.min()), int(xs.min())
        mask = np.zeros((int(ys.max()) - y0 + 1, int(xs.max()) - x0 + 1), bool)
        mask[ys - y0, xs - x0] = True
        element = (y0, x0, mask, self.a[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]], ys.size)
        best = None
        for n in ranked.tolist():
            if not 0.3 * my.size <= sizes[n] <= 3 * my.size:
                continue
            cy, cx = pixels(n)
            found = self._climb(element, int(round(cx.mean() - mx.mean())),
                                int(round(cy.mean() - my.mean())))
            if found is not None and (best is None or found[1] > best[1]):
                best = found
        return best if best is not None and best[1] >= MISPLACED_SHARE else None

    def _recolour(self, out, packed, codes):
        """``{"delta_e", "expected_colors", "output_colors"}`` when the element is there in
        other colours (module docstring, rule 4), else None. ``out``: the output's colours
        on the element, ``packed`` the answer's, ``codes`` the distinct ones, sorted."""
        packed_out = _pack(out)
        worst = 0.0
        expected_hex, output_hex = [], []
        for code in codes.tolist():
            same = packed == code if codes.size > 1 else slice(None)
            g_codes, g_counts = _distinct(packed_out[same])
            mode = _unpack(int(g_codes[np.argmax(g_counts)]))
            if self._matches(mode, out[same]).mean() < UNIFORM_SHARE:
                return None
            worst = max(worst, self._distance(_unpack(code), mode))
            expected_hex.append(_hex(_unpack(code)))
            output_hex.append(_hex(mode))
        if worst <= self.t:
            return None
        return {"delta_e": round(worst, 3), "expected_colors": expected_hex,
                "output_colors": output_hex}

    # ------------------------------------------------------------------ vanished elements
    def tag_removed(self, k: int, input_fp) -> dict | None:
        """Tag input element index ``k`` that the answer does not show; None when its input
        footprint has no edit pixel (nothing to see)."""
        win = input_fp.window(k)
        m = (input_fp.index[win] == k + 1) & self.edit[win]
        ys, xs = np.nonzero(m)
        if ys.size == 0:
            return None
        ys, xs = ys + win[0].start, xs + win[1].start
        flat = ys * self.i.shape[1] + xs
        share = float(_take(self.correct, flat).mean())
        entry = {"id": input_fp.ids[k], "expected": "removed", "area": int(ys.size),
                 "share": round(share, 4)}
        if share >= CORRECT_SHARE:
            return {**entry, "tag": "correct"}
        kept = float(self._matches(_take(self.i, flat), _take(self.o, flat)).mean())
        if kept >= MISSING_SHARE:
            return {**entry, "tag": "not_removed", "kept_share": round(kept, 4)}
        return {**entry, "tag": "damaged"}

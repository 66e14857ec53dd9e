"""A checked SVG -> the canvas size and the filled outlines it paints, in painting order.

svgelements parses the document (transforms, ``viewBox``, ``style`` and presentation
attributes, colours, basic shapes as paths); this module turns what it found into polygons
in pixel coordinates, which :mod:`paintkit.svg.render` fills under the benchmark's pixel
rules:

- straight segments keep their end points exactly (float64 as written, so the outlines that
  ``--svg`` writes come back to the bit);
- Bézier curves and arcs are flattened to chords within :data:`FLATNESS` px of the curve;
- a stroke becomes its outline, made by Skia's stroker with the element's width, joins, caps
  and miter limit, flattened the same way, and is filled after the element's fill.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import numpy as np

from paintkit.svg.limits import SvgError

__all__ = ["FLATNESS", "MAX_CANVAS_PIXELS", "MAX_POINTS", "Fill", "svg_fills"]

FLATNESS = 1 / 256  # px: the distance a chord may stray from its curve
MAX_POINTS = 4_000_000  # flattened vertices in one document
MAX_CANVAS_PIXELS = 1 << 26  # 8192 x 8192
_MAX_PIECES = 4096  # chords per curve


@dataclass(frozen=True)
class Fill:
    """One filled outline: closed float64 contours ``(N, 2)`` in pixels, an opaque colour."""

    contours: tuple[np.ndarray, ...]
    color: tuple[int, int, int]
    evenodd: bool


class _Budget:
    def __init__(self) -> None:
        self.points = 0

    def take(self, n: int) -> None:
        self.points += n
        if self.points > MAX_POINTS:
            raise SvgError(f"the SVG's outlines need more than {MAX_POINTS:,} points")


def _pieces(length_bound: float) -> int:
    return min(_MAX_PIECES, max(1, math.ceil(math.sqrt(length_bound / (8 * FLATNESS)))))


def _cubic(p0: complex, p1: complex, p2: complex, p3: complex,
           budget: _Budget | None = None) -> list[complex]:
    # uniform steps: chord error <= (3/4) max|second difference| / n^2 ... within FLATNESS
    dd = max(abs(p0 - 2 * p1 + p2), abs(p1 - 2 * p2 + p3)) * 6
    n = _pieces(dd)
    if budget is not None:
        budget.take(n)  # before the work, so a hostile curve costs nothing
    out = []
    for k in range(1, n + 1):
        t = k / n
        s = 1 - t
        out.append(s * s * s * p0 + 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t * p3)
    return out


def _quad(p0: complex, p1: complex, p2: complex,
          budget: _Budget | None = None) -> list[complex]:
    return _conic(p0, p1, p2, 1.0, budget)  # a quadratic is the conic of weight 1


def _conic(p0: complex, p1: complex, p2: complex, w: float,
           budget: _Budget | None = None) -> list[complex]:
    n = _pieces(abs(p0 - 2 * p1 + p2) * 2 * max(1.0, w))
    if budget is not None:
        budget.take(n)
    out = []
    for k in range(1, n + 1):
        t = k / n
        s = 1 - t
        den = s * s + 2 * w * s * t + t * t
        out.append((s * s * p0 + 2 * w * s * t * p1 + t * t * p2) / den)
    return out


def _contours_of_path(path, budget: _Budget) -> list[tuple[np.ndarray, bool]]:  # noqa: ANN001
    """svgelements ``Path`` (transform applied) -> ``[(points (N, 2), closed)]``."""
    import svgelements as se

    contours: list[tuple[np.ndarray, bool]] = []
    points: list[tuple[float, float]] = []

    def flush(closed: bool) -> None:
        if len(points) >= 2:
            contours.append((np.array(points, np.float64), closed))
        points.clear()

    for seg in path.segments(transformed=True):
        if isinstance(seg, se.Move):
            flush(False)
            points.append((float(seg.end.x), float(seg.end.y)))
        elif isinstance(seg, se.Close):
            flush(True)
        elif isinstance(seg, se.Line):
            if not points:
                points.append((float(seg.start.x), float(seg.start.y)))
            points.append((float(seg.end.x), float(seg.end.y)))
            budget.take(1)
        elif isinstance(seg, (se.CubicBezier, se.QuadraticBezier, se.Arc)):
            if not points:
                points.append((float(seg.start.x), float(seg.start.y)))
            curves = seg.as_cubic_curves() if isinstance(seg, se.Arc) else [seg]
            for c in curves:
                if isinstance(c, se.QuadraticBezier):
                    chords = _quad(*(complex(p.x, p.y) for p in (c.start, c.control, c.end)),
                                   budget=budget)
                else:
                    chords = _cubic(*(complex(p.x, p.y) for p in
                                      (c.start, c.control1, c.control2, c.end)), budget=budget)
                points.extend((z.real, z.imag) for z in chords)
        else:
            raise SvgError(f"a path segment of type {type(seg).__name__} is outside the "
                           "supported SVG subset")
    flush(False)
    return contours


def _stroke_contours(contours: list[tuple[np.ndarray, bool]], element, width: float,
                     budget: _Budget) -> list[np.ndarray]:  # noqa: ANN001
    """The stroke outline of polylines by Skia's stroker, flattened to closed contours."""
    import skia

    src = skia.Path()
    for pts, closed in contours:
        src.moveTo(*pts[0].tolist())
        for x, y in pts[1:].tolist():
            src.lineTo(x, y)
        if closed:
            src.close()
    values = element.values
    caps = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap,
            "square": skia.Paint.kSquare_Cap}
    joins = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
             "bevel": skia.Paint.kBevel_Join}
    cap = str(values.get("stroke-linecap", "butt")).strip()
    join = str(values.get("stroke-linejoin", "miter")).strip()
    if cap not in caps or join not in joins:
        raise SvgError(f"stroke-linecap={cap!r} / stroke-linejoin={join!r} is outside the "
                       "supported SVG subset")
    if values.get("stroke-dasharray", "none") not in ("none", None):
        raise SvgError("stroke-dasharray is outside the supported SVG subset")
    try:
        miter = float(values.get("stroke-miterlimit", 4.0))
    except (TypeError, ValueError):
        raise SvgError("stroke-miterlimit is not a number") from None
    paint = skia.Paint(Style=skia.Paint.kStroke_Style, StrokeWidth=width, StrokeCap=caps[cap],
                       StrokeJoin=joins[join], StrokeMiter=max(1.0, miter))
    dst = skia.Path()
    paint.getFillPath(src, dst)
    out: list[np.ndarray] = []
    current: list[complex] = []

    def flush() -> None:
        if len(current) >= 2:
            out.append(np.array([(z.real, z.imag) for z in current], np.float64))
        current.clear()

    it = skia.Path.Iter(dst, True)
    verb_enum = skia.Path.Verb
    while True:
        verb, pts = it.next()
        if verb == verb_enum.kDone_Verb:
            break
        z = [complex(p.x(), p.y()) for p in pts]
        if verb == verb_enum.kMove_Verb:
            flush()
            current.append(z[0])
        elif verb == verb_enum.kLine_Verb:
            current.append(z[1])
            budget.take(1)
        elif verb == verb_enum.kQuad_Verb:
            current.extend(_quad(*z, budget=budget))
        elif verb == verb_enum.kConic_Verb:
            current.extend(_conic(z[0], z[1], z[2], float(it.conicWeight()), budget=budget))
        elif verb == verb_enum.kCubic_Verb:
            current.extend(_cubic(*z, budget=budget))
        elif verb == verb_enum.kClose_Verb:
            flush()
    flush()
    return out


def _color(value) -> tuple[int, int, int] | None:  # noqa: ANN001
    if value is None or getattr(value, "value", None) is None:
        return None
    if value.alpha == 0:
        return None
    return int(value.red), int(value.green), int(value.blue)


def _opaque(element, name: str) -> bool:  # noqa: ANN001
    """Whether an opacity (already checked to be 0 or 1) leaves the paint visible."""
    raw = element.values.get(name)
    if raw is None:
        return True
    text = str(raw).strip()
    value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    return value != 0.0


def _size(svg, width: int | None, height: int | None,  # noqa: ANN001
          max_pixels: int = MAX_CANVAS_PIXELS) -> tuple[int, int]:
    w, h = svg.width, svg.height
    if not (isinstance(w, (int, float)) and isinstance(h, (int, float))):
        raise SvgError("the <svg> needs a width and a height in pixels (or a viewBox)")
    if not (math.isfinite(w) and math.isfinite(h)) or w < 1 or h < 1:
        raise SvgError(f"the SVG's size {w} x {h} is not a positive size in pixels")
    if w != int(w) or h != int(h):
        raise SvgError(f"the SVG's size {w} x {h} is not a whole number of pixels")
    w, h = int(w), int(h)
    if w * h > min(max_pixels, MAX_CANVAS_PIXELS):
        raise SvgError(f"the SVG's size {w} x {h} is above the limit of "
                       f"{min(max_pixels, MAX_CANVAS_PIXELS):,} pixels; refused before drawing")
    if width is not None and height is not None and (w, h) != (width, height):
        raise SvgError(f"the SVG is {w} x {h}, the problem's canvas {width} x {height}")
    return w, h


def svg_fills(data: bytes, *, width: int | None = None, height: int | None = None,
              max_pixels: int = MAX_CANVAS_PIXELS) -> tuple[tuple[int, int], list[Fill]]:
    """Checked SVG bytes -> ``((width, height), fills in painting order)``.

    Args:
        data: the document, already passed through :func:`paintkit.svg.limits.check_svg`.
        width, height: the canvas the SVG must have (the problem's), or None for any.
        max_pixels: a lower canvas limit than :data:`MAX_CANVAS_PIXELS` (a service's).

    Raises:
        SvgError: one line, what is outside the subset or the limits.
    """
    import svgelements as se

    try:
        svg = se.SVG.parse(io.BytesIO(data), reify=True)
    except SvgError:
        raise
    except Exception as err:  # noqa: BLE001 - the parser's own errors, as one line
        raise SvgError(f"the SVG could not be parsed: {type(err).__name__}: "
                       f"{str(err).splitlines()[0][:200] if str(err) else ''}") from None
    size = _size(svg, width, height, max_pixels)
    budget = _Budget()
    fills: list[Fill] = []
    for element in svg.elements():
        if not isinstance(element, se.Shape) or not _opaque(element, "opacity"):
            continue
        if str(element.values.get("visibility", "visible")).strip() in ("hidden", "collapse"):
            continue
        contours = _contours_of_path(se.Path(element), budget)
        fill = _color(element.fill) if _opaque(element, "fill-opacity") else None
        if fill is not None and contours and not isinstance(element, se.SimpleLine):
            rule = str(element.values.get("fill-rule", "nonzero")).strip()
            if rule not in ("nonzero", "evenodd"):
                raise SvgError(f"fill-rule={rule!r} is not nonzero or evenodd")
            fills.append(Fill(tuple(c for c, _ in contours), fill, rule == "evenodd"))
        stroke = _color(element.stroke) if _opaque(element, "stroke-opacity") else None
        stroke_width = float(getattr(element, "implicit_stroke_width", None)
                             or element.stroke_width or 0.0)
        if stroke is not None and contours and stroke_width > 0:
            if not math.isfinite(stroke_width):
                raise SvgError("a stroke-width is not finite")
            outline = _stroke_contours(contours, element, stroke_width, budget)
            if outline:
                fills.append(Fill(tuple(outline), stroke, False))
    return size, fills

"""2-D affine maps in canvas pixels (x right, y down).

A map is a tuple ``(a, b, c, d, e, f)``: ``x' = a*x + b*y + c``, ``y' = d*x + e*y + f``.
Shapes carry one as their extra ``transform``; tasks build them in
:mod:`paintkit.edits.geometric`.
"""

from __future__ import annotations

Point = tuple[float, float]
Affine = tuple[float, float, float, float, float, float]
IDENTITY: Affine = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


def compose(outer: Affine, inner: Affine) -> Affine:
    """Return the affine map ``outer ∘ inner`` (apply ``inner`` first)."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + b1 * d2, a1 * b2 + b1 * e2, a1 * c2 + b1 * f2 + c1,
        d1 * a2 + e1 * d2, d1 * b2 + e1 * e2, d1 * c2 + e1 * f2 + f1,
    )


def apply_affine(m: Affine, point: Point) -> Point:
    """Map one ``(x, y)`` point through ``m``."""
    a, b, c, d, e, f = m
    x, y = point
    return (a * x + b * y + c, d * x + e * y + f)

"""The scene model: plain, serialisable data describing what is drawn on a canvas.

A :class:`Scene` is a canvas, a background and an ordered tuple of elements, drawn in order
(later elements on top). Every element carries an ``id`` so tasks can address, transform,
replace or remove one element at a time, and so later stages can attribute pixels to it.

Coordinates are canvas pixels as floats, x to the right, y down, with pixel ``(i, j)``
covering ``[j, j+1) x [i, i+1)`` and its center at ``(j + 0.5, i + 0.5)``. Angles are degrees,
positive clockwise on screen (the y axis points down). Colors are ``(r, g, b)`` tuples of
ints in 0..255.

``Scene.from_json(scene.to_json()) == scene`` holds exactly: floats are written with
``repr`` precision and tuples are restored on load.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from paintkit.affine import IDENTITY, Affine, Point, apply_affine, compose  # noqa: F401 (re-exported)
from paintkit.io.jsonl import parse_json

RGB = tuple[int, int, int]

SHAPE_TYPES: tuple[str, ...] = (
    "circle", "rectangle", "cloud", "hexagon", "triangle", "ring",
    "arrow", "heart", "star", "semicircle", "cross", "diamond",
)
WAVEFORMS: tuple[str, ...] = ("line", "sine", "square", "triangle", "sawtooth")
STRIPE_ORIENTATIONS: tuple[int, ...] = (0, 45, 90)


def check_color(value: Any, what: str = "color") -> RGB:
    """Return ``value`` as an ``(r, g, b)`` tuple of ints, or raise ``ValueError``.

    Accepts any length-3 sequence of integers in 0..255 (bools and floats are refused).
    """
    try:
        items = tuple(value)
    except TypeError:
        raise ValueError(f"{what} must be an (r, g, b) triple of ints in 0..255, got {value!r}") from None
    if len(items) != 3 or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in items
    ):
        raise ValueError(f"{what} must be an (r, g, b) triple of ints in 0..255, got {value!r}")
    return (int(items[0]), int(items[1]), int(items[2]))


def _check_finite(what: str, *values: float) -> None:
    for v in values:
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
            raise ValueError(f"{what} must be finite numbers, got {values!r}")


@dataclass(frozen=True)
class Canvas:
    """Canvas size in pixels (both positive ints)."""

    width: int
    height: int

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"canvas {name} must be a positive int, got {v!r}")

    @property
    def shorter_side(self) -> int:
        return min(self.width, self.height)


@dataclass(frozen=True)
class Stripes:
    """Second color of a striped background and the geometry of its bands
    (docs/generator-rules.md#striped-background).

    ``orientation`` is the band direction in degrees (0 horizontal bands, 90 vertical, 45
    diagonal); ``band_width``, ``amplitude`` in pixels; ``frequency`` in boundary cycles per
    canvas width; ``phase`` in cycles. ``waveform`` is one of :data:`WAVEFORMS`.
    """

    color: RGB
    orientation: int
    band_width: float
    waveform: str = "line"
    amplitude: float = 0.0
    frequency: float = 0.0
    phase: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", check_color(self.color, "stripe color"))
        if self.orientation not in STRIPE_ORIENTATIONS:
            raise ValueError(
                f"stripe orientation must be one of {STRIPE_ORIENTATIONS}, got {self.orientation!r}"
            )
        if self.waveform not in WAVEFORMS:
            raise ValueError(f"stripe waveform must be one of {WAVEFORMS}, got {self.waveform!r}")
        _check_finite("stripe band_width/amplitude/frequency/phase",
                      self.band_width, self.amplitude, self.frequency, self.phase)
        if self.band_width <= 0:
            raise ValueError(f"stripe band_width must be > 0 px, got {self.band_width!r}")


@dataclass(frozen=True)
class Background:
    """A solid ``color``, optionally with ``stripes`` of a second color over it."""

    color: RGB
    stripes: Stripes | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", check_color(self.color, "background color"))

    @property
    def colors(self) -> tuple[RGB, ...]:
        return (self.color,) if self.stripes is None else (self.color, self.stripes.color)


@dataclass(frozen=True)
class BBox:
    """Axis-aligned box: top-left ``(x, y)`` and size, in canvas pixels."""

    x: float
    y: float
    width: float
    height: float

    def __post_init__(self) -> None:
        _check_finite("bbox x/y/width/height", self.x, self.y, self.width, self.height)
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"bbox width and height must be > 0, got {self.width!r}x{self.height!r}")

    @property
    def center(self) -> Point:
        return (self.x + self.width / 2, self.y + self.height / 2)

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def gap_to(self, other: BBox) -> float:
        """Euclidean distance between the two boxes (0 when they touch or overlap)."""
        dx = max(other.x - self.right, self.x - other.right, 0.0)
        dy = max(other.y - self.bottom, self.y - other.bottom, 0.0)
        return math.hypot(dx, dy)


@dataclass(frozen=True)
class Stroke:
    """An outline: ``color`` and ``width`` in pixels (centered on the geometry)."""

    color: RGB
    width: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "color", check_color(self.color, "stroke color"))
        _check_finite("stroke width", self.width)
        if self.width <= 0:
            raise ValueError(f"stroke width must be > 0 px, got {self.width!r}")


@dataclass(frozen=True)
class Shape:
    """One of the 12 PaintBench shapes.

    The shape's canonical outline is scaled into ``bbox``, rotated by ``rotation`` degrees
    (clockwise) about the bbox center, then mapped through ``transform`` (canvas
    coordinates; identity unless a task reflected, sheared or otherwise warped it).
    """

    id: str
    type: str
    bbox: BBox
    fill: RGB | None
    rotation: float = 0.0
    stroke: Stroke | None = None
    transform: Affine = IDENTITY

    def __post_init__(self) -> None:
        if self.type not in SHAPE_TYPES:
            raise ValueError(f"unknown shape type {self.type!r}; allowed: {', '.join(SHAPE_TYPES)}")
        if self.fill is None and self.stroke is None:
            raise ValueError(f"shape {self.id!r} needs a fill, a stroke or both")
        if self.fill is not None:
            object.__setattr__(self, "fill", check_color(self.fill, "shape fill"))
        _check_finite("shape rotation", self.rotation)
        object.__setattr__(self, "transform", tuple(float(v) for v in self.transform))
        if len(self.transform) != 6:
            raise ValueError(f"transform must have 6 numbers (a, b, c, d, e, f), got {self.transform!r}")
        _check_finite("shape transform", *self.transform)

    @property
    def placement(self) -> Affine:
        """Affine map from the unit box ``[0, 1]^2`` to canvas pixels."""
        bx = self.bbox
        cx, cy = bx.center
        t = math.radians(self.rotation)
        cos, sin = math.cos(t), math.sin(t)
        # unit box -> bbox, centered; then rotate about the center; then move to the center.
        scale_center: Affine = (bx.width, 0.0, -bx.width / 2, 0.0, bx.height, -bx.height / 2)
        rotate: Affine = (cos, -sin, cx, sin, cos, cy)
        return compose(self.transform, compose(rotate, scale_center))

    @property
    def colors(self) -> tuple[RGB, ...]:
        out = [] if self.fill is None else [self.fill]
        if self.stroke is not None:
            out.append(self.stroke.color)
        return tuple(out)


@dataclass(frozen=True)
class Polygon:
    """A closed polygon (or open polyline when ``closed`` is False) through ``points``.

    Used for outlined regions, tally marks, legend keys and constructed polygons.
    """

    id: str
    points: tuple[Point, ...]
    fill: RGB | None = None
    stroke: Stroke | None = None
    closed: bool = True

    def __post_init__(self) -> None:
        pts = tuple((float(x), float(y)) for x, y in self.points)
        if len(pts) < 2:
            raise ValueError(f"polygon {self.id!r} needs at least 2 points, got {len(pts)}")
        for p in pts:
            _check_finite("polygon points", *p)
        object.__setattr__(self, "points", pts)
        if self.fill is None and self.stroke is None:
            raise ValueError(f"polygon {self.id!r} needs a fill, a stroke or both")
        if self.fill is not None:
            object.__setattr__(self, "fill", check_color(self.fill, "polygon fill"))

    @property
    def colors(self) -> tuple[RGB, ...]:
        out = [] if self.fill is None else [self.fill]
        if self.stroke is not None:
            out.append(self.stroke.color)
        return tuple(out)


@dataclass(frozen=True)
class Line:
    """A straight segment from ``start`` to ``end`` painted with a round brush of
    diameter ``width`` px: every point within ``width / 2`` of the segment."""

    id: str
    start: Point
    end: Point
    color: RGB
    width: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", (float(self.start[0]), float(self.start[1])))
        object.__setattr__(self, "end", (float(self.end[0]), float(self.end[1])))
        _check_finite("line start/end/width", *self.start, *self.end, self.width)
        object.__setattr__(self, "color", check_color(self.color, "line color"))
        if self.width <= 0:
            raise ValueError(f"line width must be > 0 px, got {self.width!r}")

    @property
    def colors(self) -> tuple[RGB, ...]:
        return (self.color,)


Element = Shape | Polygon | Line
_KINDS: dict[str, type] = {"shape": Shape, "polygon": Polygon, "line": Line}
_KIND_OF = {cls: kind for kind, cls in _KINDS.items()}


@dataclass(frozen=True)
class Scene:
    """A canvas, its background and elements drawn in order (later ones on top)."""

    canvas: Canvas
    background: Background
    elements: tuple[Element, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "elements", tuple(self.elements))
        ids = [e.id for e in self.elements]
        if len(set(ids)) != len(ids):
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"element ids must be unique, repeated: {dup}")

    # -- element access -------------------------------------------------------------
    @property
    def shapes(self) -> tuple[Shape, ...]:
        return tuple(e for e in self.elements if isinstance(e, Shape))

    def element(self, element_id: str) -> Element:
        for e in self.elements:
            if e.id == element_id:
                return e
        raise KeyError(f"no element with id {element_id!r}; ids: {[e.id for e in self.elements]}")

    def index(self, element_id: str) -> int:
        return self.elements.index(self.element(element_id))

    def replace_element(self, element_id: str, new: Element) -> Scene:
        """Return a scene with ``element_id`` replaced by ``new`` at the same depth."""
        i = self.index(element_id)
        return replace(self, elements=self.elements[:i] + (new,) + self.elements[i + 1:])

    def without(self, *element_ids: str) -> Scene:
        for i in element_ids:
            self.element(i)
        return replace(self, elements=tuple(e for e in self.elements if e.id not in element_ids))

    def with_elements(self, *new: Element, on_top: bool = True) -> Scene:
        """Return a scene with ``new`` drawn above (or below) every current element."""
        elems = self.elements + tuple(new) if on_top else tuple(new) + self.elements
        return replace(self, elements=elems)

    @property
    def colors(self) -> tuple[RGB, ...]:
        """Every color the scene can paint, background first, without repeats."""
        seen: dict[RGB, None] = dict.fromkeys(self.background.colors)
        for e in self.elements:
            seen.update(dict.fromkeys(e.colors))
        return tuple(seen)

    # -- serialisation --------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return _to_plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scene:
        try:
            return cls(
                canvas=Canvas(**data["canvas"]),
                background=_background_from(data["background"]),
                elements=tuple(_element_from(e) for e in data.get("elements", ())),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a valid scene description: {exc}") from exc

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Scene:
        return cls.from_dict(parse_json(text))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # dataclass -> its field names, in order


def _to_plain(obj: Any) -> Any:
    """Dataclasses as dicts (elements led by their ``kind``), tuples as lists, the rest as
    is; leaves first and field names looked up once per class (hundreds of numbers)."""
    cls = type(obj)
    if cls in (int, float, str, bool, type(None)):
        return obj
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if not hasattr(obj, "__dataclass_fields__"):
            return [_to_plain(v) for v in obj] if isinstance(obj, tuple) else obj
        names = _FIELD_NAMES.setdefault(cls, tuple(f.name for f in fields(obj)))
    out = {name: _to_plain(getattr(obj, name)) for name in names}
    kind = _KIND_OF.get(cls)
    return out if kind is None else {"kind": kind, **out}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _background_from(data: dict[str, Any]) -> Background:
    stripes = data.get("stripes")
    return Background(
        color=tuple(data["color"]),
        stripes=None if stripes is None else Stripes(**{**stripes, "color": tuple(stripes["color"])}),
    )


def _element_from(data: dict[str, Any]) -> Element:
    data = dict(data)
    kind = data.pop("kind", None)
    if kind not in _KINDS:
        raise ValueError(f"unknown element kind {kind!r}; allowed: {', '.join(_KINDS)}")
    if data.get("stroke") is not None:
        data["stroke"] = Stroke(color=tuple(data["stroke"]["color"]), width=data["stroke"]["width"])
    if kind == "shape":
        data["bbox"] = BBox(**data["bbox"])
    data = {k: (v if isinstance(v, (Stroke, BBox)) else _tuples(v)) for k, v in data.items()}
    return _KINDS[kind](**data)

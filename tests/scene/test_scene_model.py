"""Scene model: validation, element-wise edits and the exact JSON round trip."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paintkit.scene import (
    IDENTITY,
    SHAPE_TYPES,
    WAVEFORMS,
    Background,
    BBox,
    Canvas,
    Line,
    Polygon,
    Scene,
    Shape,
    Stripes,
    Stroke,
    apply_affine,
    compose,
)

colors = st.tuples(*[st.integers(0, 255)] * 3)
coords = st.floats(-2000, 2000, allow_nan=False, allow_infinity=False)
sizes = st.floats(0.5, 2000, allow_nan=False, allow_infinity=False)
strokes = st.none() | st.builds(Stroke, color=colors, width=sizes)


@st.composite
def shapes(draw, i):
    return Shape(
        id=f"s{i}", type=draw(st.sampled_from(SHAPE_TYPES)),
        bbox=BBox(draw(coords), draw(coords), draw(sizes), draw(sizes)),
        fill=draw(colors), rotation=draw(st.floats(-720, 720, allow_nan=False)),
        stroke=draw(strokes),
        transform=draw(st.just(IDENTITY) | st.tuples(*[coords] * 6)),
    )


@st.composite
def scenes(draw):
    stripes = draw(st.none() | st.builds(
        Stripes, color=colors, orientation=st.sampled_from((0, 45, 90)), band_width=sizes,
        waveform=st.sampled_from(WAVEFORMS), amplitude=sizes, frequency=sizes,
        phase=st.floats(0, 1)))
    n = draw(st.integers(0, 5))
    elements = [draw(shapes(i)) for i in range(n)]
    elements.append(Polygon(id="outline", points=draw(st.lists(st.tuples(coords, coords),
                                                               min_size=3, max_size=6)),
                            stroke=Stroke((1, 2, 3), 3.0)))
    elements.append(Line(id="line", start=(draw(coords), 1.5), end=(0.1, draw(coords)),
                         color=draw(colors), width=draw(sizes)))
    return Scene(Canvas(draw(st.integers(1, 4096)), draw(st.integers(1, 4096))),
                 Background(draw(colors), stripes), tuple(elements))


@settings(max_examples=60, deadline=None)
@given(scenes())
def test_json_round_trip_is_exact(scene):
    again = Scene.from_json(scene.to_json())
    assert again == scene
    assert again.to_json() == scene.to_json()


def test_bad_values_raise_value_errors():
    with pytest.raises(ValueError, match="positive int"):
        Canvas(0, 10)
    with pytest.raises(ValueError, match="0..255"):
        Background((256, 0, 0))
    with pytest.raises(ValueError, match="0..255"):
        Shape("a", "circle", BBox(0, 0, 5, 5), fill=(1.5, 0, 0))
    with pytest.raises(ValueError, match="unknown shape type 'blob'.*circle"):
        Shape("a", "blob", BBox(0, 0, 5, 5), fill=(0, 0, 0))
    with pytest.raises(ValueError, match="orientation"):
        Stripes((0, 0, 0), orientation=30, band_width=10)
    with pytest.raises(ValueError, match="waveform"):
        Stripes((0, 0, 0), orientation=0, band_width=10, waveform="zigzag")
    with pytest.raises(ValueError, match="> 0"):
        BBox(0, 0, 0, 5)
    with pytest.raises(ValueError, match="unique"):
        s = Shape("a", "circle", BBox(0, 0, 5, 5), fill=(0, 0, 0))
        Scene(Canvas(8, 8), Background((1, 1, 1)), (s, s))
    with pytest.raises(ValueError, match="unknown element kind"):
        Scene.from_dict({"canvas": {"width": 2, "height": 2}, "background": {"color": [0, 0, 0]},
                         "elements": [{"kind": "text"}]})


def test_element_wise_edits_keep_depth_and_identity():
    a = Shape("a", "circle", BBox(0, 0, 5, 5), fill=(0, 0, 0))
    b = Shape("b", "star", BBox(10, 0, 5, 5), fill=(9, 9, 9))
    scene = Scene(Canvas(32, 32), Background((255, 255, 255)), (a, b))
    moved = Shape("a", "circle", BBox(3, 3, 5, 5), fill=(0, 0, 0))
    assert scene.replace_element("a", moved).elements == (moved, b)
    assert scene.without("b").elements == (a,)
    assert scene.with_elements(moved.__class__("c", "cross", BBox(0, 0, 4, 4), (1, 1, 1)),
                               on_top=False).elements[0].id == "c"
    assert scene.colors == ((255, 255, 255), (0, 0, 0), (9, 9, 9))
    with pytest.raises(KeyError):
        scene.element("zz")


def test_placement_maps_unit_box_onto_rotated_bbox():
    s = Shape("a", "rectangle", BBox(10, 20, 40, 10), fill=(0, 0, 0), rotation=90)
    m = s.placement
    cx, cy = apply_affine(m, (0.5, 0.5))
    assert math.isclose(cx, 30) and math.isclose(cy, 25)
    # The top-left corner (-20, -5 from the center) rotates clockwise to (5, -20).
    x, y = apply_affine(m, (0.0, 0.0))
    assert math.isclose(x, 35) and math.isclose(y, 5)
    shifted = Shape("a", "rectangle", BBox(10, 20, 40, 10), fill=(0, 0, 0), rotation=90,
                    transform=(1, 0, 7, 0, 1, -3))
    assert apply_affine(shifted.placement, (0.0, 0.0)) == pytest.approx((42, 2))
    assert compose(IDENTITY, m) == m

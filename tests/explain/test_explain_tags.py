"""Each object tag, from synthetic outputs built to deserve it (move, recolour, erase, paint
over a copy of the answer, paint on the background), plus the scene-less fallbacks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from paintkit.explainer import explain
from paintkit.kernels.color.delta_e_numba import delta_e_rgb_numba
from paintkit.renderers import render
from paintkit.scene import Background, BBox, Canvas, Scene, Shape

RED, BLUE, GREEN, WHITE, ORANGE = (255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 255), \
    (255, 165, 0)


def _scene(**moves) -> Scene:
    shapes = {
        "a": Shape("a", "rectangle", BBox(20, 20, 50, 30), RED),
        "b": Shape("b", "circle", BBox(120, 30, 40, 40), BLUE),
        "c": Shape("c", "star", BBox(60, 90, 50, 50), GREEN),
    }
    for key, (dx, dy) in moves.items():
        box = shapes[key].bbox
        shapes[key] = replace(shapes[key], bbox=BBox(box.x + dx, box.y + dy, box.width,
                                                     box.height))
    return Scene(Canvas(200, 160), Background(WHITE), tuple(shapes.values()))


@pytest.fixture(scope="module")
def moved():
    """Translation-like problem: 'a' moves 40 px right and 60 px down."""
    scene, answer_scene = _scene(), _scene(a=(40, 60))
    meta = {"scene": scene.to_dict(), "answer_scene": answer_scene.to_dict()}
    return meta, render(scene), render(answer_scene), answer_scene


def _tags(result):
    return {o["id"]: o["tag"] for o in result["objects"]}


def test_correct_output_tags_every_object_correct(moved):
    meta, inp, ans, _ = moved
    result = explain(ans, ans, inp, meta)
    assert result["explained"] == "full"
    assert _tags(result) == {"a": "correct", "b": "correct", "c": "correct"}
    assert result["segments"] == [] and result["error_pixels"] == 0


def test_unmoved_object_is_misplaced_with_its_offset(moved):
    meta, inp, ans, _ = moved
    result = explain(inp, ans, inp, meta)  # the model did nothing
    entry = next(o for o in result["objects"] if o["id"] == "a")
    assert entry["tag"] == "misplaced"
    assert entry["offset"] == [-40, -60] and entry["left_in_place"] is True
    assert _tags(result)["b"] == "correct"


def test_object_moved_elsewhere_reports_the_offset(moved):
    meta, inp, ans, answer_scene = moved
    wrong = render(_scene(a=(40 + 7, 60 - 5)))
    entry = next(o for o in explain(wrong, ans, inp, meta)["objects"] if o["id"] == "a")
    assert entry["tag"] == "misplaced" and entry["offset"] == [7, -5]
    assert entry["left_in_place"] is False


def test_recoloured_object_is_wrong_colour_with_its_delta_e(moved):
    meta, inp, ans, answer_scene = moved
    purple = (128, 0, 128)
    output = render(answer_scene.replace_element("b", replace(answer_scene.element("b"),
                                                             fill=purple)))
    for formula in ("cie76", "ciede2000"):
        result = explain(output, ans, inp, meta, delta_e=formula)
        entry = next(o for o in result["objects"] if o["id"] == "b")
        expected = delta_e_rgb_numba(np.array([BLUE], np.uint8), np.array([purple], np.uint8),
                                     formula)[0]
        assert entry["tag"] == "wrong_colour"
        assert entry["delta_e"] == pytest.approx(expected, abs=1e-3)
        assert entry["output_colors"] == ["#800080"] and entry["expected_colors"] == ["#0000FF"]


def test_erased_object_is_missing(moved):
    meta, inp, ans, answer_scene = moved
    result = explain(render(answer_scene.without("c")), ans, inp, meta)
    assert _tags(result) == {"a": "correct", "b": "correct", "c": "missing"}


def test_painted_over_object_is_damaged_and_background_paint_is_spurious(moved):
    meta, inp, ans, _ = moved
    output = ans.copy()
    output[30:50, 120:160] = ORANGE  # the top half of circle b
    output[140:155, 5:25] = ORANGE  # background only, far from every object
    result = explain(output, ans, inp, meta)
    entry = next(o for o in result["objects"] if o["id"] == "b")
    assert entry["tag"] == "damaged" and 0.3 < entry["share"] < 0.8
    spurious = [s for s in result["segments"] if s["spurious"]]
    assert len(spurious) == 1 and spurious[0]["area"] == 15 * 20
    assert spurious[0]["bbox"] == [5, 140, 20, 15]
    assert result["spurious"] == {"segments": 1, "pixels": 300}
    over_b = [s for s in result["segments"] if "b" in s["answer_objects"]]
    assert len(over_b) == 1 and not over_b[0]["spurious"]


def test_removed_object_left_in_place_is_not_removed():
    scene = _scene()
    answer_scene = scene.without("b")
    meta = {"scene": scene.to_dict(), "answer_scene": answer_scene.to_dict()}
    inp, ans = render(scene), render(answer_scene)
    kept = explain(inp, ans, inp, meta)
    entry = next(o for o in kept["objects"] if o["id"] == "b")
    assert entry["expected"] == "removed" and entry["tag"] == "not_removed"
    done = explain(ans, ans, inp, meta)
    assert next(o for o in done["objects"] if o["id"] == "b")["tag"] == "correct"


def test_without_answer_scene_edited_objects_are_unexplained(moved):
    meta, inp, ans, _ = moved
    limited = {"scene": meta["scene"]}
    result = explain(inp, ans, inp, limited)
    assert result["explained"] == "input_scene"
    assert "metadata has no answer_scene" in result["notes"]
    assert _tags(result) == {"a": "unexplained", "b": "correct", "c": "correct"}
    bare = explain(inp, ans, inp, {})
    assert bare["explained"] == "segments_only" and bare["objects"] == []
    assert bare["segments"] and bare["segments"][0]["answer_objects"] is None


def test_scene_that_does_not_render_to_the_image_is_not_trusted(moved):
    meta, inp, ans, _ = moved
    tampered = dict(meta, answer_scene=_scene(a=(41, 60)).to_dict())
    result = explain(ans, ans, inp, tampered)
    assert result["explained"] == "input_scene"
    assert "does not render to the stored image" in " ".join(result["notes"])


def test_missing_output_and_bad_arguments(moved):
    meta, inp, ans, _ = moved
    assert explain(None, ans, inp, meta)["has_output"] is False
    with pytest.raises(ValueError, match="tolerance"):
        explain(ans, ans, inp, meta, tolerance=11)
    with pytest.raises(ValueError, match="input's shape"):
        explain(ans, ans[:10], inp, meta)
    with pytest.raises(ValueError, match="one of cie76"):
        explain(ans, ans, inp, meta, delta_e="lab")


def test_segment_maps_from_the_scorers_bins(moved):
    from paintkit.explainer import segment_maps
    from paintkit.metrics import tolerance_statistics

    meta, inp, ans, _ = moved
    output = ans.copy()
    output[140:155, 5:25] = ORANGE
    bins = tolerance_statistics([output], [ans], [inp], return_bins=True).bins[0]
    maps = segment_maps(np.asarray(bins), ans, inp, meta, (0, 5))
    assert set(maps) == {0, 5}
    assert maps[5]["spurious"] == {"segments": 1, "pixels": 300}
    assert maps[5]["segments"] == explain(output, ans, inp, meta)["segments"]

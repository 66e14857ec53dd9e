"""What a scene reference problem's answer must be, re-derived from its metadata alone: the
source scene and the reference scenes (plain dicts, as in the problem JSON), never the
generator's ``params``. Shares no code with paintkit.

Each ``expected_*`` returns the answer scene dict the task's rule gives; a rule that cannot
be applied unambiguously (a reference shape with no or several counterparts in the source,
two palette shapes of one type) raises ``AssertionError``.

:func:`miou` is the metric's mIoU (docs/metric-definition.md) by the test oracle's Lab and
CIE76 (``tests.support.metric_oracle``), evaluated once per distinct colour pair.
"""

from __future__ import annotations

import copy

import numpy as np

from tests.support import metric_oracle


def _shapes(scene: dict) -> list[dict]:
    return [e for e in scene["elements"] if e["kind"] == "shape"]


def counterpart(scene: dict, shown: dict, same_geometry: bool) -> dict:
    """The one source shape of the type and fill of ``shown``; with ``same_geometry`` it also
    has the same size, rotation and transform (only its place may differ)."""
    found = [e for e in _shapes(scene) if e["type"] == shown["type"] and e["fill"] == shown["fill"]]
    assert len(found) == 1, f"{len(found)} source shapes match the {shown['type']} shown"
    match = found[0]
    if same_geometry:
        assert match["bbox"]["width"] == shown["bbox"]["width"]
        assert match["bbox"]["height"] == shown["bbox"]["height"]
        assert match["rotation"] == shown["rotation"]
        assert match["transform"] == shown["transform"]
    return match


def _with(scene: dict, elements: list[dict]) -> dict:
    out = copy.deepcopy(scene)
    out["elements"] = copy.deepcopy(elements)
    return out


def expected_copy(scene: dict, reference: dict) -> dict:
    """The one shape the reference shows, drawn on top of the source."""
    assert len(reference["elements"]) == 1, "the reference shows one shape"
    shown = reference["elements"][0]
    assert (shown["type"], shown["fill"]) not in [(e["type"], e["fill"]) for e in _shapes(scene)]
    return _with(scene, scene["elements"] + [shown])


def expected_remove(scene: dict, reference: dict) -> dict:
    """The source without the counterpart of each shape the reference shows."""
    gone = {counterpart(scene, shown, True)["id"] for shown in reference["elements"]}
    assert len(gone) == len(reference["elements"])
    return _with(scene, [e for e in scene["elements"] if e["id"] not in gone])


def expected_move(scene: dict, reference: dict) -> dict:
    """Each shown shape's counterpart at the shown place, on top, in the source's order."""
    places = {counterpart(scene, shown, True)["id"]: shown["bbox"]
              for shown in reference["elements"]}
    assert len(places) == len(reference["elements"])
    stay = [e for e in scene["elements"] if e["id"] not in places]
    moved = [{**e, "bbox": places[e["id"]]} for e in scene["elements"] if e["id"] in places]
    return _with(scene, stay + moved)


def expected_recolor(scene: dict, reference: dict) -> dict:
    """Every source shape of a type the reference shows filled with that shape's colour."""
    colors = {}
    for shown in reference["elements"]:
        assert shown["type"] not in colors, f"the palette shows two {shown['type']}s"
        colors[shown["type"]] = shown["fill"]
    assert set(colors) <= {e["type"] for e in _shapes(scene)}
    return _with(scene, [{**e, "fill": colors[e["type"]]}
                         if e["kind"] == "shape" and e["type"] in colors else e
                         for e in scene["elements"]])


def expected_answer_scene(task: str, scene: dict, references: list[dict]) -> dict:
    """The answer scene of ``task`` from the source scene and the reference scenes."""
    rules = {"reference_copy": [expected_copy], "reference_remove": [expected_remove],
             "reference_move": [expected_move], "reference_recolor": [expected_recolor],
             "reference_move_recolor": [expected_move, expected_recolor]}[task]
    assert len(references) == len(rules), f"{task} takes {len(rules)} reference(s)"
    for rule, reference in zip(rules, references, strict=True):
        assert reference["canvas"] == scene["canvas"]
        scene = rule(scene, reference)
    return scene


def _code(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3) -> int64 (H, W): one number per colour."""
    return (image[..., 0].astype(np.int64) << 16) | (image[..., 1].astype(np.int64) << 8) \
        | image[..., 2]


def _rgb(codes: np.ndarray) -> np.ndarray:
    return np.stack([(codes >> 16) & 255, (codes >> 8) & 255, codes & 255], axis=-1).astype(np.uint8)


def miou(output: np.ndarray, answer: np.ndarray, inp: np.ndarray) -> float:
    """mIoU of ``output`` against ``answer`` with ``inp`` the source (all uint8 (H, W, 3) of
    one shape): mean over tolerances 0..10 of ``CE_t / (|E| + IP_t)`` (0.0 for no edit)."""
    edit = (answer != inp).any(axis=-1)
    n_edit = int(edit.sum())
    if n_edit == 0:
        return 0.0
    pairs, inverse = np.unique((_code(output) << 24 | _code(answer)).ravel(), return_inverse=True)
    de = metric_oracle.delta_e(metric_oracle.lab(_rgb(pairs >> 24)),
                               metric_oracle.lab(_rgb(pairs & 0xFFFFFF)))
    per_pixel = de[inverse.ravel()].reshape(edit.shape)
    ious = []
    for t in range(11):
        correct = per_pixel <= np.float32(t)
        ce = int((correct & edit).sum())
        ip = int((~correct & ~edit).sum())
        ious.append(ce / (n_edit + ip))
    return sum(ious) / 11

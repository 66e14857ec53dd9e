"""Scene reference problems are a pure function of their id: the same bytes in another process,
pinned hashes of a handful, the suite's layout; PaintBench's own problems are untouched (the
references live in their own namespace and modules)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from paintkit.sources import generate
from paintkit.suites.references import ReferenceSuite
from tests.references.oracle import expected_answer_scene

# SHA-256 over the SHA-256 of input, answer, each reference and the canonical metadata JSON
# of slot 0 of each cell. A change is a change of the suite's bytes: say so in CHANGELOG.md.
PINNED = {
    ("reference_copy", "baseline"): "713fbca760e40184cfca40a789321cea42da2d6218ef239094efb709d4d98b0c",
    ("reference_remove", "striped"): "5219fa95d797a296f9fffe6e88baaa86d9e34e46dbbbf9c173847aa655356574",
    ("reference_move", "horizontal"): "e03db780924a2d5692e1847ca6b84fcffa833d322e77e63118b845d50992ef89",
    ("reference_recolor", "nonstandard"): "62e06ad35df70e04780e86dabef5ccd67d724cb532a54185fbb4e5b1ef665d00",
    ("reference_move_recolor", "n_med"): "58f98481049853267ad09d56c2a9ed92da5d9b6d9de6c78f80f9f24b411bfe1c",
    ("reference_move", "n_xhigh"): "c8334708376f5c12fc9364cfd836a7eda6c3cb8ca7dba8ecff226254d5b14792",
}
HASH_CODE = """
import hashlib, json, sys
from paintkit.sources import generate
for cell in json.loads(sys.argv[1]):
    p = generate(cell[0], 0, cell[1], source="references")
    meta = json.dumps(p.metadata, sort_keys=True, separators=(",", ":")).encode()
    h = hashlib.sha256()
    for b in (p.input.tobytes(), p.answer.tobytes(), *(r.image.tobytes() for r in p.references), meta):
        h.update(hashlib.sha256(b).digest())
    print(h.hexdigest())
"""


def problem_hash(problem) -> str:
    meta = json.dumps(problem.metadata, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256()
    for part in (problem.input.tobytes(), problem.answer.tobytes(),
                 *(ref.image.tobytes() for ref in problem.references), meta):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


@pytest.mark.parametrize("cell", sorted(PINNED))
def test_pinned_bytes(cell):
    task, condition = cell
    got = problem_hash(generate(task, 0, condition, source="references"))
    assert got == PINNED[cell], f"{task}/{condition}: the scene reference bytes changed"


def test_same_bytes_in_another_process():
    cells = [("reference_move_recolor", "n_med"), ("reference_copy", "baseline")]
    out = subprocess.run([sys.executable, "-c", HASH_CODE, json.dumps(cells)],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == [PINNED[tuple(c)] for c in cells]


def test_suite_layout_and_ids():
    suite = ReferenceSuite(tasks=("reference_move",), conditions=("baseline", "n_med"), per_cell=2)
    assert [(s.folder, s.stem, s.condition, s.slot) for s in suite.specs()] == [
        ("reference_move", "000", "baseline", 0), ("reference_move", "001", "baseline", 1),
        ("reference_move", "002", "n_med", 0), ("reference_move", "003", "n_med", 1)]
    assert ReferenceSuite.from_dict(suite.to_dict()) == suite
    assert suite.to_dict()["suite"] == "references" and suite.benchmark == "References"
    assert len(ReferenceSuite()) == 5 * 8 * 12
    problem = generate("reference_move", 1, "baseline", source="references")
    assert problem.problem_id == "references-reference_move-baseline-default-000001"
    assert problem.metadata["namespace"] == "references"


def test_unknown_task_is_named():
    with pytest.raises(ValueError, match="unknown reference task 'translation'"):
        generate("translation", 0, "baseline", source="references")


def test_the_oracle_refuses_a_wrong_or_ambiguous_reference():
    meta = generate("reference_move_recolor", 0, "baseline", source="references").metadata
    layout, palette = meta["reference_scenes"]
    assert expected_answer_scene(meta["task"], meta["scene"], [layout, palette]) == meta["answer_scene"]
    shown = palette["elements"][0]
    other = [0, 0, 0] if shown["fill"] != [0, 0, 0] else [1, 2, 3]
    wrong = {**palette, "elements": [{**shown, "fill": other}, *palette["elements"][1:]]}
    assert expected_answer_scene(meta["task"], meta["scene"], [layout, wrong]) != meta["answer_scene"]
    twice = {**palette, "elements": [shown, {**shown, "id": "again"}]}
    with pytest.raises(AssertionError, match="two"):
        expected_answer_scene(meta["task"], meta["scene"], [layout, twice])
    moved = layout["elements"][0]
    stranger = {**layout, "elements": [{**moved, "type": "cloud" if moved["type"] != "cloud"
                                        else "star", "fill": [1, 2, 3]}]}
    with pytest.raises(AssertionError, match="0 source shapes"):
        expected_answer_scene(meta["task"], meta["scene"], [stranger, palette])

"""The problem model's reference images: the Reference type, with_references' rules, names."""

import numpy as np
import pytest

from paintkit.errors import RejectedSeed
from paintkit.layout.problem_files import parse_problem_file, reference_name, reference_paths
from paintkit.tasks import Problem, Reference, task_module
from paintkit.tasks.base import MAX_IDENTITY_MIOU, reference_miou, with_references


@pytest.fixture(scope="module")
def problem():
    return task_module("recolor").generate(7, "baseline", None)


def test_a_one_image_problem_has_no_references_and_no_key(problem):
    assert problem.references == ()
    assert "references" not in problem.metadata
    assert len(problem.images) == 1 and problem.images[0] is problem.input


def test_with_references_lists_roles_in_order(problem):
    refs = [Reference(np.zeros_like(problem.input), "style"),
            Reference(np.full_like(problem.input, 255), "layout")]
    out = with_references(problem, refs, what="recolor seed 7")
    assert out.metadata["references"] == [{"role": "style"}, {"role": "layout"}]
    assert [r.role for r in out.references] == ["style", "layout"]
    assert out.images[1] is refs[0].image and out.images[2] is refs[1].image
    assert "references" not in problem.metadata  # the one-image problem is untouched


def test_copying_the_answer_as_a_reference_is_refused(problem):
    with pytest.raises(RejectedSeed, match="reference 1 .style. returned unchanged"):
        with_references(problem, [Reference(problem.answer.copy(), "style")], what="x")
    assert reference_miou(problem.answer, problem.input, problem.answer) == 1.0
    assert reference_miou(problem.input, problem.input, problem.answer) <= MAX_IDENTITY_MIOU


@pytest.mark.parametrize("image, role, match", [
    (np.zeros((4, 4), np.uint8), "style", "uint8 .H, W, 3."),
    (np.zeros((4, 4, 3), np.float32), "style", "uint8 .H, W, 3."),
    (np.zeros((4, 4, 3), np.uint8), "Style", "lower-case name"),
    (np.zeros((4, 4, 3), np.uint8), "", "lower-case name"),
    (np.zeros((4, 4, 3), np.uint8), "../x", "lower-case name"),
])
def test_a_bad_reference_is_one_clear_error(image, role, match):
    with pytest.raises(ValueError, match=match):
        Reference(image, role)


def test_problem_refuses_what_is_not_a_reference(problem):
    with pytest.raises(TypeError, match="Reference objects"):
        Problem(problem.input, problem.answer, "x", {}, None, (problem.input,))


def test_reference_file_names():
    assert reference_name("007", 1) == "007_reference_1.png"
    assert parse_problem_file("007_reference_12.png") == ("007", "_reference_12.png")
    assert parse_problem_file("007_reference_0.png") is None
    assert [p.name for p in reference_paths("t/007.json", 2)] == ["007_reference_1.png",
                                                                  "007_reference_2.png"]
    with pytest.raises(ValueError, match="numbered from 1"):
        reference_name("007", 0)

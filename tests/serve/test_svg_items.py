"""SVG outputs where images are accepted: ``paintkit.score`` / ``reward`` (SVG text, bytes or
a ``.svg`` path), verl's ``compute_score`` with a code model's ``solution_str``, and a
``paintkit serve`` item ``{"svg": ...}``: the answer's SVG scores 1.0, the input's as the
input, and an SVG outside the subset is that output's one-line reason."""

from __future__ import annotations

import httpx
import pytest

import paintkit
from paintkit.renderers.svg_scene import problem_svgs
from paintkit.rewards.verl import compute_score

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def svgs(problems):  # noqa: ANN001, ANN201
    return [problem_svgs(p.metadata, p.input, p.answer) for p in problems]


def test_score_and_reward_take_svg(problems, svgs, tmp_path) -> None:  # noqa: ANN001
    p, (input_svg, answer_svg) = problems[0], svgs[0]
    path = tmp_path / "out.svg"
    path.write_text(answer_svg)
    scores = paintkit.score([answer_svg, answer_svg.encode(), str(path), input_svg,
                             '<svg xmlns="http://www.w3.org/2000/svg"/>'],
                            [p.answer] * 5, [p.input] * 5)
    assert [s.miou for s in scores[:3]] == [1.0, 1.0, 1.0]
    assert scores[3].miou <= 0.05 and not scores[4].has_output
    targets = paintkit.prepare_targets([p.answer], [p.input])
    assert paintkit.reward([answer_svg], targets).tolist() == [1.0]


def test_verl_scores_the_svg_in_a_completion(problems, svgs) -> None:  # noqa: ANN001
    p, answer_svg = problems[0], svgs[0][1]
    truth = {"answer": p.answer, "input": p.input}
    got = compute_score("paintbench", solution_str=f"Here:\n```svg\n{answer_svg}\n```",
                        ground_truth=truth)
    assert got["score"] == 1.0 and got["missing"] is False
    cut = compute_score("paintbench", solution_str="```svg\n<svg width='4'", ground_truth=truth)
    assert cut["score"] == 0.0 and cut["missing"] is True and "cut off" in cut["reason"]
    with pytest.raises(ValueError, match="no SVG"):
        compute_score("paintbench", solution_str="I moved it.", ground_truth=truth)


def test_the_service_scores_svg_items(start_service, problems, svgs) -> None:  # noqa: ANN001
    service = start_service()
    items = [{"problem_id": p.metadata["problem_id"], "image": {"svg": svg}}
             for p, (_, svg) in zip(problems, svgs, strict=True)]
    items.append({"problem_id": problems[0].metadata["problem_id"],
                  "image": {"svg": svgs[0][0]}})
    items.append({"problem_id": problems[0].metadata["problem_id"],
                  "image": {"svg": '<!DOCTYPE svg [<!ENTITY a "b">]><svg/>'}})
    items.append({"problem_id": problems[0].metadata["problem_id"],
                  "image": {"svg": '<svg xmlns="http://www.w3.org/2000/svg" width="30000" '
                                   'height="30000"/>'}})
    results = httpx.post(service.url + "/v1/score", json={"items": items}, timeout=60).json()
    results = results["results"]
    assert [r["reward"] for r in results[:3]] == [1.0, 1.0, 1.0]
    assert results[3]["reward"] <= 0.05
    assert "DOCTYPE" in results[4]["error"] and "\n" not in results[4]["error"]
    assert "limit" in results[5]["error"]


def test_chart_states_where_images_go(start_service) -> None:  # noqa: ANN001
    problem = paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")
    meta = problem.metadata
    hostile = {"chart": "bar_chart", "bars": [{"value": 1}] * 5000}
    scores = paintkit.score([meta["answer_state"], meta["input_state"], hostile],
                            [problem.answer] * 3, [problem.input] * 3)
    assert scores[0].miou == 1.0 and scores[1].miou <= 0.05
    assert not scores[2].has_output and "at most 1,000" in scores[2].error
    service = start_service()
    pid = problem.problem_id
    items = [{"problem_id": pid, "image": {"state": meta["answer_state"]}},
             {"problem_id": pid, "image": {"state": hostile}},
             {"problem_id": pid, "image": {"state": meta["answer_state"], "svg": "<svg/>"}}]
    results = httpx.post(service.url + "/v1/score", json={"items": items}, timeout=60).json()
    results = results["results"]
    assert results[0]["reward"] == 1.0
    assert "at most 1,000" in results[1]["error"] and "exactly one" in results[2]["error"]

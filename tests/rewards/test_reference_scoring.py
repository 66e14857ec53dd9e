"""Problems with reference images (the scene reference and chart style transfer suites) are
scored like every problem:
``paintkit.score`` / ``reward``, ``stream_pixel_miou``, the flow_grpo, verl, Flow-Factory and trl
adapters, ``paintkit serve`` (by key and from a tree) and ``paintkit eval`` give the same
figures, bit for bit, and no reference ever changes one (copying a reference scores as any
wrong output). Flow-Factory's reward gets its ``condition_images`` as its
``RewardProcessor`` hands them over (``use_tensor_inputs``: per sample the input then each
reference, stacked ``(num_conditions, 3, h, w)`` when all share a size, else a list).
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit import reward, score
from paintkit.engines import write_suite
from paintkit.suites.combined import CombinedSuite
from paintkit.suites.references import ReferenceSuite
from paintkit.tinygrafix.style_suite import StyleTransferSuite

STYLE = StyleTransferSuite(tasks=("bar_chart",), per_cell=1)
#: Every problem with one reference (flow-grpo's dual_ref takes one)
ONE = CombinedSuite((ReferenceSuite(tasks=("reference_copy", "reference_recolor"),
                                    conditions=("baseline",), per_cell=1), STYLE))
SUITE = CombinedSuite((ReferenceSuite(tasks=("reference_copy", "reference_recolor",
                                             "reference_move_recolor"),
                                      conditions=("baseline",), per_cell=1), STYLE))


@pytest.fixture(scope="module")
def problems():
    found = list(SUITE.problems())
    assert [len(p.references) for p in found] == [1, 1, 2, 1]
    assert [p.metadata["category"] for p in found] == ["reference_guided"] * 3 + [
        "style_transfer"]
    return found


def partial(problem) -> np.ndarray:
    """The answer with its top half left as the input: a figure between 0 and 1."""
    out = problem.answer.copy()
    half = out.shape[0] // 2
    out[:half] = problem.input[:half]
    return out


@pytest.fixture(scope="module")
def cases(problems):
    """Per problem four outputs: the answer, the input, its first reference, a partial edit;
    with the figures paintkit.score gives them."""
    outputs, owners = [], []
    for p in problems:
        for out in (p.answer, p.input, p.references[0].image, partial(p)):
            outputs.append(out)
            owners.append(p)
    answers = [p.answer for p in owners]
    inputs = [p.input for p in owners]
    scores = score(outputs, answers, inputs)
    rewards = reward(outputs, answers, inputs).numpy()
    return outputs, owners, scores, rewards


def test_the_figures_every_path_compares_to(cases):
    _, _, scores, rewards = cases
    miou = np.array([s.miou for s in scores])
    assert np.array_equal(rewards, miou.astype(np.float32))
    assert list(miou[0::4]) == [1.0] * 4
    assert max(miou[1::4]) <= 0.05 and max(miou[2::4]) <= 0.05  # input, copied reference
    assert any(0.05 < m < 1.0 for m in miou[3::4])  # a figure between the extremes


def test_reward_fn_of_a_stream_batch(cases):
    from paintkit.rewards import stream_pixel_miou

    outputs, owners, _, rewards = cases
    got = stream_pixel_miou(outputs, {"answer": [p.answer for p in owners],
                              "input": [p.input for p in owners]})
    assert np.array_equal(got.numpy(), rewards)


def test_verl_compute_score_from_a_rows_images(cases):
    from paintkit.rewards import verl_pixel_miou

    outputs, owners, scores, _ = cases
    for out, p, expected in zip(outputs, owners, scores, strict=True):
        png = {name: {"bytes": _png(getattr(p, name))} for name in ("answer", "input")}
        result = verl_pixel_miou(data_source="paintbench", solution_image=out,
                               ground_truth=p.problem_id, extra_info=png)
        assert result["score"] == expected.miou and result["iou_5"] == expected.iou[5]


def test_trl_reward_takes_the_first_of_a_rows_images(cases):
    from paintkit.rewards import trl_pixel_miou

    outputs, owners, _, rewards = cases
    fn = trl_pixel_miou()
    got = fn(prompts=[p.instruction for p in owners],
             completions=[[{"role": "assistant", "content": [{"type": "image", "image": out}]}]
                          for out in outputs],
             images=[[p.input, *(r.image for r in p.references)] for p in owners],
             answer=[p.answer for p in owners])
    assert np.array_equal(np.float32(got), rewards)


@pytest.mark.slow  # tests/writers/test_trainer_references.py scores dual_ref lines by default
def test_flow_grpo_reward_reads_a_dual_ref_line(cases, tmp_path):
    from paintkit.rewards import flow_grpo_pixel_miou

    write_suite(ONE, tmp_path, format="flow-grpo", engine="inprocess", progress=False)
    lines = {json.loads(t)["problem_id"]: json.loads(t)
             for t in (tmp_path / "train_metadata.jsonl").read_text().splitlines()}
    outputs, owners, _, rewards = cases
    keep = [k for k, p in enumerate(owners) if p.problem_id in lines]
    fn = flow_grpo_pixel_miou("cpu", root=tmp_path)
    assert len(keep) == 4 * len(ONE)
    images = [_chw(outputs[k]) for k in keep]  # two canvas sizes: a list
    got, _ = fn(images, [owners[k].instruction for k in keep],
                [lines[owners[k].problem_id] for k in keep])
    assert np.array_equal(np.float32(got), rewards[keep])


@pytest.fixture(scope="module")
def flow_factory_dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("ff") / "dataset"
    write_suite(SUITE, out, format="flow-factory", engine="inprocess", progress=False)
    return out


def _resized(image: np.ndarray, size: tuple[int, int]) -> torch.Tensor:
    return _chw(np.asarray(Image.fromarray(image).resize(size, Image.Resampling.BILINEAR)))


@pytest.mark.parametrize("stacked", [True, False])
def test_flow_factory_reward_at_its_call_with_condition_images(cases, flow_factory_dataset,
                                                               stacked):
    from paintkit.rewards import FlowFactoryPixelMIoU

    outputs, owners, _, rewards = cases
    keep = [k for k in range(len(outputs)) if k % 4 >= 2]  # a copied reference, a partial edit
    outputs, owners, rewards = [outputs[k] for k in keep], [owners[k] for k in keep], rewards[keep]
    model = FlowFactoryPixelMIoU({"dataset": str(flow_factory_dataset), "device": "cpu"})
    conditions = []
    for p in owners:
        images = [p.input, *(r.image for r in p.references)]
        if stacked:  # every condition resized alike: the processor stacks them
            conditions.append(torch.stack([_resized(x, (48, 48)) for x in images]))
        else:  # varying sizes: a list per sample
            conditions.append([_resized(x, (48 + 16 * n, 40)) for n, x in enumerate(images)])
    got = model(prompt=[p.instruction for p in owners], image=[_chw(x) for x in outputs],
                condition_images=conditions)
    assert np.array_equal(got.rewards.numpy(), rewards)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["in-process", "remote"])
def test_flow_factory_loop_scores_a_reference_dataset(flow_factory_dataset, where):
    """Flow-Factory's reproduced GRPO loop on a dataset whose lines list several images: each
    sample's condition images are the input and its references."""
    from tests.rewards.test_flow_factory_loop import check, run_loop

    if where == "in-process":
        check(run_loop(flow_factory_dataset, where))
        return
    pytest.importorskip("fastapi")
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    service = RunningService(ServeOptions(device="cpu"))
    try:
        check(run_loop(flow_factory_dataset, service.url))
    finally:
        service.stop()


@pytest.mark.parametrize("where", ["key", pytest.param("tree", marks=pytest.mark.slow)])
def test_the_service_scores_reference_problems(cases, tmp_path, where):
    """By key (the problem regenerated, references and all, though only the input and answer
    are read) and from a benchmark tree with its reference files."""
    pytest.importorskip("fastapi")
    from paintkit.rewards.client import RewardClient
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    outputs, owners, scores, rewards = cases
    ious = np.array([s.iou for s in scores], np.float32)
    options = ServeOptions(device="cpu")
    if where == "tree":
        write_suite(SUITE, tmp_path / "bench", engine="inprocess", progress=False)
        options = ServeOptions(device="cpu", benchmarks=str(tmp_path / "bench"))
    service = RunningService(options)
    try:
        client = RewardClient(service.url)
        got, got_ious = client.score(outputs, [p.problem_id for p in owners], figures=True)
        client.close()
    finally:
        service.stop()
    assert np.array_equal(got, rewards) and np.array_equal(got_ious, ious)


def test_flow_factorys_own_client_sends_every_condition_image(cases, flow_factory_dataset):
    """``paintkit serve --prompts DATASET`` and Flow-Factory's remote client: prompts, the
    generated images and per sample the resized input then references, nothing naming the
    problem; the rewards are the in-process ones."""
    pytest.importorskip("fastapi")
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService
    from tests.serve.test_trainer_protocols import flow_factory_compute

    outputs, owners, _, rewards = cases
    keep = [k for k in range(len(outputs)) if k % 4 != 1]  # answer, copied reference, partial
    conds = [[_resized(x, (48, 48)) for x in (owners[k].input,
                                              *(r.image for r in owners[k].references))]
             for k in keep]
    service = RunningService(ServeOptions(device="cpu", prompts=str(flow_factory_dataset)))
    try:
        answer = flow_factory_compute(service.url, [owners[k].instruction for k in keep],
                                      [outputs[k] for k in keep], conds)
    finally:
        service.stop()
    assert np.array_equal(np.float32(answer["rewards"]), rewards[keep])


def test_the_key_regenerates_the_problem_with_its_references(problems):
    from paintkit.suites.problem_keys import problem_from_key

    for p in problems:
        q = problem_from_key(p.problem_id)
        assert np.array_equal(q.input, p.input) and np.array_equal(q.answer, p.answer)
        assert [r.role for r in q.references] == [r.role for r in p.references]
        assert all(np.array_equal(a.image, b.image)
                   for a, b in zip(q.references, p.references, strict=True))


def test_a_reference_key_asking_for_a_large_canvas_is_refused_before_drawing():
    from paintkit.suites.problem_keys import ProblemKeyError, problem_from_key

    with pytest.raises(ProblemKeyError, match="exceeds the limit of 1048576 pixels"):
        problem_from_key("references-reference_copy-baseline@4096x4096-default-000000",
                         max_pixels=1 << 20)


def _png(image: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return buffer.getvalue()


def _chw(image: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.array(image)).permute(2, 0, 1).float() / 255

"""The adapters loaded and called the way each trainer loads and calls a reward.

- Flow-Factory imports the class from a dotted path and builds it with
  ``(config=..., accelerator=...)``, reads ``.device``, passes PIL lists or lists of float
  ``(3, H, W)`` tensors, and condition images resized to its resolution;
- flow_grpo builds ``factory(device)`` when the factory has a ``device`` parameter, calls
  ``fn(images, prompts, metadata)`` with the dataset's metadata lines (input under
  ``"image"``, relative to the dataset folder);
- verl-omni passes keyword arguments and parquet-style ground truths.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.metrics import reward
from tests.support.metric_images import palette_pair


def load_by_dotted_path(path: str):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def problem(rng, h, w):
    inp, ans = palette_pair(rng, h, w)
    out = ans.copy()
    noise = rng.random((h, w)) < 0.2
    out[noise] = inp[noise]
    return out, ans, inp


def test_flow_factory_loads_by_dotted_path_and_scores_pil_and_tensor_lists(rng, tmp_path):
    cls = load_by_dotted_path("paintkit.rewards.flow_factory.FlowFactoryPixelMIoU")
    config = SimpleNamespace(device=torch.device("cuda"), dtype=torch.float32, batch_size=4,
                             fit="stretch")  # Flow-Factory's squares stretch the canvas
    accelerator = SimpleNamespace(device=torch.device("cpu"))  # "cuda" means the process's
    model = cls(config=config, accelerator=accelerator)
    assert model.device == torch.device("cpu") and model.model_type == "pointwise"
    sizes = [(12, 16), (16, 16), (16, 12)]  # mixed canvas shapes in one batch
    items = [problem(rng, h, w) for h, w in sizes]
    expected = torch.cat([reward(o[None], a[None], i[None]) for o, a, i in items])
    meta = [{"answer": a, "input": i} for _, a, i in items]
    # what the trainer passes: its squares, and the conditions resized to them
    pil = [Image.fromarray(o).resize((32, 32), Image.NEAREST) for o, _, _ in items]
    conditions = [[Image.fromarray(i).resize((32, 32))] for _, _, i in items]
    out = model(prompt=["edit"] * 3, image=pil, condition_images=conditions, metadata=meta)
    torch.testing.assert_close(out.rewards, expected, rtol=0, atol=1e-6)
    assert out.rewards.dtype == torch.float32 and out.rewards.device == model.device
    tensors = [torch.from_numpy(np.array(p)).permute(2, 0, 1).float() / 255 for p in pil]
    again = model(prompt=["edit"] * 3, image=tensors, condition_images=conditions, metadata=meta)
    torch.testing.assert_close(again.rewards, expected, rtol=0, atol=1e-6)
    # the trainer's own-size outputs (no resize) as a list of differently sized tensors
    native = [torch.from_numpy(o).permute(2, 0, 1).float() / 255 for o, _, _ in items]
    torch.testing.assert_close(model(image=native, metadata=meta).rewards, expected,
                               rtol=0, atol=1e-6)


def test_flow_factory_finds_problems_by_id_in_a_benchmark_folder(rng, tmp_path):
    import json

    from paintkit.rewards import FlowFactoryPixelMIoU

    items = [problem(rng, 12, 16) for _ in range(2)]
    folder = tmp_path / "PaintBench" / "translation"
    folder.mkdir(parents=True)
    for k, (_, a, i) in enumerate(items):
        Image.fromarray(i).save(folder / f"{k:03d}_input.png")
        Image.fromarray(a).save(folder / f"{k:03d}_answer.png")
        (folder / f"{k:03d}.json").write_text(json.dumps({"problem_id": f"p-{k}"}))
    model = FlowFactoryPixelMIoU({"device": "cpu", "root": str(tmp_path)}, None)
    images = [torch.from_numpy(o).permute(2, 0, 1).float() / 255 for o, _, _ in items]
    conditions = [[Image.fromarray(i).resize((8, 8))] for _, _, i in items]
    out = model(image=images, condition_images=conditions,
                metadata=[{"problem_id": "p-1"}, {"problem_id": "p-0"}][::-1])
    expected = torch.cat([reward(o[None], a[None], i[None]) for o, a, i in items])
    torch.testing.assert_close(out.rewards, expected, rtol=0, atol=1e-6)
    with pytest.raises(ValueError, match="problem_id 'nope': not found"):
        model(image=images[:1], metadata=[{"problem_id": "nope"}])


def test_flow_factory_resized_conditions_without_metadata_is_a_clear_error(rng):
    from paintkit.rewards import FlowFactoryPixelMIoU

    out, ans, inp = problem(rng, 12, 16)
    model = FlowFactoryPixelMIoU("cpu")
    small = torch.from_numpy(np.asarray(Image.fromarray(inp).resize((8, 8)))).permute(2, 0, 1)
    with pytest.raises(ValueError, match=r"condition_images\[0\]: 8x8, but its answer is 16x12"):
        model(image=[torch.from_numpy(out).permute(2, 0, 1)], condition_images=[[small]],
              answer_images=[torch.from_numpy(ans).permute(2, 0, 1)])
    with pytest.raises(ValueError, match="sample 0: the PaintBench reward needs the answer"):
        model(image=[torch.from_numpy(out).permute(2, 0, 1)], condition_images=[[small]])


def test_flow_grpo_registration_and_dataset_relative_paths(rng, tmp_path, monkeypatch):
    from paintkit.rewards import flow_grpo_pixel_miou

    out, ans, inp = problem(rng, 12, 16)
    (tmp_path / "images").mkdir()
    Image.fromarray(inp).save(tmp_path / "images" / "0_input.png")
    Image.fromarray(ans).save(tmp_path / "images" / "0_answer.png")
    # flow_grpo's multi_score: factory(device) when its code has a `device` parameter
    score_functions = {"paintbench": flow_grpo_pixel_miou}
    factory = score_functions["paintbench"]
    assert "device" in factory.__code__.co_varnames
    monkeypatch.setenv("PAINTKIT_REWARD_ROOT", str(tmp_path))
    fn = factory("cpu")
    # its metadata line: the input under "image", relative to the dataset folder
    meta = {"prompt": "edit", "image": "images/0_input.png", "answer": "images/0_answer.png"}
    images = torch.from_numpy(out).permute(2, 0, 1)[None].float() / 255
    expected = reward(out[None], ans[None], inp[None])
    scores, info = fn(torch.cat([images, images]), ["edit"] * 2, [meta, meta])  # G = 2
    torch.testing.assert_close(scores, torch.cat([expected, expected]), rtol=0, atol=1e-6)
    assert isinstance(info["miou_mean"], torch.Tensor)  # no .item(): no device sync
    assert len(fn.cache) == 1  # the G samples share one prepared target
    explicit = flow_grpo_pixel_miou("cpu", root=tmp_path)
    torch.testing.assert_close(explicit(images, ["edit"], [meta])[0], expected, rtol=0, atol=1e-6)


def test_flow_grpo_shares_a_target_without_problem_id(rng):
    from paintkit.rewards import flow_grpo_pixel_miou

    out, ans, inp = problem(rng, 12, 16)
    fn = flow_grpo_pixel_miou("cpu")
    images = torch.from_numpy(np.stack([out] * 4)).permute(0, 3, 1, 2)
    # each sample's metadata a fresh copy, as after a DataLoader / gather
    fn(images, [""] * 4, [{"answer": ans.copy(), "image": inp.copy()} for _ in range(4)])
    fn(images, [""] * 4, [{"answer": ans.copy(), "image": inp.copy()} for _ in range(4)])
    assert len(fn.cache) == 1


def test_verl_keyword_call_and_ground_truth_aliases(rng, tmp_path):
    import io

    from paintkit.rewards import verl_pixel_miou

    out, ans, inp = problem(rng, 12, 16)
    expected = float(reward(out[None], ans[None], inp[None])[0])
    encoded = {}
    for name, image in (("answer", ans), ("input", inp)):
        buffer = io.BytesIO()
        Image.fromarray(image).save(buffer, format="PNG")
        encoded[name] = buffer.getvalue()
        Image.fromarray(image).save(tmp_path / f"{name}.png")
    chw = np.ascontiguousarray(out.transpose(2, 0, 1))
    truths = [
        {"answer": ans, "input": inp},
        {"answer_path": str(tmp_path / "answer.png"), "input_path": str(tmp_path / "input.png")},
        {"answer": encoded["answer"], "input_image": encoded["input"]},
        {"answer": {"bytes": encoded["answer"], "path": None},
         "input": {"bytes": None, "path": str(tmp_path / "input.png")}},
    ]
    for truth in truths:
        result = verl_pixel_miou(data_source="paintbench", solution_image=chw, ground_truth=truth,
                               extra_info={"index": 0}, reward_router_address=None)
        assert result["score"] == pytest.approx(expected, abs=1e-6), truth.keys()
    with pytest.raises(ValueError, match="solution_str: got decoded text"):
        verl_pixel_miou(data_source="paintbench", solution_str="<image>", ground_truth=truths[0])


def test_cache_is_bounded_in_bytes_and_refuses_other_devices(rng):
    from paintkit.rewards import flow_grpo_pixel_miou
    from paintkit.rewards.target_cache import RAW_BYTES_PER_PIXEL, TargetCache

    cache = TargetCache(torch.device("cpu"), max_bytes=3 * 12 * 16 * RAW_BYTES_PER_PIXEL)
    for k in range(5):
        _, ans, inp = problem(rng, 12, 16)
        cache.get(("id", k), ans, inp)
        assert cache.nbytes <= cache.max_bytes
    assert len(cache) == 3 and [key[1] for key in cache._items] == [2, 3, 4]
    # 6 bytes a pixel on the CPU, as documented: the answer and input, no Lab made
    assert cache.nbytes == 3 * 12 * 16 * RAW_BYTES_PER_PIXEL
    assert all(not e.reference._torch_cache for e in cache._items.values())
    _, ans, inp = problem(rng, 24, 32)  # larger than the whole budget: used, not kept
    cache.get(("id", "big"), ans, inp)
    assert ("id", "big") not in cache._items and cache.nbytes <= cache.max_bytes
    with pytest.raises(ValueError, match="cache_bytes: expected an int"):
        TargetCache(torch.device("cpu"), max_bytes=-1)
    # outputs on another device are refused, not copied
    fn = flow_grpo_pixel_miou("cpu")
    elsewhere = torch.empty((1, 3, 12, 16), device="meta")
    with pytest.raises(ValueError, match="expected a tensor on cpu .* got one on meta"):
        fn(elsewhere, [""], [{"answer": ans, "image": inp}])


def test_flow_grpo_mixed_canvas_sizes_in_one_list(rng):
    from paintkit.rewards import flow_grpo_pixel_miou

    items = [problem(rng, h, w) for h, w in [(12, 16), (16, 16), (16, 12)]]
    images = [torch.from_numpy(o).permute(2, 0, 1).float() / 255 for o, _, _ in items]
    scores, _ = flow_grpo_pixel_miou("cpu")(images, [""] * 3,
                                  [{"answer": a, "image": i} for _, a, i in items])
    expected = torch.cat([reward(o[None], a[None], i[None]) for o, a, i in items])
    torch.testing.assert_close(scores, expected, rtol=0, atol=1e-6)

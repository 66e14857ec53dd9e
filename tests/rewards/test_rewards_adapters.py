"""The trainer adapters (paintkit.rewards) agree with reward(); answers resized/letterboxed;
clear errors when the metadata lacks the answer."""

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.metrics import reward, score
from paintkit.rewards import (
    FlowFactoryPixelMIoU,
    fit_output,
    flow_grpo_pixel_miou,
    stream_pixel_miou,
    verl_pixel_miou,
)
from tests.support.metric_images import palette_pair


def problems(rng, n=3, h=12, w=16):
    pairs = [palette_pair(rng, h, w) for _ in range(n)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    out = ans.copy()
    noise = rng.random(out.shape[:3]) < 0.3
    out[noise] = rng.integers(0, 256, (int(noise.sum()), 3), dtype=np.uint8)
    return out, ans, inp


def nchw(x):
    return torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255


def test_flow_grpo_matches_reward_and_groups_samples(rng, tmp_path):
    out, ans, inp = problems(rng)
    paths = []
    for k in range(len(ans)):
        Image.fromarray(ans[k]).save(tmp_path / f"a{k}.png")
        paths.append(str(tmp_path / f"a{k}.png"))
    metadata = [{"answer": paths[k], "input": inp[k]} for k in range(3)]
    fn = flow_grpo_pixel_miou("cpu")
    scores, info = fn(nchw(out), ["edit"] * 3, metadata)
    expected = reward(out, ans, inp)
    torch.testing.assert_close(scores, expected, rtol=0, atol=1e-6)
    assert float(info["miou_mean"]) == pytest.approx(float(expected.mean()), abs=1e-6)
    # GRPO: 2 samples per prompt, interleaved as a trainer may order them
    order = [0, 1, 0, 2, 1, 2]
    again, _ = fn(nchw(out[order]), [""] * 6, [metadata[k] for k in order])
    torch.testing.assert_close(again, expected[order], rtol=0, atol=1e-6)
    assert len(fn.__closure__) > 0


def test_flow_grpo_missing_answer_is_a_clear_error(rng):
    out, ans, inp = problems(rng, n=1)
    fn = flow_grpo_pixel_miou("cpu")
    with pytest.raises(ValueError, match=r"metadata\[0\]: no answer image; expected one of the keys"):
        fn(nchw(out), ["p"], [{"input": inp[0]}])
    with pytest.raises(ValueError, match="one dict per image"):
        fn(nchw(out), ["p"], None)


def test_letterboxed_stretched_and_resized_outputs(rng):
    out, ans, inp = problems(rng, n=1, h=12, w=16)
    meta = [{"answer": ans[0], "input": inp[0]}]
    exact = float(reward(out, ans, inp)[0])
    assert exact < 0.9
    # letterboxed: the 16x12 canvas fit into 32x32 (content 32x24, 4 rows of padding each
    # side); "cover" (the SPEC normalisation) crops exactly the padding
    boxed = np.zeros((1, 32, 32, 3), np.uint8)
    boxed[0, 4:28] = np.repeat(np.repeat(out[0], 2, axis=0), 2, axis=1)
    scores, _ = flow_grpo_pixel_miou("cpu", fit="cover")(nchw(boxed), [""], meta)
    assert float(scores[0]) == pytest.approx(exact, abs=1e-6)
    # stretched: aspect ratio lost (16x12 -> 32x48); only "stretch" maps it back
    stretched = np.repeat(np.repeat(out, 4, axis=1), 2, axis=2)
    scores, _ = flow_grpo_pixel_miou("cpu", fit="stretch")(nchw(stretched), [""], meta)
    assert float(scores[0]) == pytest.approx(exact, abs=1e-6)
    cover, _ = flow_grpo_pixel_miou("cpu", fit="cover")(nchw(stretched), [""], meta)
    assert abs(float(cover[0]) - exact) > 1e-3
    with pytest.raises(ValueError, match="fit='exact'"):
        flow_grpo_pixel_miou("cpu", fit="exact")(nchw(stretched), [""], meta)
    with pytest.raises(ValueError, match="fit: expected one of"):
        flow_grpo_pixel_miou("cpu", fit="letterbox")
    assert np.array_equal(fit_output(stretched[0], (16, 12), "stretch"), out[0])
    chw = np.ascontiguousarray(stretched[0].transpose(2, 0, 1))
    verl = verl_pixel_miou("paintbench", chw, {"answer": ans[0], "input": inp[0]}, fit="stretch")
    assert verl["score"] == pytest.approx(exact, abs=1e-6)


def test_verl_compute_score(rng):
    out, ans, inp = problems(rng, n=1)
    expected = score(out, ans, inp)[0]
    chw = np.ascontiguousarray(out[0].transpose(2, 0, 1))
    result = verl_pixel_miou("paintbench", chw, {"answer": ans[0], "input": inp[0]})
    assert result["score"] == pytest.approx(expected.miou, abs=1e-12)
    assert result["missing"] is False and isinstance(result["score"], float)
    same = verl_pixel_miou("paintbench", torch.from_numpy(chw), ans[0], {"input": inp[0]})
    assert same["score"] == pytest.approx(expected.miou, abs=1e-12)
    missing = verl_pixel_miou("paintbench", None, {"answer": ans[0], "input": inp[0]})
    assert missing["score"] == 0.0 and missing["missing"] is True
    with pytest.raises(ValueError, match="ground_truth: no answer image"):
        verl_pixel_miou("paintbench", chw, {"input": inp[0]})
    with pytest.raises(ValueError, match="extra_info: no input image"):
        verl_pixel_miou("paintbench", chw, ans[0])


def test_flow_factory_reward_model(rng):
    out, ans, inp = problems(rng)
    model = FlowFactoryPixelMIoU("cpu")
    conditions = [torch.from_numpy(x).permute(2, 0, 1) for x in inp]  # (3, H, W) tensors
    answers = [torch.from_numpy(x).permute(2, 0, 1) for x in ans]
    r = model(image=nchw(out), condition_images=conditions, answer_images=answers).rewards
    torch.testing.assert_close(r, reward(out, ans, inp), rtol=0, atol=1e-6)
    as_dicts = [{"input": i, "answer": a} for i, a in zip(inp, ans, strict=True)]
    torch.testing.assert_close(model(image=nchw(out), condition_images=as_dicts).rewards, r)
    with pytest.raises(ValueError, match="sample 0: the PaintBench reward needs the answer"):
        model(image=nchw(out), condition_images=conditions)


def test_plain_reward_fn_on_stream_like_batches(rng):
    from paintkit.data import collate_problems

    items = []
    for k, (h, w) in enumerate([(12, 16), (16, 16), (12, 16)]):
        inp, ans = palette_pair(rng, h, w)
        items.append({"input": torch.from_numpy(inp), "answer": torch.from_numpy(ans),
                      "instruction": "", "metadata": {}, "index": k})
    batch = collate_problems(items)  # mixed sizes: lists
    outputs = [item["answer"] for item in items]
    torch.testing.assert_close(stream_pixel_miou(outputs, batch), torch.ones(3))
    from paintkit.rewards.plain import batch_targets

    targets = batch_targets(batch)
    torch.testing.assert_close(stream_pixel_miou([o for o in outputs for _ in range(2)], targets,
                                         samples_per_problem=2), torch.ones(6))
    with pytest.raises(ValueError, match="'answer' and 'input'"):
        stream_pixel_miou(outputs, {"input": batch["input"]})

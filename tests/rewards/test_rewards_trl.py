"""The trl adapter called as trl's GRPOTrainer / RLOOTrainer call a reward function.

trl (1.16, ``_calculate_rewards``) calls ``func(prompts=..., completions=...,
completion_ids=..., **columns)`` once per batch: ``completions`` decoded texts (strings, or
for conversational prompts a list holding one assistant message), ``columns`` every dataset
column but ``prompt`` as one list per column with each row repeated for its G generations,
plus ``trainer_state``, ``log_extra`` and ``log_metric``; vision-language rows carry their
input under ``image`` (or ``images``). It builds a float32 tensor from the returned list.
The last test runs trl's own ``GRPOTrainer`` for two steps (examples/rewards_trl_grpo.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.metrics import reward
from paintkit.rewards import trl_pixel_miou
from tests.support.metric_images import palette_pair

G = 3


def trl_call(func, prompts, completions, rows):
    """One reward call the way trl makes it (rows already repeated per generation)."""
    keys = [key for key in rows[0] if key not in ("prompt", "completion", "completion_ids")]
    columns = {key: [row[key] for row in rows] for key in keys}
    columns.update(trainer_state=object(), log_extra=lambda *a, **k: None,
                   log_metric=lambda *a, **k: None)
    out = func(prompts=prompts, completions=completions,
               completion_ids=[[1, 2]] * len(completions), **columns)
    out = [r if r is not None else torch.nan for r in out]
    return torch.tensor(out, dtype=torch.float32)


@pytest.fixture
def problems(rng):
    """Two problems; per generation a text naming which candidate image the model "drew"."""
    items = []
    for _ in range(2):
        inp, ans = palette_pair(rng, 12, 16)
        half = ans.copy()
        noise = rng.random((12, 16)) < 0.3
        half[noise] = rng.integers(0, 256, (int(noise.sum()), 3), dtype=np.uint8)
        items.append({"input": inp, "answer": ans, "half": half})
    return items


def render(text, input_image, row):
    """Texts ``answer`` / ``half`` / ``input`` / ``none`` pick an image (a stand-in for an
    edit program the policy writes)."""
    if text == "none":
        return None
    return {"input": input_image, "answer": np.asarray(row["answer"]),
            "half": row["half"]}[text]


def expected(problems, picks):
    outs = [problems[k // G]["input" if pick == "none" else pick] for k, pick in enumerate(picks)]
    return reward(np.stack(outs), np.stack([problems[k // G]["answer"] for k in range(len(picks))]),
                  np.stack([problems[k // G]["input"] for k in range(len(picks))]))


PICKS = ["answer", "half", "input", "half", "answer", "none"]


def test_plain_completions_with_answer_and_input_columns(problems):
    rows = [{"prompt": f"p{k // G}", "answer": Image.fromarray(problems[k // G]["answer"]),
             "input": Image.fromarray(problems[k // G]["input"]),
             "half": problems[k // G]["half"]} for k in range(2 * G)]
    scores = trl_call(trl_pixel_miou(render), [r["prompt"] for r in rows], PICKS, rows)
    want = expected(problems, PICKS)
    want[-1] = 0.0  # no image: the model produced nothing
    torch.testing.assert_close(scores, want, rtol=0, atol=1e-6)
    assert scores[0] == 1.0 and 0 < scores[1] < 1


def test_conversational_completions_and_the_vlm_image_column(problems):
    rows = [{"prompt": [{"role": "user", "content": "edit"}],
             "answer": problems[k // G]["answer"], "half": problems[k // G]["half"],
             "images": [Image.fromarray(problems[k // G]["input"])]} for k in range(2 * G)]
    completions = [[{"role": "assistant", "content": pick}] for pick in PICKS[:-1]]
    completions.append([{"role": "assistant", "content": [
        {"type": "image", "image": Image.fromarray(problems[1]["answer"])}]}])
    scores = trl_call(trl_pixel_miou(render), [r["prompt"] for r in rows], completions, rows)
    want = expected(problems, PICKS[:-1] + ["answer"])
    torch.testing.assert_close(scores, want, rtol=0, atol=1e-6)


def write_benchmark(root, problems):
    """A benchmark folder as ``paintkit generate`` lays it out: <task>/<NNN>.json + PNGs."""
    folder = root / "recolor"
    folder.mkdir(parents=True)
    for k, p in enumerate(problems):
        Image.fromarray(p["input"]).save(folder / f"{k:03d}_input.png")
        Image.fromarray(p["answer"]).save(folder / f"{k:03d}_answer.png")
        (folder / f"{k:03d}.json").write_text(json.dumps({"problem_id": f"recolor/{k}"}))


def test_rows_naming_their_problem_by_key(problems, tmp_path):
    write_benchmark(tmp_path, problems)
    answer_or_input = ["answer", "input", "answer", "input", "answer", "input"]
    # by problem_id, or (the other problem) by a verl-style reward_model column
    rows = [{"prompt": "p", "problem_id": "recolor/0", "reward_model": None}] * G + \
        [{"prompt": "p", "problem_id": None,
          "reward_model": {"style": "rule", "ground_truth": "recolor/1"}}] * G

    def by_key(text, input_image, row):
        pid = row["problem_id"] or row["reward_model"]["ground_truth"]
        return input_image if text == "input" else problems[int(pid.split("/")[1])]["answer"]

    fn = trl_pixel_miou(by_key, root=tmp_path)
    scores = trl_call(fn, ["p"] * 6, answer_or_input, rows)
    torch.testing.assert_close(scores, expected(problems, answer_or_input), rtol=0, atol=1e-6)
    assert len(fn.cache) == 2  # the G samples of a problem share one prepared target
    with pytest.raises(ValueError, match="root="):
        trl_call(trl_pixel_miou(by_key), ["p"] * 6, answer_or_input, rows)


def test_text_without_a_renderer_is_explained(problems):
    rows = [{"prompt": "p", "answer": problems[0]["answer"], "input": problems[0]["input"]}]
    with pytest.raises(ValueError, match="render="):
        trl_call(trl_pixel_miou(), ["p"], ["invert"], rows)
    with pytest.raises(ValueError, match="answer and input image columns"):
        trl_call(trl_pixel_miou(render), ["p"], ["answer"], [{"prompt": "p", "x": 1}])


def test_two_grpo_steps_of_trls_own_trainer():
    pytest.importorskip("trl")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "rewards_trl_grpo.py"
    spec = importlib.util.spec_from_file_location("rewards_trl_grpo", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    scores = example.main(steps=2)
    # 2 steps x 4 completions, each scored by the adapter inside trl's reward call
    assert len(scores) == 8 and all(0.0 <= s <= 1.0 for s in scores)

"""Rewards for code-writing models: trl's reward call with completions holding SVG or a chart
state (``paintkit.rewards.code.code_render``), and two steps of trl's own ``GRPOTrainer``
on a tiny offline policy whose vocabulary holds the problem's SVGs as tokens."""

from __future__ import annotations

import json
import tempfile

import numpy as np
import pytest

import paintkit
from paintkit.renderers.svg_scene import problem_svgs
from paintkit.rewards import trl_pixel_miou
from paintkit.rewards.code import code_render

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def problem():  # noqa: ANN201
    return paintkit.generate("translation", seed=1, condition="baseline")


def _columns(problem, n: int) -> dict:  # noqa: ANN001
    return {"answer": [problem.answer] * n, "input": [problem.input] * n,
            "metadata": [json.dumps(problem.metadata)] * n}


def test_svg_completions_get_the_exact_reward(problem) -> None:  # noqa: ANN001
    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    render = code_render()
    reward = trl_pixel_miou(render)
    completions = [f"```svg\n{answer_svg}\n```", [{"role": "assistant", "content": answer_svg}],
                   input_svg, "no code at all", "```svg\n<svg><text>x</text></svg>\n```"]
    scores = reward(prompts=["p"] * 5, completions=completions, **_columns(problem, 5))
    assert scores[0] == scores[1] == 1.0
    assert scores[2] <= 0.05 and scores[3] == scores[4] == 0.0
    assert render.failures == {"no code": 1, "cannot be drawn": 1}


def test_chart_state_completions_and_problem_ids(tmp_path) -> None:  # noqa: ANN001
    from paintkit.cli.main import main

    assert main(["generate", "tinygrafixbench", "--out", str(tmp_path), "--tasks",
                 "bar_chart_sort_bars", "--per-cell", "1", "--any-matplotlib"]) == 0
    meta = json.loads(next(tmp_path.rglob("000.json")).read_text())
    reward = trl_pixel_miou(code_render(root=tmp_path), root=tmp_path)
    completions = ["```json\n" + json.dumps(meta["answer_state"]) + "\n```",
                   "```json\n" + json.dumps(meta["input_state"]) + "\n```"]
    scores = reward(prompts=["p", "p"], completions=completions,
                    problem_id=[meta["problem_id"]] * 2)
    assert scores[0] == 1.0 and scores[1] <= 0.05


def test_two_grpo_steps_of_trl_on_svg_completions(problem) -> None:  # noqa: ANN001
    pytest.importorskip("trl")
    import torch
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast
    from trl import GRPOConfig, GRPOTrainer

    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    words = ["move", "the", "shape", "right", "left", "by", "pixels", answer_svg, input_svg]
    specials = ["<pad>", "<eos>", "<unk>"]
    core = Tokenizer(models.WordLevel({w: k for k, w in enumerate(specials + words)},
                                      unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", eos_token="<eos>",
                                  unk_token="<unk>")
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=64, n_embd=32,
                                       n_layer=1, n_head=2, pad_token_id=tok.pad_token_id,
                                       eos_token_id=tok.eos_token_id,
                                       bos_token_id=tok.eos_token_id))
    seen: list[float] = []
    paintbench = trl_pixel_miou(code_render())

    def reward(prompts=None, completions=None, **columns):  # noqa: ANN001, ANN202
        scores = paintbench(prompts=prompts, completions=completions, **columns)
        seen.extend(scores)
        return scores

    reward.__name__ = "paintbench_miou"
    data = Dataset.from_list([{"prompt": "move the shape right by pixels",
                               "metadata": json.dumps(problem.metadata)}] * 4)
    answer, inp = problem.answer, problem.input

    def with_images(prompts=None, completions=None, **columns):  # noqa: ANN001, ANN202
        n = len(completions)
        return reward(prompts=prompts, completions=completions, answer=[answer] * n,
                      input=[inp] * n, **columns)

    with_images.__name__ = "paintbench_miou"
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(output_dir=out, per_device_train_batch_size=4, num_generations=4,
                            max_completion_length=3, max_steps=2, learning_rate=1e-3,
                            logging_steps=1, report_to="none", use_cpu=True, save_strategy="no",
                            temperature=1.0, seed=0, dataloader_num_workers=0)
        trainer = GRPOTrainer(model=model, reward_funcs=[with_images], args=config,
                              train_dataset=data, processing_class=tok)
        trainer.train()
    assert len(seen) == 8 and all(0.0 <= s <= 1.0 for s in seen)
    # a completion holding the answer's SVG token alone scores 1.0, the input's alone as the
    # input scores, both or neither 0 (two SVG documents, no code)
    assert set(np.round(seen, 6)) <= {0.0, 1.0}, seen
    logged = [e for e in trainer.state.log_history if "rewards/paintbench_miou/mean" in e]
    assert len(logged) == 2
    assert np.isclose(np.mean(seen[:4]), logged[0]["rewards/paintbench_miou/mean"], atol=1e-6)


def test_flow_grpo_takes_svg_images(problem) -> None:  # noqa: ANN001
    from paintkit.rewards import flow_grpo_pixel_miou

    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    fn = flow_grpo_pixel_miou("cpu")
    scores, info = fn([answer_svg, input_svg], ["p", "p"],
                      [{"answer": problem.answer, "input": problem.input}] * 2)
    assert scores.tolist() == [1.0, 0.0] and float(info["miou_mean"]) == 0.5

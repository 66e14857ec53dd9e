"""Two GRPO steps of trl's own ``GRPOTrainer`` with the PaintBench reward, offline on CPU.

The policy is a tiny randomly initialised GPT-2 (one layer, 32 wide) over a word-level
vocabulary built here (no download). It reads an editing instruction and writes words; the
renderer executes the first operation word it writes (``invert`` or ``grayscale``, on every
pixel, with paintkit's point-operation kernel) on the problem's input. trl calls
:func:`paintkit.rewards.trl_pixel_miou` exactly as it calls any reward function:
``reward(prompts=..., completions=..., completion_ids=..., input=[...], answer=[...],
problem_id=[...], trainer_state=..., log_extra=..., log_metric=...)``; the dataset's
``input`` and ``answer`` columns (PIL images, how ``datasets`` returns an ``Image``
feature) give each sample its problem.

    python examples/rewards_trl_grpo.py        # about 20 s; prints the two steps' rewards
"""

from __future__ import annotations

import tempfile

import numpy as np

import paintkit
from paintkit.kernels.point_ops import point_operation_numba
from paintkit.rewards import trl_pixel_miou

WORDS = ["invert", "grayscale", "the", "colors", "of", "image", "make", "all", "pixels",
         "shapes", "background", "brighten", "darken", "by", "every", "pixel", "inside"]


def tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    specials = ["<pad>", "<eos>", "<unk>"]
    vocab = {word: k for k, word in enumerate(specials + WORDS)}
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>",
                                   eos_token="<eos>", unk_token="<unk>")


def render(text: str, input_image: np.ndarray, row: dict):
    """The edit a completion names, executed on the full input (None: it names none)."""
    for word in text.split():
        if word in ("invert", "grayscale"):
            mask = np.ones(input_image.shape[:2], bool)
            return point_operation_numba(input_image, mask, word)
    return None  # no edit: scores 0, as a missing output


def dataset(n: int = 4):
    from datasets import Dataset, Features, Image, Value
    from PIL import Image as PILImage

    rows = []
    for slot in range(n):
        problem = paintkit.generate("point_operations", slot, "baseline",
                                    "invert" if slot % 2 == 0 else "grayscale",
                                    namespace="trl_example")
        rows.append({"prompt": problem.instruction, "problem_id": f"trl_example/point_operations/{slot}",
                     "input": PILImage.fromarray(problem.input),
                     "answer": PILImage.fromarray(problem.answer)})
    features = Features({"prompt": Value("string"), "problem_id": Value("string"),
                         "input": Image(), "answer": Image()})
    return Dataset.from_list(rows, features=features)


def main(steps: int = 2) -> list[float]:
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel
    from trl import GRPOConfig, GRPOTrainer

    torch.manual_seed(0)
    tok = tokenizer()
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=512, n_embd=32,
                                       n_layer=1, n_head=2, pad_token_id=tok.pad_token_id,
                                       eos_token_id=tok.eos_token_id,
                                       bos_token_id=tok.eos_token_id))
    seen: list[float] = []
    paintbench = trl_pixel_miou(render)

    def reward(prompts=None, completions=None, **columns):  # records what trl received
        scores = paintbench(prompts=prompts, completions=completions, **columns)
        seen.extend(scores)
        return scores

    reward.__name__ = "paintbench_miou"
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(output_dir=out, per_device_train_batch_size=4, num_generations=4,
                            max_completion_length=4, max_steps=steps, learning_rate=1e-3,
                            logging_steps=1, report_to="none", use_cpu=True, save_strategy="no",
                            temperature=1.0, seed=0, dataloader_num_workers=0)
        trainer = GRPOTrainer(model=model, reward_funcs=[reward], args=config,
                              train_dataset=dataset(), processing_class=tok)
        trainer.train()
    for entry in trainer.state.log_history:
        if "rewards/paintbench_miou/mean" in entry:
            print(f"step {entry.get('step')}: mean reward "
                  f"{entry['rewards/paintbench_miou/mean']:.3f}")
    return seen


if __name__ == "__main__":
    scores = main()
    print(f"{len(scores)} completions scored; rewards {sorted(set(round(s, 3) for s in scores))}")

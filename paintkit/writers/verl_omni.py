"""``--format verl-omni``: Parquet rows as verl-omni's image-editing recipes read them.

verl(-omni)'s ``RLHFDataset`` loads the files with ``datasets.load_dataset("parquet", ...)``,
takes the chat messages of ``prompt`` (a ``<image>`` in a message's text becomes an image
part), decodes each ``{"bytes": PNG}`` of ``images`` with Pillow, and hands the rest of the
row to the reward loop, which calls ``compute_score(data_source=..., solution_image=...,
ground_truth=reward_model["ground_truth"], extra_info=...)`` per sample. Each row here:

- ``data_source``: ``"paintbench"``; ``ability``: ``"image_edit"``;
- ``prompt``: a system message and the user message ``"Picture 1: <image>" + instruction``;
  ``negative_prompt``: the same with no instruction (for classifier-free guidance);
- ``images``: ``[{"bytes": input PNG}]`` (full size; verl-omni letterboxes it itself);
- ``reward_model``: ``{"style": "rule", "ground_truth": <problem id>}``;
- ``extra_info``: ``split``, ``index``, ``problem_id``, ``task``, ``instruction``, and the
  ``answer`` and ``input`` as ``{"bytes": PNG}``: what :func:`paintkit.rewards.verl.
  compute_score` needs to score a sample from its row alone (the input is stored twice:
  the reward function is not given ``images``).
"""

from __future__ import annotations

import json

from paintkit.writers.record import EncodedProblem
from paintkit.writers.trainer_parquet import TrainerParquetWriter

DATA_SOURCE = "paintbench"
SYSTEM_PROMPT = ("You edit images. Apply the user's instruction to the input picture exactly, "
                 "and leave every pixel the instruction does not mention unchanged.")


def prompt_messages(instruction: str) -> list[dict]:
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"Picture 1: <image>{instruction}"}]


class VerlOmniWriter(TrainerParquetWriter):
    format = "verl-omni"

    def schema(self):
        import pyarrow as pa

        message = pa.struct([("role", pa.string()), ("content", pa.string())])
        png = pa.struct([("bytes", pa.binary())])
        return pa.schema([
            ("data_source", pa.string()), ("prompt", pa.list_(message)),
            ("negative_prompt", pa.list_(message)), ("ability", pa.string()),
            ("images", pa.list_(png)),
            ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
            ("extra_info", pa.struct([
                ("split", pa.string()), ("index", pa.int64()), ("problem_id", pa.string()),
                ("task", pa.string()), ("instruction", pa.string()), ("metadata", pa.string()),
                ("answer", png), ("input", png)])),
        ])

    def columns(self, rows: list[EncodedProblem]) -> dict:
        return {
            "data_source": [DATA_SOURCE] * len(rows),
            "prompt": [prompt_messages(r.instruction) for r in rows],
            "negative_prompt": [prompt_messages(" ") for _ in rows],
            "ability": ["image_edit"] * len(rows),
            "images": [[{"bytes": r.input_png}] for r in rows],
            "reward_model": [{"style": "rule", "ground_truth": r.key} for r in rows],
            "extra_info": [{"split": "train", "index": r.index, "problem_id": r.key,
                            "task": r.task, "instruction": r.instruction,
                            "metadata": json.dumps(json.loads(r.metadata_json)),
                            "answer": {"bytes": r.answer_png}, "input": {"bytes": r.input_png}}
                           for r in rows],
        }

"""``--format verl-omni``: Parquet rows as verl-omni's image-editing recipes read them.

verl(-omni)'s ``RLHFDataset`` loads the files with ``datasets.load_dataset("parquet", ...)``,
takes the chat messages of ``prompt`` (a ``<image>`` in a message's text becomes an image
part), decodes each ``{"bytes": PNG}`` of ``images`` with Pillow, and hands the rest of the
row to the reward loop, which calls ``compute_score(data_source=..., solution_image=...,
ground_truth=reward_model["ground_truth"], extra_info=...)`` per sample. Each row here:

- ``data_source``: ``"paintbench"``; ``ability``: ``"image_edit"``;
- ``prompt``: a system message and the user message ``"Picture 1: <image>" + instruction``;
  ``negative_prompt``: the same with no instruction (for classifier-free guidance);
- ``images``: ``[{"bytes": input PNG}]``, letterboxed by :func:`letterbox` into a square of
  side ``max(W, H)`` (the input's pixels unchanged, centred, white padding): verl-omni's
  Qwen-Image-Edit rollout refuses a condition image whose aspect ratio differs from the
  target's (its targets are square); a square canvas is written as it is;
- ``reward_model``: ``{"style": "rule", "ground_truth": <problem id>}``;
- ``extra_info``: ``split``, ``index``, ``problem_id``, ``task``, ``instruction``, and the
  ``answer`` and ``input`` as ``{"bytes": PNG}``: what :func:`paintkit.rewards.verl.
  compute_score` needs to score a sample from its row alone (the input is stored twice:
  the reward function is not given ``images``), and ``letterbox``: ``{"size", "left",
  "top"}``, where the canvas sits in the square.

A rollout generated at the square's size is scored with ``fit="cover"``: covering the answer
from a ``max(W, H)`` square crops exactly the padding added here (offsets ``(S - W) // 2``,
``(S - H) // 2``, as the metric's own normalisation), so the answer letterboxed this way
scores 1.0 and the benchmark's scores hold, in process (the answer and input from
``extra_info``) and on ``paintkit serve`` (the problem regenerated from its key).

verl-omni's Qwen-Image-Edit rollout takes exactly one condition image per prompt, so a
problem with reference images is refused with one line naming the formats that carry them
(:mod:`paintkit.writers.reference_limits`), never written without its references.
"""

from __future__ import annotations

import json

import numpy as np

from paintkit.io.images import decode_rgb_bytes
from paintkit.io.png_encode import encode_png
from paintkit.writers.record import EncodedProblem
from paintkit.writers.reference_limits import check_references
from paintkit.writers.trainer_parquet import TrainerParquetWriter

DATA_SOURCE = "paintbench"
SYSTEM_PROMPT = ("You edit images. Apply the user's instruction to the input picture exactly, "
                 "and leave every pixel the instruction does not mention unchanged.")


#: The colour of the padding :func:`letterbox` adds (verl-omni's own edit data preparation
#: pads with white).
PAD = 255


def letterbox(png: bytes) -> tuple[bytes, dict]:
    """``(PNG, geometry)`` of an image padded, centred, into a square of side ``max(W, H)``:
    the pixels unchanged, ``PAD`` around; a square image is returned as it is."""
    image = decode_rgb_bytes(png, "input")
    height, width = image.shape[:2]
    size = max(width, height)
    left, top = (size - width) // 2, (size - height) // 2
    geometry = {"size": size, "left": left, "top": top}
    if width == height:
        return png, geometry
    square = np.full((size, size, 3), PAD, np.uint8)
    square[top:top + height, left:left + width] = image
    return encode_png(square), geometry


def prompt_messages(instruction: str) -> list[dict]:
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"Picture 1: <image>{instruction}"}]


class VerlOmniWriter(TrainerParquetWriter):
    format = "verl-omni"
    max_references = 0
    references_why = "verl-omni's Qwen-Image-Edit rollout accepts exactly one condition image"

    def _append(self, problem: EncodedProblem) -> None:
        check_references(self, problem)
        super()._append(problem)

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
                ("answer", png), ("input", png),
                ("letterbox", pa.struct([("size", pa.int64()), ("left", pa.int64()),
                                         ("top", pa.int64())]))])),
        ])

    def columns(self, rows: list[EncodedProblem]) -> dict:
        boxed = [letterbox(r.input_png) for r in rows]
        return {
            "data_source": [DATA_SOURCE] * len(rows),
            "prompt": [prompt_messages(r.instruction) for r in rows],
            "negative_prompt": [prompt_messages(" ") for _ in rows],
            "ability": ["image_edit"] * len(rows),
            "images": [[{"bytes": png}] for png, _ in boxed],
            "reward_model": [{"style": "rule", "ground_truth": r.key} for r in rows],
            "extra_info": [{"split": "train", "index": r.index, "problem_id": r.key,
                            "task": r.task, "instruction": r.instruction,
                            "metadata": json.dumps(json.loads(r.metadata_json)),
                            "answer": {"bytes": r.answer_png}, "input": {"bytes": r.input_png},
                            "letterbox": geometry}
                           for r, (_, geometry) in zip(rows, boxed, strict=True)],
        }

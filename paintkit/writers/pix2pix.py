"""``--format pix2pix``: a Hugging Face dataset with the columns of diffusers'
``train_instruct_pix2pix.py``.

The script loads ``load_dataset(args.dataset_name)`` (a local folder works as the name) and,
without column arguments, takes the first three columns as the original image, the edit
prompt and the edited image; each image is converted to RGB and resized to
``--resolution`` there. The shards go to ``data/`` (``data/shard-NNNNNN.parquet``, beside
paintkit's manifest at the root) with the columns, in this order, ``input_image`` and
``edited_image`` as ``datasets.Image`` features (PNG bytes) around ``edit_prompt`` (the
instruction), then ``problem_id`` and ``task``. The script reads one original image per
row, so a problem with reference images is refused with one line naming the formats that
carry them (:mod:`paintkit.writers.reference_limits`).
"""

from __future__ import annotations

import json

from paintkit.layout.problem_files import answer_name, input_name
from paintkit.writers.record import EncodedProblem
from paintkit.writers.reference_limits import check_references
from paintkit.writers.trainer_parquet import TrainerParquetWriter

COLUMNS = ("input_image", "edit_prompt", "edited_image", "problem_id", "task")


class Pix2PixWriter(TrainerParquetWriter):
    format = "pix2pix"
    max_references = 0
    references_why = ("diffusers' train_instruct_pix2pix.py reads one original image column "
                      "per row")

    def _append(self, problem: EncodedProblem) -> None:
        check_references(self, problem)
        super()._append(problem)

    def shard_name(self, shard: int) -> str:
        return f"data/shard-{shard:06d}.parquet"

    def temp_folders(self):
        return [self.root / "data"]

    def schema(self):
        import pyarrow as pa

        image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
        types = {"input_image": image, "edited_image": image}
        features = {name: {"_type": "Image"} if name in types else
                    {"dtype": "string", "_type": "Value"} for name in COLUMNS}
        info = {"info": {"features": features}}
        return pa.schema([(name, types.get(name, pa.string())) for name in COLUMNS],
                         metadata={b"huggingface": json.dumps(info).encode()})

    def columns(self, rows: list[EncodedProblem]) -> dict:
        return {
            "input_image": [{"bytes": r.input_png, "path": input_name(r.key)} for r in rows],
            "edit_prompt": [r.instruction for r in rows],
            "edited_image": [{"bytes": r.answer_png, "path": answer_name(r.key)} for r in rows],
            "problem_id": [r.key for r in rows],
            "task": [r.task for r in rows],
        }

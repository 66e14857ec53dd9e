"""The problem of a Flow-Factory sample, found from what Flow-Factory hands the reward.

Flow-Factory's GRPO loop passes each dataset batch through ``filter_kwargs(adapter.inference,
...)``, and the image-edit adapters' ``inference`` takes neither ``metadata`` nor
``**kwargs``: the JSONL columns beyond ``prompt`` and ``image`` never reach the sample, so
the reward sees only the sample's own fields (``prompt`` verbatim, the generated ``image``,
the *resized* ``condition_images``, ``height``, ``width``, ``_unique_id``, ...).

:class:`PromptIndex` reads the ``{train,test}.jsonl`` that ``paintkit generate --format
flow-factory`` wrote and maps a prompt back to its line (``problem_id``, ``answer``,
``input``). When several problems share an instruction, the condition image the sample
carries picks the one whose input, resized to the same size, is nearest; a tie between
problems whose answers differ is an error, never a guess. The answer and input are then read
from the dataset's ``images/`` folder, or, where those files are absent, regenerated from the
problem key as ``paintkit serve`` does (:func:`paintkit.suites.problem_keys.problem_from_key`).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.metrics.coerce import as_images, is_tensor, tensor_to_uint8_nhwc

if TYPE_CHECKING:
    from paintkit.types import PathLike

SPLITS = ("train.jsonl", "test.jsonl")


def is_dataset_folder(folder: PathLike | None) -> bool:
    """Whether ``folder`` holds a Flow-Factory JSONL split (``train.jsonl`` / ``test.jsonl``)."""
    return folder is not None and any((Path(folder) / name).is_file() for name in SPLITS)


def condition_array(cond: Any) -> np.ndarray | None:
    """One condition image as uint8 ``(H, W, 3)``: a PIL image, a float ``(3, H, W)`` tensor
    in [0, 1] (or ``(1, 3, H, W)``), a uint8 array; a one-image list is unwrapped."""
    if isinstance(cond, list | tuple):
        if not cond:
            return None
        cond = cond[0]
    if cond is None:
        return None
    if is_tensor(cond):
        return np.asarray(tensor_to_uint8_nhwc(cond, "condition image")[0].cpu())
    return np.asarray(as_images([cond], "condition image")[0])[..., :3]


class PromptIndex:
    """``prompt`` (+ condition image) -> ``(problem_id, answer, input)`` of a paintkit
    Flow-Factory dataset folder (``<folder>/{train,test}.jsonl``, images under
    ``<folder>/images``); scanned once, on first use; thread-safe."""

    def __init__(self, folder: PathLike) -> None:
        self.folder = Path(folder)
        self._lines: dict[str, list[dict[str, Any]]] | None = None
        self._inputs: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def _scan(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        names = [self.folder / name for name in SPLITS if (self.folder / name).is_file()]
        if not names:
            raise ValueError(f"{self.folder}: no train.jsonl or test.jsonl; give the folder "
                             f"'paintkit generate --format flow-factory' wrote")
        for path in names:
            with open(path, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    if not text.strip():
                        continue
                    line = json.loads(text)
                    if not isinstance(line, dict) or not isinstance(line.get("problem_id"), str):
                        raise ValueError(f"{path}:{number}: a line without problem_id; write "
                                         f"the dataset with paintkit generate --format "
                                         f"flow-factory")
                    found.setdefault(str(line.get("prompt")), []).append(line)
        return found

    def lines(self) -> dict[str, list[dict[str, Any]]]:
        with self._lock:
            if self._lines is None:
                self._lines = self._scan()
            return self._lines

    def _image(self, line: dict[str, Any], which: str) -> Any:
        """``which`` (``"input"`` / ``"answer"``) of a line: its file's path when it exists,
        else the image regenerated from the problem key."""
        name = line.get(which) if which == "answer" else line.get("input", line.get("image"))
        if isinstance(name, str) and (self.folder / "images" / name).is_file():
            return str(self.folder / "images" / name)
        from paintkit.suites.problem_keys import problem_from_key  # skia: only when regenerated

        problem = problem_from_key(line["problem_id"])
        return problem.input if which == "input" else problem.answer

    def _input_array(self, line: dict[str, Any]) -> np.ndarray:
        pid = line["problem_id"]
        with self._lock:
            cached = self._inputs.get(pid)
        if cached is None:
            cached = np.asarray(as_images([self._image(line, "input")], "input")[0])
            with self._lock:
                self._inputs[pid] = cached
        return cached

    def find(self, prompt: Any, condition: Any = None, where: str = "sample") -> dict[str, Any]:
        """The dataset line of the sample with ``prompt`` and ``condition`` (its condition
        image, any size).

        Raises:
            ValueError: the prompt is in no line of the dataset, or several problems share it
                and the condition image cannot tell them apart (one line naming what to do).
        """
        candidates = self.lines().get(str(prompt))
        if not candidates:
            raise ValueError(f"{where}: prompt {str(prompt)[:80]!r} is in no line of "
                             f"{self.folder}/{{train,test}}.jsonl; give the dataset folder the "
                             f"trainer reads (reward option dataset=)")
        if len({c["problem_id"] for c in candidates}) == 1:
            return candidates[0]
        cond = condition_array(condition)
        if cond is None:
            raise ValueError(f"{where}: {len(candidates)} problems share prompt "
                             f"{str(prompt)[:80]!r} and the sample has no condition image to "
                             f"tell them apart")
        distances = [self._distance(self._input_array(c), cond) for c in candidates]
        order = np.argsort(distances, kind="stable")
        best, second = candidates[order[0]], candidates[order[1]]
        if distances[order[0]] == distances[order[1]] and \
                self._answer_bytes(best) != self._answer_bytes(second):
            raise ValueError(f"{where}: problems {best['problem_id']} and "
                             f"{second['problem_id']} share prompt {str(prompt)[:80]!r} and "
                             f"inputs the condition image cannot tell apart")
        return best

    def target(self, line: dict[str, Any]) -> tuple[Any, Any]:
        """``(answer, input)`` of a line: paths to the dataset's files, or regenerated arrays."""
        return self._image(line, "answer"), self._image(line, "input")

    def _answer_bytes(self, line: dict[str, Any]) -> bytes:
        return np.asarray(as_images([self._image(line, "answer")], "answer")[0]).tobytes()

    @staticmethod
    def _distance(full: np.ndarray, cond: np.ndarray) -> float:
        """Mean absolute difference of ``full`` resized to ``cond``'s size and ``cond``."""
        from PIL import Image  # Pillow: only when two problems share a prompt

        height, width = cond.shape[:2]
        small = full if full.shape[:2] == (height, width) else np.asarray(
            Image.fromarray(full[..., :3]).resize((width, height), Image.Resampling.BILINEAR))
        return float(np.abs(small[..., :3].astype(np.int16) - cond[..., :3]).mean())

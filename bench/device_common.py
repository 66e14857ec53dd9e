"""What the device check's sections share: progress lines, device synchronisation and the
real PaintBench problems they score (rendered here and carried, see ``make_problems``)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

TASKS = ("translation", "recolor", "flood_fill", "removal", "scaling", "gradient", "rotation",
         "outline")


def log(message: str) -> None:
    print(f"[device_check {time.strftime('%H:%M:%S')}] {message}", flush=True)


def synchronize(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


#: Real PaintBench problems made on the machine that fills .whl/ (bench/device_wheels.sh):
#: the GPU machine lacks the GL libraries Skia links against, so it does not render them.
PROBLEMS_FILE = Path(".whl") / "device_problems.npz"


def make_problems(path: Path, count: int = 24) -> None:
    """Write ``count`` real PaintBench problems (answers and inputs) to ``path``."""
    answers, inputs = _generate(count)
    arrays = {f"answer_{k}": a for k, a in enumerate(answers)}
    arrays.update({f"input_{k}": i for k, i in enumerate(inputs)})
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def _generate(count: int):
    import paintkit

    answers, inputs, error = [], [], None
    seed = 0
    while len(answers) < count and seed < 20 * count:
        task = TASKS[seed % len(TASKS)]
        try:
            problem = paintkit.generate(task, seed=seed)
        except Exception as exc:  # a rejected seed: the next one
            error = exc
            seed += 1
            continue
        seed += 1
        answers.append(np.ascontiguousarray(problem.answer))
        inputs.append(np.ascontiguousarray(problem.input))
    if not answers:
        raise RuntimeError(f"no problem could be generated; the last error: {error!r}")
    return answers, inputs


def benchmark_problems(count: int, size_cap: int | None):
    """Real PaintBench problems over several tasks and canvas sizes: ``(answers, inputs)``
    lists of uint8 ``(H, W, 3)`` arrays (from :data:`PROBLEMS_FILE` where it exists)."""
    source = Path(__file__).resolve().parents[1] / PROBLEMS_FILE
    if source.exists():
        with np.load(source) as data:
            n = len([k for k in data.files if k.startswith("answer_")])
            answers = [data[f"answer_{k}"] for k in range(n)][:count]
            inputs = [data[f"input_{k}"] for k in range(n)][:count]
    else:
        answers, inputs = _generate(count)
    if size_cap:
        answers = [np.ascontiguousarray(a[:size_cap, :size_cap]) for a in answers]
        inputs = [np.ascontiguousarray(i[:size_cap, :size_cap]) for i in inputs]
    return answers, inputs


def tile_to(image: np.ndarray, side: int) -> np.ndarray:
    """``image`` tiled / cropped to ``side x side`` (benchmark pixels at a training size)."""
    reps = (-(-side // image.shape[0]), -(-side // image.shape[1]), 1)
    return np.ascontiguousarray(np.tile(image, reps)[:side, :side])

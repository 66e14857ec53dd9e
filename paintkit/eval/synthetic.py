"""Synthetic benchmark + model-output trees in the standard layout, for tests, benches, demos.

Palette images with flat rectangles and discs (like PaintBench scenes), an answer that
recolours or moves one shape, and per model outputs that are exact, slightly perturbed,
resized, missing or corrupt. Deterministic in ``seed``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from paintkit.io.images import write_png
from paintkit.io.png_encode import encode_png
from paintkit.layout.outputs import output_name
from paintkit.layout.problem_files import answer_name, input_name, metadata_name, problem_stem

_PALETTE = np.array([[255, 0, 0], [255, 165, 0], [255, 255, 0], [0, 255, 0], [0, 0, 255],
                     [128, 0, 128], [255, 192, 203], [139, 69, 19], [0, 0, 0],
                     [128, 128, 128], [255, 255, 255]], dtype=np.uint8)


def _draw(img: np.ndarray, rng: np.random.Generator, shape: tuple, color) -> None:
    h, w = img.shape[:2]
    kind, x, y, s = shape
    if kind == 0:
        img[y:y + s, x:x + s] = color
    else:
        yy, xx = np.ogrid[:h, :w]
        img[(yy - y - s // 2) ** 2 + (xx - x - s // 2) ** 2 <= (s // 2) ** 2] = color


def synthetic_problem(rng: np.random.Generator, width: int, height: int, n_shapes: int = 6):
    """(input, answer) uint8 ``(H, W, 3)`` palette images with a non-empty edit region."""
    colors = rng.permutation(len(_PALETTE))
    inp = np.empty((height, width, 3), np.uint8)
    inp[:] = _PALETTE[colors[0]]
    side = max(4, min(width, height) // 5)
    shapes = [(int(rng.integers(2)), int(rng.integers(0, width - side)),
               int(rng.integers(0, height - side)), int(rng.integers(side // 2, side + 1)))
              for _ in range(n_shapes)]
    for k, shape in enumerate(shapes):
        _draw(inp, rng, shape, _PALETTE[colors[2 + k % 9]])
    answer = inp.copy()
    kind, x, y, s = shapes[-1]
    if rng.random() < 0.5:  # recolour the last shape
        _draw(answer, rng, shapes[-1], _PALETTE[colors[1]])
    else:  # move it
        _draw(answer, rng, shapes[-1], _PALETTE[colors[0]])
        nx = min(width - s, x + max(2, width // 10))
        _draw(answer, rng, (kind, nx, y, s), _PALETTE[colors[2 + (n_shapes - 1) % 9]])
    if np.array_equal(answer, inp):
        answer[0, 0] = 255 - answer[0, 0]
    return inp, answer


def model_output(rng: np.random.Generator, answer: np.ndarray, inp: np.ndarray, style: str):
    """An output of one ``style``: exact, noisy, partial, resized (see module docstring)."""
    if style == "exact":
        return answer
    if style == "noisy":  # right layout, colours off by a few units (ΔE near tolerances)
        noise = rng.integers(-3, 4, answer.shape)
        return np.clip(answer.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    if style == "partial":  # half the edit done, a stray blob elsewhere
        out = inp.copy()
        h = answer.shape[0] // 2
        out[:h] = answer[:h]
        y, x = (int(v) for v in rng.integers(0, [answer.shape[0] - 3, answer.shape[1] - 3]))
        out[y:y + 3, x:x + 3] = 17
        return out
    if style == "resized":
        return answer[::2, ::2]
    raise ValueError(f"style: expected exact, noisy, partial or resized, got {style!r}")


def write_synthetic_tree(
    root,
    *,
    problems: int = 24,
    tasks: int = 4,
    width: int = 64,
    height: int = 64,
    models: tuple[str, ...] = ("exact", "noisy", "partial"),
    benchmark: str = "PaintBench",
    seed: int = 0,
    missing_every: int = 17,
    corrupt_every: int = 29,
    resized_every: int = 13,
) -> tuple[Path, Path]:
    """Write ``root/benchmarks`` and ``root/outputs``; returns both paths.

    Model names double as output styles (unknown names behave like ``noisy``). Every
    ``missing_every``-th output is absent, every ``corrupt_every``-th is truncated bytes,
    every ``resized_every``-th is half size.
    """
    root = Path(root)
    bench_root, out_root = root / "benchmarks", root / "outputs"
    rng = np.random.default_rng(seed)
    for n in range(problems):
        task, idx = f"task_{n % tasks}", n // tasks
        folder = bench_root / benchmark / task
        inp, answer = synthetic_problem(rng, width, height)
        stem = problem_stem(idx)
        write_png(folder / input_name(stem), inp)
        write_png(folder / answer_name(stem), answer)
        meta = {"instruction": "synthetic edit", "task": task, "mode": "default",
                "visual_condition": "baseline", "category": "synthetic",
                "problem_id": f"{task}_{stem}", "seed": seed * 100003 + n, "W": width,
                "H": height, "bg_colors": ["#" + bytes(inp[0, 0]).hex().upper()]}
        (folder / metadata_name(stem)).write_text(json.dumps(meta), encoding="utf-8")
        for m, model in enumerate(models):
            path = out_root / model / benchmark / task / output_name(idx)
            path.parent.mkdir(parents=True, exist_ok=True)
            k = n + 7 * m
            if missing_every and k % missing_every == missing_every - 1:
                continue
            style = model if model in ("exact", "noisy", "partial", "resized") else "noisy"
            if resized_every and k % resized_every == resized_every - 1:
                style = "resized"
            data = encode_png(model_output(rng, answer, inp, style), "imagecodecs")
            if corrupt_every and k % corrupt_every == corrupt_every - 1:
                data = data[: len(data) // 2]
            path.write_bytes(data)
    return bench_root, out_root

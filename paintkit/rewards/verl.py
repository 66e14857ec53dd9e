"""verl-omni style reward: ``verl_pixel_miou(data_source, solution_image, ground_truth, ...)``.

verl-omni's reward loop scores each sample in its own asyncio task and calls a synchronous
reward function per sample (by default the one named ``compute_score`` in the file its
config names: this module keeps that name for :func:`verl_pixel_miou`), several at once from
worker threads; this function is safe to call that way (see docs/rewards.md, "Threads,
asyncio and fork"). The solution is one generated image, uint8 ``(C, H, W)`` (or float in
[0, 1], or ``(H, W, C)``, a PIL image, encoded bytes or a path); the ground truth carries
the answer and the input: a dict with any of the answer keys (``answer``, ``answer_path``,
...) and input keys (``input``, ``input_path``, ...), each a path, encoded bytes, a
``{"bytes": ..., "path": ...}`` dict (parquet / ``datasets`` images), an array or a tensor;
or the answer itself with the input in ``extra_info``; or the problem's key (a string) with
the answer and the input in ``extra_info``, as ``paintkit generate --format verl-omni``
writes its rows.

Core verl (0.9.1) passes ``solution_str=`` (decoded text) and no image: a text that holds an
SVG (a code-editing model's completion) is drawn and scored, as ``paintkit eval`` scores an
``NNNN_output.svg`` (no usable SVG in it: a missing output, score 0, with the reason); any
other text is refused with that explanation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from paintkit.code_outputs import NoCode, extract_code
from paintkit.kernels import numba_lock
from paintkit.metrics.batch_scoring import score
from paintkit.metrics.coerce import as_images
from paintkit.metrics.fit import DEFAULT_FIT, check_fit, fit_output
from paintkit.rewards.metadata_images import ANSWER_KEYS, INPUT_KEYS, find, resolve

if TYPE_CHECKING:
    from paintkit.types import ImageLike


def verl_pixel_miou(data_source: str | None = None, solution_image: ImageLike | None = None,
                    ground_truth: Any = None, extra_info: dict[str, Any] | None = None, *,
                    fit: str = DEFAULT_FIT, solution_str: Any = None, **kwargs: Any
                    ) -> dict[str, Any]:
    """Score one edited image; returns ``{"score": mIoU, "iou_5": ..., "edit_accuracy":
    mean over t, "preservation_accuracy": mean over t, "missing": bool}``.

    A ``solution_image`` of None (the model produced nothing) scores 0 as missing.
    ``fit``: default ``"exact"`` (another size is an error naming the choices), as on every
    reward path; ``"cover"`` maps back a letterboxed output (see :mod:`paintkit.metrics.fit`).
    Extra keyword arguments are ignored (verl passes its own).
    Thread-safe: calls from several threads at once give what sequential calls give.
    """
    check_fit(fit)
    if solution_image is None and solution_str is not None:
        if isinstance(solution_str, str):
            if "<svg" not in solution_str.lower():
                raise ValueError("solution_str: got decoded text with no SVG; the PaintBench "
                                 "reward scores the generated image (solution_image=...) or an "
                                 "SVG in the text. Core verl's text reward loop passes no image: "
                                 "use verl-omni's image reward loop")
            try:  # a code model's completion: its SVG, drawn under the benchmark's rules
                solution_image = cast(Any, extract_code(solution_str, "svg"))  # drawn by as_images
            except NoCode as exc:  # the model wrote no usable code: a missing output
                return {"score": 0.0, "iou_5": 0.0, "edit_accuracy": 0.0,
                        "preservation_accuracy": 0.0, "missing": True, "reason": str(exc)}
        else:
            solution_image = solution_str
    extra_info = extra_info or {}
    if isinstance(ground_truth, dict) and not ({"bytes", "path"} >= set(ground_truth)):
        answer = find(ground_truth, ANSWER_KEYS, "answer", "ground_truth")
        inp = next((ground_truth[k] for k in INPUT_KEYS if ground_truth.get(k) is not None),
                   None)
        if inp is None:
            inp = find(extra_info, INPUT_KEYS, "input", "ground_truth / extra_info")
    elif ground_truth is None:
        raise ValueError(f"ground_truth: expected the answer image or a dict with 'answer' and "
                         f"'input' (data_source {data_source!r}), got None")
    elif isinstance(ground_truth, str) and isinstance(extra_info, dict) and \
            any(extra_info.get(key) is not None for key in ANSWER_KEYS):
        # a problem key (``paintkit generate --format verl-omni`` rows): images in extra_info
        answer = find(extra_info, ANSWER_KEYS, "answer", "extra_info")
        inp = find(extra_info, INPUT_KEYS, "input", "extra_info")
    else:
        answer = ground_truth
        inp = find(extra_info, INPUT_KEYS, "input", "extra_info")
    answer, inp = resolve(answer), resolve(inp)
    with numba_lock():  # a no-op with Numba's thread-safe TBB layer
        out: Any = None
        if solution_image is not None:
            if isinstance(solution_image, np.ndarray) and solution_image.ndim == 3 \
                    and solution_image.shape[0] in (1, 3, 4) \
                    and solution_image.shape[-1] not in (3, 4):
                solution_image = solution_image.transpose(1, 2, 0)  # CHW -> HWC
            if isinstance(solution_image, np.ndarray) and solution_image.shape[-1] == 4:
                solution_image = solution_image[..., :3]  # RGBA: alpha dropped (metric §1)
            out = as_images([resolve(solution_image)], "solution_image")[0]
            a: Any = as_images([answer], "ground_truth")[0]
            out = fit_output(out, (int(a.shape[1]), int(a.shape[0])), fit, "solution_image")
            answer = a
        result = score([out], [answer], [inp])[0]
    return {"score": result.miou, "iou_5": result.iou[5],
            "edit_accuracy": sum(result.edit_accuracy) / 11,
            "preservation_accuracy": sum(result.preservation_accuracy) / 11,
            "missing": not result.has_output}


#: The name verl-omni's reward config looks up by default (``custom_reward_function.name``,
#: ``reward_functions.<name>.name``): the same function as :func:`verl_pixel_miou`.
compute_score = verl_pixel_miou

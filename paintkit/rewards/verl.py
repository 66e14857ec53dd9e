"""verl style reward: ``compute_score(data_source, solution_image, ground_truth, ...)``.

verl's reward manager calls a ``compute_score`` function per sample. Here the solution is
one generated image, uint8 ``(C, H, W)`` (or float in [0, 1], or ``(H, W, C)``), and the
ground truth carries the answer and input images: a dict ``{"answer": ..., "input": ...}``
(paths, arrays or tensors), or the answer itself with ``extra_info["input"]``.
"""

from __future__ import annotations

from paintkit.rewards._common import ANSWER_KEYS, INPUT_KEYS, find
from paintkit.rewards.fit import check_fit, fit_output


def compute_score(data_source, solution_image, ground_truth, extra_info=None, *,
                  fit: str = "cover", **kwargs) -> dict:
    """Score one edited image; returns ``{"score": mIoU, "iou_5": ..., "edit_accuracy":
    mean over t, "preservation_accuracy": mean over t, "missing": bool}``.

    A ``solution_image`` of None (the model produced nothing) scores 0 as missing.
    ``fit``: see :mod:`paintkit.rewards.fit`. Extra keyword arguments are ignored (verl
    passes its own).
    """
    import numpy as np

    from paintkit.metrics.coerce import as_images
    from paintkit.metrics.score import score

    check_fit(fit)
    extra_info = extra_info or {}
    if isinstance(ground_truth, dict):
        answer = find(ground_truth, ANSWER_KEYS, "answer", "ground_truth")
        inp = ground_truth.get("input")
        if inp is None:
            inp = find(extra_info, INPUT_KEYS, "input", "ground_truth / extra_info")
    elif ground_truth is None:
        raise ValueError(f"ground_truth: expected the answer image or a dict with 'answer' and "
                         f"'input' (data_source {data_source!r}), got None")
    else:
        answer = ground_truth
        inp = find(extra_info, INPUT_KEYS, "input", "extra_info")
    out = None
    if solution_image is not None:
        if isinstance(solution_image, np.ndarray) and solution_image.ndim == 3 \
                and solution_image.shape[0] in (1, 3, 4) and solution_image.shape[-1] not in (3, 4):
            solution_image = solution_image.transpose(1, 2, 0)  # CHW -> HWC
        if isinstance(solution_image, np.ndarray) and solution_image.shape[-1] == 4:
            solution_image = solution_image[..., :3]  # RGBA: alpha dropped (docs/metric-definition.md §1)
        out = as_images([solution_image], "solution_image")[0]
        a = as_images([answer], "ground_truth")[0]
        out = fit_output(out, (int(a.shape[1]), int(a.shape[0])), fit)
        answer = a
    result = score([out], [answer], [inp])[0]
    return {"score": result.miou, "iou_5": result.iou[5],
            "edit_accuracy": sum(result.edit_accuracy) / 11,
            "preservation_accuracy": sum(result.preservation_accuracy) / 11,
            "missing": not result.has_output}

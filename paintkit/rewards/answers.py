"""What a reward service's answer must be before :class:`~paintkit.rewards.client.RewardClient`
believes it: one result per item asked, in the items' order, each naming the item's
``problem_id`` (the batch protocol, :mod:`paintkit.serve.protocol`, answers in item order),
and each reward (and per-tolerance IoU) a finite JSON number in [0, 1]; anything else is
:class:`RemoteRewardError`, never a reward given to another sample or a NaN in a loss."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: Bytes of an answer besides its results (an error line, the metric version), and of one
#: item's result besides 12 bytes a character of its ``problem_id`` (JSON escapes, the id
#: repeated in an error line): the most a client reads of an answer (:func:`answer_limit`).
ANSWER_BASE_BYTES = 64 << 10
ITEM_ANSWER_BYTES = 4 << 10


def answer_limit(problem_ids: Sequence[str]) -> int:
    """The most bytes an answer for ``problem_ids`` can take (with the per-tolerance IoUs
    and an error line per item); a longer answer is refused unread beyond this bound."""
    return ANSWER_BASE_BYTES + sum(ITEM_ANSWER_BYTES + 12 * len(pid) for pid in problem_ids)


class RemoteRewardError(RuntimeError):
    """The service could not be reached, failed after the retries, or answered something
    that is not a reward for what was asked."""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def load_answer(data: bytes, where: str) -> Any:
    """The JSON of an answer; :class:`RemoteRewardError` when it is not JSON."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise RemoteRewardError(f"{where} answered {len(data)} bytes that are not JSON") from None


def batch_results(body: Any, problem_ids: Sequence[str], where: str) -> list[dict[str, Any]]:
    """The ``results`` of a batch answer, checked to be one per item, in item order:
    ``results[k]["problem_id"]`` is ``problem_ids[k]``."""
    results = body.get("results") if isinstance(body, dict) else None
    if not isinstance(results, list):
        raise RemoteRewardError(f"{where} answered no results list (got {_short(body)})")
    if len(results) != len(problem_ids):
        raise RemoteRewardError(f"{where} answered {len(results)} results for "
                                f"{len(problem_ids)} items")
    for k, (result, pid) in enumerate(zip(results, problem_ids, strict=True)):
        if not isinstance(result, dict):
            raise RemoteRewardError(f"{where} answered results[{k}] = {_short(result)}, "
                                    f"not an object")
        if result.get("problem_id") != pid:
            raise RemoteRewardError(f"{where} answered results[{k}] is for "
                                    f"{_short(result.get('problem_id'))}, items[{k}] is "
                                    f"{pid!r}: results out of order are never re-assigned")
    return results


def single_result(body: Any, problem_id: str, where: str) -> dict[str, Any]:
    """The single-image endpoint's answer, checked to name ``problem_id``."""
    if not isinstance(body, dict):
        raise RemoteRewardError(f"{where} answered {_short(body)}, not an object")
    if body.get("problem_id") != problem_id:
        raise RemoteRewardError(f"{where} answered a reward for "
                                f"{_short(body.get('problem_id'))}, asked for {problem_id!r}")
    return body


#: Per-tolerance IoUs of one item (t = 0..10).
FIGURES = 11


def check_reward(value: Any, where: str) -> float:
    """``value`` if it is a JSON number (not a bool, not a string) that is finite and in
    [0, 1], as a float; else :class:`RemoteRewardError` naming it."""
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise RemoteRewardError(f"{where} is {_short(value)}: a reward is a finite number "
                                f"in [0, 1]")
    return float(value)


def check_figures(value: Any, where: str) -> list[float]:
    """The 11 per-tolerance IoUs of an item, each checked as :func:`check_reward`."""
    if not isinstance(value, list) or len(value) != FIGURES:
        raise RemoteRewardError(f"{where} is {_short(value)}: expected a list of {FIGURES} IoUs")
    return [check_reward(v, f"{where}[{t}]") for t, v in enumerate(value)]


def batch_rewards(data: bytes, problem_ids: Sequence[str], tolerance_figures: bool,
             where: str, redact: Callable[[str], str] = str
             ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Rewards float32 ``(B,)`` (and IoUs ``(B, 11)``) from a batch answer's bytes, its
    results matched to the items asked (:func:`batch_results`) and checked; an item the
    service refused is ``ValueError`` (its reason through ``redact``)."""
    results = batch_results(load_answer(data, where), problem_ids, where)
    errors = [f"{r['problem_id']}: {r['error']}" for r in results if r.get("error") is not None]
    if errors:
        raise ValueError(redact(f"{len(errors)} of {len(results)} items not scored: "
                                + "; ".join(errors[:5])))
    rewards = np.array([check_reward(r.get("reward"), f"{where}: results[{k}].reward")
                        for k, r in enumerate(results)], dtype=np.float32)
    if tolerance_figures:
        return rewards, np.array([check_figures(r.get("iou"), f"{where}: results[{k}].iou")
                                  for k, r in enumerate(results)], dtype=np.float32)
    return rewards

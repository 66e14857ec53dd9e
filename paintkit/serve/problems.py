"""Problem keys -> prepared targets: read from a benchmark tree or regenerated, then cached.

The G samples of one prompt (and every later step) name the same ``problem_id``: its
:class:`~paintkit.metrics.Targets` (answer and input, their L*a*b* and the edit mask, on
the scoring device) is prepared once and kept in a byte-bounded least-recently-used cache
(:class:`paintkit.rewards.TargetCache`, the one the in-process adapters use).
"""

from __future__ import annotations

from paintkit.rewards import ProblemIndex, TargetCache
from paintkit.suites.problem_keys import ProblemKey, ProblemKeyError, problem_from_key


class ProblemTargets:
    """``problem_id`` -> prepared targets on ``device``.

    Args:
        device: the scoring device (a ``torch.device``).
        cache_bytes: bytes of prepared problems kept on the device.
        benchmarks: a benchmark folder (``paintkit generate`` layout) to read problems from;
            None regenerates each problem from its key (:func:`problem_from_key`).
        max_pixels: keys asking for a larger canvas are refused before anything is drawn.
    """

    def __init__(self, device, cache_bytes: int, benchmarks=None, max_pixels: int | None = None):
        self.cache = TargetCache(device, cache_bytes)
        self.max_pixels = max_pixels
        # errors name "the --benchmarks tree", never where the server's files live
        self.index = None if benchmarks is None else \
            ProblemIndex(benchmarks, label="the service's --benchmarks tree")

    @property
    def damaged(self) -> list[str]:
        """``"<path under the tree> (why)"`` of each problem file that could not be read."""
        return [] if self.index is None else \
            [f"{name} ({why})" for name, why in self.index.damaged.items()]

    def get(self, problem_id: str):
        """The prepared :class:`~paintkit.metrics.Targets` (one problem) of ``problem_id``.

        Raises:
            ProblemKeyError: a malformed key, or one naming no problem (here or in the tree).
        """
        if not isinstance(problem_id, str) or not problem_id:
            raise ProblemKeyError(f"problem_id: expected a non-empty string, got {problem_id!r}")
        try:
            return self.cache.get(("id", problem_id), load=lambda: self._load(problem_id))
        except (OSError, ValueError) as exc:  # a file of the tree: named under the tree only
            if self.index is None or str(self.index.root.resolve()) not in str(exc) and \
                    str(self.index.root) not in str(exc):
                raise
            text = " ".join(str(exc).split())
            for root in (str(self.index.root.resolve()), str(self.index.root)):
                text = text.replace(root + "/", "").replace(root, "the --benchmarks tree")
            raise ProblemKeyError(f"problem_id {problem_id!r}: {text}") from None

    def cached(self, problem_id: str):
        """The prepared targets of ``problem_id`` if they are ready now, else None (never
        waits, reads or regenerates: safe on the event loop)."""
        return self.cache.peek(("id", problem_id)) if isinstance(problem_id, str) else None

    def _load(self, problem_id: str):
        """``(answer, input)`` of ``problem_id``: paths in the tree, or arrays regenerated."""
        if self.index is not None:
            try:
                inp, answer = self.index.paths(problem_id)
            except ValueError as exc:
                raise ProblemKeyError(str(exc)) from None
            return answer, inp
        ProblemKey.parse(problem_id)  # a malformed key fails before any import of generators
        problem = problem_from_key(problem_id, max_pixels=self.max_pixels)
        return problem.answer, problem.input

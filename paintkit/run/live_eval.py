"""``paintkit run --results DIR``: score each output as it lands, into ``DIR/problem_stats.jsonl``.

The rows are the ones ``paintkit eval`` writes (same scoring function, same resumable
file, same lock), so ``paintkit eval``, ``stats`` and ``report`` read them unchanged. The
scorer holds the results folder's lock for the whole run and scores in one background
thread, so the model never waits for it. A problem whose output failed is scored as
missing (like ``paintkit eval`` does); the next run replaces the row when the output
appears.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from paintkit.eval.problem import score_problem
from paintkit.eval.runner import check_one_delta_e, needs_scoring
from paintkit.io.folder_lock import FolderLock
from paintkit.layout.benchmark import BenchmarkProblem
from paintkit.layout.problem_stats import ResultsWriter, load_results, remove_stale_temporaries
from paintkit.layout.results import EVAL_LOCK_NAME, PROBLEM_STATS_NAME

if TYPE_CHECKING:
    from paintkit.types import PathLike

_STOP = object()


class LiveScorer:
    """Scores problems of one model folder into ``out_dir`` while a run goes on.

    Args:
        out_dir: the results folder (locked until :meth:`close`).
        outputs_root, folder: where the outputs are (``<outputs_root>/<folder>/...``).
        done: problems whose outputs were there before the run (scored now if their row is
            absent or stale); ``todo``: problems this run will produce (their old rows go).
    """

    def __init__(self, out_dir: PathLike, outputs_root: PathLike, folder: str,
                 done: list[BenchmarkProblem], todo: list[BenchmarkProblem]) -> None:
        self.out_dir, self.outputs_root, self.folder = Path(out_dir), Path(outputs_root), folder
        self.results_path = self.out_dir / PROBLEM_STATS_NAME
        self.lock = FolderLock(self.out_dir, EVAL_LOCK_NAME, "paintkit eval")
        self.scored = 0
        self.error: BaseException | None = None
        try:
            remove_stale_temporaries(self.results_path)
            loaded = load_results(self.results_path)
            check_one_delta_e(loaded.rows, "cie76", self.results_path)
            stale = {p.key(folder) for p in todo} & set(loaded.rows)
            keep = None
            if stale or loaded.needs_rewrite:
                keep = [r for k, r in loaded.rows.items() if k not in stale]
            self.writer = ResultsWriter(self.results_path, keep=keep)
        except BaseException:
            self.lock.release()
            raise
        self.queue: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._work, name="paintkit-run-eval", daemon=True)
        self.thread.start()
        for problem in done:
            row = loaded.rows.get(problem.key(folder))
            if needs_scoring(row, problem.output_path(self.outputs_root, folder)):
                self.submit(problem)

    def submit(self, problem: BenchmarkProblem) -> None:
        self.queue.put(problem)

    def _work(self) -> None:
        while True:
            problem = self.queue.get()
            if problem is _STOP:
                return
            if self.error is not None:
                continue
            try:
                for row in score_problem(problem, [self.folder], self.outputs_root):
                    self.writer.write(row)
                    self.scored += 1
            except BaseException as exc:  # noqa: BLE001 - reported by close()
                self.error = exc

    def close(self) -> None:
        """Wait for the queued problems, close the file, drop the lock; re-raise a scoring
        error (a broken benchmark file) after the outputs are safe."""
        self.queue.put(_STOP)
        self.thread.join()
        self.writer.close()
        self.lock.release()
        if self.error is not None:
            raise self.error

"""``paintkit run --engine ray``: the batches of a run sharded over Ray workers.

One actor per GPU of the cluster (``num_gpus=1`` each), or ``workers`` CPU actors where
there is none; each builds its own model once (``build()``, a picklable zero-argument
function) and writes its outputs atomically into the shared outputs folder. Each problem's
seed depends only on the run seed and the problem, so the files are the same whatever the
number of workers. The driver holds the folder lock, writes the log and the manifest, and
hands the next batch to whichever worker is free.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from paintkit.engines.ray_engine import connect
from paintkit.run.batch_outputs import produce_batch

if TYPE_CHECKING:
    from paintkit.layout.benchmark import BenchmarkProblem
    from paintkit.run.interface import EditModel
    from paintkit.run.planner import Planner
    from paintkit.types import PathLike


def _worker_class(ray: Any) -> Any:
    @ray.remote
    class EditWorker:
        def __init__(self, build: Callable[[], EditModel]) -> None:
            self.model = build()

        def produce(self, batch: list[BenchmarkProblem], outputs_root: PathLike, folder: str,
                    seed: int, planner: Planner | None) -> list[dict]:
            return produce_batch(self.model, batch, outputs_root, folder, seed, planner)

        def usage(self) -> dict:
            return self.model.usage_summary()

        def describe(self) -> dict:
            return self.model.describe()

    return EditWorker


def run_on_ray(build: Callable[[], EditModel], batches: Sequence[list[BenchmarkProblem]],
               outputs_root: PathLike, folder: str, seed: int, planner: Planner | None,
               workers: int | None, consume: Callable[[list[dict]], object],
               address: str | None = None) -> tuple[int, dict | None]:
    """Run ``batches`` on Ray actors; ``consume(records)`` per batch, in completion order.

    ``address``: a running cluster (``auto`` or ``host:port``); without one, and without a
    Ray session already started by the caller, a local instance is started for the run and
    shut down after it. Returns the number of workers and the model's description (from
    the first worker; None when there was nothing to do).
    """
    try:
        import ray
    except ImportError:
        raise ValueError("--engine ray needs Ray: pip install 'paintkit[ray]'") from None
    if not callable(build):
        raise ValueError("--engine ray needs a model builder (a picklable function), "
                         "not a built model")
    if workers is not None and workers < 1:
        raise ValueError(f"workers: expected a positive number, got {workers}")
    owns = False
    if not ray.is_initialized():
        connect(ray, address, workers)  # no address: an instance of the run's own
        owns = True
    try:
        gpus = int(ray.cluster_resources().get("GPU", 0))
        count = min(workers or gpus or 1, max(1, len(batches)))
        if not batches:
            return count, None
        return count, _drive(ray, build, batches, outputs_root, folder, seed, planner, count,
                             {"num_gpus": 1} if gpus else {"num_cpus": 1}, consume)
    finally:
        if owns:
            ray.shutdown()


def _drive(ray: Any, build: Callable[[], EditModel], batches: Sequence[list[BenchmarkProblem]],
           outputs_root: PathLike, folder: str, seed: int, planner: Planner | None, count: int,
           resources: dict[str, int], consume: Callable[[list[dict]], object]) -> dict:
    worker = _worker_class(ray)
    actors = [worker.options(**resources).remote(build) for _ in range(count)]
    description = None
    queue = deque(batches)
    running: dict[Any, Any] = {}

    def feed(actor: Any) -> None:
        if queue:
            ref = actor.produce.remote(queue.popleft(), outputs_root, folder, seed, planner)
            running[ref] = actor

    try:
        for actor in actors:
            feed(actor)
        description = ray.get(actors[0].describe.remote())
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            actor = running.pop(ready[0])
            consume(ray.get(ready[0]))
            feed(actor)
    finally:
        for actor in actors:
            ray.kill(actor)
    return description

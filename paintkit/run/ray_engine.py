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


def _worker_class(ray):
    @ray.remote
    class EditWorker:
        def __init__(self, build):
            self.model = build()

        def produce(self, batch, outputs_root, folder, seed, planner):
            from paintkit.run.produce import produce_batch

            return produce_batch(self.model, batch, outputs_root, folder, seed, planner)

        def usage(self):
            return self.model.usage_summary()

    return EditWorker


def run_on_ray(build, batches, outputs_root, folder, seed, planner, workers, consume) -> None:
    """Run ``batches`` on Ray actors; ``consume(records)`` per batch, in completion order."""
    try:
        import ray
    except ImportError:
        raise ValueError("--engine ray needs Ray: pip install 'paintkit[ray]'") from None
    if not callable(build):
        raise ValueError("--engine ray needs a model builder (a picklable function), "
                         "not a built model")
    if not ray.is_initialized():
        ray.init(address="auto" if _cluster_address() else None, include_dashboard=False,
                 log_to_driver=False)
    gpus = int(ray.cluster_resources().get("GPU", 0))
    count = workers or gpus or 1
    if count < 1:
        raise ValueError(f"workers: expected a positive number, got {count}")
    if not batches:
        return
    per_worker = {"num_gpus": 1} if gpus else {"num_cpus": 1}
    worker = _worker_class(ray)
    actors = [worker.options(**per_worker).remote(build) for _ in range(min(count, len(batches)))]
    queue = deque(batches)
    running = {}
    for actor in actors:
        if queue:
            running[actor.produce.remote(queue.popleft(), outputs_root, folder, seed,
                                         planner)] = actor
    try:
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            actor = running.pop(ready[0])
            consume(ray.get(ready[0]))
            if queue:
                running[actor.produce.remote(queue.popleft(), outputs_root, folder, seed,
                                             planner)] = actor
    finally:
        for actor in actors:
            ray.kill(actor)


def _cluster_address() -> bool:
    import os

    return bool(os.environ.get("RAY_ADDRESS"))

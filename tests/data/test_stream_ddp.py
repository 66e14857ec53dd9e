"""ProblemStream under DDP: two gloo processes on 127.0.0.1 (a free port), as torchrun or
``accelerate launch`` would start them.

Each rank steps through its DataLoader and all-reduces once per batch, as DDP's backward
does: a rank with one step more than the others would wait forever (the test's timeout
catches it). Through ``accelerator.prepare`` the stream must neither lose nor repeat
problems beyond accelerate's own padding of the last batches.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import timedelta

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.utils.data import DataLoader

from paintkit.data import ProblemStream, collate_problems
from paintkit.suites import Suite

WORLD = 2
SUITE = Suite(tasks=("translation",), conditions=("baseline",), per_cell=8, namespace="ddp")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(target, tmp_path, *args):
    """Run ``target(rank, out_path, *args)`` in WORLD spawned processes; their JSON results."""
    port = free_port()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_rank_main, args=(target, rank, port, str(tmp_path), args))
             for rank in range(WORLD)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    alive = [p for p in procs if p.is_alive()]
    for p in alive:
        p.kill()
    assert not alive, "a rank hung (unequal steps?)"
    results = []
    for rank in range(WORLD):
        path = tmp_path / f"rank{rank}.json"
        assert path.exists(), f"rank {rank} wrote nothing (exit code {procs[rank].exitcode})"
        results.append(json.loads(path.read_text()))
    return results


def _rank_main(target, rank, port, folder, args):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(WORLD), LOCAL_RANK=str(rank), LOCAL_WORLD_SIZE=str(WORLD))
    torch.set_num_threads(1)
    try:
        result = target(rank, *args)
    except Exception as exc:  # reported to the test, not lost in the child
        result = {"error": f"{type(exc).__name__}: {exc}"}
    with open(os.path.join(folder, f"rank{rank}.json"), "w") as f:
        json.dump(result, f)


def _steps(loader) -> list:
    """Iterate ``loader`` as a DDP loop does: one collective per batch."""
    seen = []
    for batch in loader:
        dist.all_reduce(torch.ones(1))  # stands in for DDP's gradient all-reduce
        seen.append(list(batch["index"]))
    return seen


def ddp_plain(rank, uneven, workers):
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    try:
        stream = ProblemStream(SUITE, start=len(SUITE) - 5, batch_size=2, uneven=uneven)
        loader = DataLoader(stream, batch_size=None, num_workers=workers)
        return {"len": len(loader), "batches": _steps(loader)}
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("uneven, workers", [
    ("pad", 0), pytest.param("drop", 0, marks=pytest.mark.slow),
    ("pad", 2),  # spawned workers: no process group there, the rank travels with the stream
])
def test_unequal_shares_step_together(tmp_path, uneven, workers):
    # 5 problems, batches of 2 -> 3 batches for 2 ranks
    results = run_ranks(ddp_plain, tmp_path, uneven, workers)
    assert all("error" not in r for r in results), results
    first = len(SUITE) - 5
    steps = [len(r["batches"]) for r in results]
    assert steps[0] == steps[1] == results[0]["len"] == results[1]["len"]
    seen = sorted(i for r in results for b in r["batches"] for i in b)
    if uneven == "pad":  # every problem, and the first batch once more on the short rank
        assert steps == [2, 2]
        assert seen == sorted([*range(first, first + 5), first, first + 1])
    else:
        assert steps == [1, 1] and seen == list(range(first, first + 4))


def accelerate_run(rank, dispatch, n_items, drop_last):
    from accelerate import Accelerator, DataLoaderConfiguration

    os.environ["ACCELERATE_USE_CPU"] = "true"
    accelerator = Accelerator(cpu=True, dataloader_config=DataLoaderConfiguration(
        dispatch_batches=dispatch))
    try:
        stream = ProblemStream(SUITE, start=len(SUITE) - n_items)
        loader = accelerator.prepare(DataLoader(stream, batch_size=2, drop_last=drop_last,
                                                collate_fn=collate_problems))
        return {"len": len(loader), "batches": _steps(loader)}
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("n_items, drop_last", [
    pytest.param(8, False, marks=pytest.mark.slow), (5, False),
    pytest.param(5, True, marks=pytest.mark.slow)])
def test_accelerate_prepare_keeps_every_problem_once(tmp_path, n_items, drop_last):
    results = run_ranks(accelerate_run, tmp_path, False, n_items, drop_last)
    assert all("error" not in r for r in results), results
    first = len(SUITE) - n_items
    steps = [len(r["batches"]) for r in results]
    assert steps[0] == steps[1] == results[0]["len"]
    seen = [i for r in results for b in r["batches"] for i in b]
    if n_items == 8:  # divides evenly: each problem exactly once
        assert sorted(seen) == list(range(first, first + 8)) and steps == [2, 2]
    elif drop_last:  # accelerate drops the incomplete last run of 4
        assert sorted(seen) == list(range(first, first + 4))
    else:  # accelerate completes the last run of 4 with the first problems
        assert sorted(seen) == sorted([*range(first, first + 5), first, first + 1, first + 2])
    # rank 0 keeps batches 0, 2, ... of the stream and rank 1 batches 1, 3, ...
    assert results[0]["batches"][0] == [first, first + 1]
    assert results[1]["batches"][0] == [first + 2, first + 3]


def test_accelerate_dispatching_loader_is_refused_with_advice(tmp_path):
    results = run_ranks(accelerate_run, tmp_path, None, 4, False)
    for r in results:
        assert "dispatch_batches=False" in r.get("error", ""), r

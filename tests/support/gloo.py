"""Run a function on a CPU process group of its own: ``world_size`` spawned processes joined
with the gloo backend over 127.0.0.1 on a free port (what a multi-process CPU run of DDP,
Lightning or accelerate sets up)."""

from __future__ import annotations

import os
import socket


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rank_main(rank: int, world_size: int, port: int, fn, args: tuple, out_dir: str) -> None:
    import pickle

    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world_size)
    try:
        result = fn(rank, world_size, *args)
        dist.barrier()
    finally:
        dist.destroy_process_group()
    with open(os.path.join(out_dir, f"rank{rank}.pkl"), "wb") as fh:
        pickle.dump(result, fh)


def run_on_gloo(fn, world_size: int, args: tuple, out_dir) -> list:
    """``[fn(rank, world_size, *args) for each rank]``, each run in its own spawned process
    inside an initialised gloo process group; ``fn`` must be importable (module level) and
    return something picklable. ``out_dir``: an empty folder for the ranks' results."""
    import pickle

    import torch.multiprocessing as mp

    mp.spawn(_rank_main, args=(world_size, free_port(), fn, args, os.fspath(out_dir)),
             nprocs=world_size, join=True)
    results = []
    for rank in range(world_size):
        with open(os.path.join(os.fspath(out_dir), f"rank{rank}.pkl"), "rb") as fh:
            results.append(pickle.load(fh))
    return results

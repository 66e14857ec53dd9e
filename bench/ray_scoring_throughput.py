"""Scoring a shard set with Ray Data (``paintkit eval --engine ray``) on 1 and 2 nodes.

    python -m bench.ray_scoring_throughput [--per-cell 10] [--shard-size 8] [--nodes 1,2]

Generates a Parquet shard set (3 tasks x 2 conditions, 1024 px, with the preservation split)
and two models' outputs (one echoes the input, one the answer), then for each cluster size
starts ``ray.cluster_utils.Cluster`` nodes of one CPU each on 127.0.0.1 and times
``evaluate(shards, outputs, results, engine="ray")`` twice: the first run includes every
actor's start and Numba's first compilation, the second is the steady figure (actors start
again, the compiled kernels come from Numba's cache), after the local pool's figure (one
process, the directory layout of the same suite). Problems/s counts problems, each scored
for both models. On a cluster of C CPUs ``C - 1`` actors score (one CPU stays for the shard
reads and the sort); a one-CPU instance runs one actor beside the reads.

The nodes of one machine share its cores, disk and memory bus: one node against two shows
the overhead of Ray Data (reads, actors, the sort), not how a real cluster scales.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # keep the nodes on 127.0.0.1

NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}


def make_inputs(folder: Path, per_cell: int, shard_size: int) -> tuple[Path, Path, Path, int]:
    """``(directory layout, shard set, outputs, problems)`` under ``folder``."""
    from paintkit.engines import write_suite
    from paintkit.layout.benchmark import discover_problems
    from paintkit.suites import Suite

    suite = Suite(tasks=("translation", "removal", "recolor"), conditions=("baseline", "horizontal"),
                  per_cell=per_cell, namespace="bench")
    tree, shards, outputs = folder / "tree", folder / "shards", folder / "outputs"
    write_suite(suite, tree, engine="process", progress=False)
    write_suite(suite, shards, format="parquet", shard_size=shard_size, engine="process",
                progress=False)
    for problem in discover_problems(tree):
        for model, source in (("echo", problem.input_path), ("oracle", problem.answer_path)):
            target = problem.output_path(outputs, model)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return tree, shards, outputs, len(suite)


def time_cluster(nodes: int, shards: Path, outputs: Path, problems: int, folder: Path) -> list:
    import ray
    from ray import cluster_utils
    from ray._private import ray_constants

    from paintkit.eval import evaluate

    ray_constants.ENABLE_RAY_CLUSTER = False
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args=dict(NODE))
    for _ in range(nodes - 1):
        cluster.add_node(**NODE)
    seconds = []
    try:
        ray.init(address=cluster.address, log_to_driver=False, logging_level="ERROR")
        for run in range(2):
            results = folder / f"results-{nodes}-{run}"
            start = time.perf_counter()
            summary = evaluate(shards, outputs, results, engine="ray", progress=False)
            seconds.append(time.perf_counter() - start)
            assert summary.scored == 2 * problems, summary
    finally:
        ray.shutdown()
        cluster.shutdown()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-cell", type=int, default=10)
    parser.add_argument("--shard-size", type=int, default=8)
    parser.add_argument("--nodes", default="1,2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="paintkit-ray-score-") as tmp:
        folder = Path(tmp)
        tree, shards, outputs, problems = make_inputs(folder, args.per_cell, args.shard_size)
        print(f"{problems} problems x 2 models, Parquet shards of {args.shard_size}; "
              f"load average {os.getloadavg()[0]:.1f}")
        from paintkit.eval import evaluate

        start = time.perf_counter()  # the local pool's figure on the directory layout
        evaluate(tree, outputs, folder / "results-local", jobs=1, progress=False)
        local = time.perf_counter() - start
        print(f"local pool, 1 process (directory layout): {problems / local:.1f} problems/s "
              f"({local:.1f} s)")
        for nodes in (int(n) for n in args.nodes.split(",")):
            first, steady = time_cluster(nodes, shards, outputs, problems, folder)
            print(f"{nodes} node(s) x 1 CPU: first run {problems / first:.1f} problems/s "
                  f"({first:.1f} s), second {problems / steady:.1f} problems/s ({steady:.1f} s)")


if __name__ == "__main__":
    main()

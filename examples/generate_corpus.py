"""Generate a fresh training corpus as WebDataset shards, read it back, and stream more.

    python examples/generate_corpus.py --out out/corpus [--per-cell 4] [--tasks translation,recolor]

1. builds a custom suite in its own seed namespace (problems disjoint from PaintBench),
2. writes it as tar shards with the local process pool (rerun the command after
   interrupting it: it resumes),
3. reads the shards back with the standard library (or the ``webdataset`` package),
4. streams the next slots of the same suite straight into a torch DataLoader, without
   touching the disk.
"""

from __future__ import annotations

import argparse
import json
import tarfile
from pathlib import Path

from paintkit.engines import write_suite
from paintkit.suites import Suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/corpus")
    parser.add_argument("--per-cell", type=int, default=4)
    parser.add_argument("--tasks", default="translation,recolor")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()

    suite = Suite(tasks=args.tasks.split(","), per_cell=args.per_cell, namespace="corpus_example",
                  size=(512, 512))
    summary = write_suite(suite, args.out, format="webdataset", shard_size=16, jobs=args.jobs)
    print(summary.describe())

    shards = sorted(Path(args.out).glob("shard-??????.tar"))  # train; shard-*.test.tar: test
    with tarfile.open(shards[0]) as tar:
        first = next(m for m in tar.getmembers() if m.name.endswith(".json"))
        meta = json.load(tar.extractfile(first))
    print(f"{len(shards)} shards; first problem {meta['problem_id']}: {meta['instruction']}")

    # The next slots of the same suite, generated on the fly for a training loop.
    from torch.utils.data import DataLoader

    from paintkit.data import ProblemStream, collate_problems

    more = Suite(tasks=suite.tasks, per_cell=args.per_cell, start_slot=args.per_cell,
                 namespace=suite.namespace, size=suite.size)
    loader = DataLoader(ProblemStream(more), batch_size=4, num_workers=2,
                        collate_fn=collate_problems)
    batch = next(iter(loader))
    shapes = [tuple(image.shape) for image in batch["input"]]
    print(f"streamed a batch of {len(shapes)}: {shapes[0]} ... {batch['instruction'][0]}")


if __name__ == "__main__":
    main()

"""``paintkit subset``: a difficulty-balanced subset of a generated suite (a JSON list)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from paintkit.cli.flags import count, renamed, seed
from paintkit.io.atomic import write_bytes_atomic


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "subset", help="pick a subset of a generated suite balanced by difficulty",
        description="Reads every NNN.json under --benchmarks and picks --n problems spread "
        "evenly over object count, edit-region size and number of steps (see "
        "docs/subsets.md). Writes the chosen problems with their levels as JSON.")
    p.add_argument("--benchmarks", required=True, metavar="DIR", help="a generated output folder")
    p.add_argument("--n", type=count(), required=True, help="problems to pick")
    p.add_argument("--seed", type=seed(), default=0, help="sampling seed (default 0)")
    p.add_argument("--factors", default="objects,edit,steps",
                   help="factors to balance (default: objects,edit,steps)")
    renamed(p, "--output", "--out", required=True, metavar="FILE", help="JSON file to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # numpy (the seeded shuffles): imported when the command runs
    from paintkit.subsets import balanced_subset, levels, load_pool

    factors = tuple(f.strip() for f in args.factors.split(",") if f.strip())
    pool = load_pool(args.benchmarks)
    level_of = dict(zip((it.key for it in pool), levels(pool), strict=True))
    picked = balanced_subset(pool, args.n, args.seed, factors)
    marginals = {f: dict(sorted(Counter(level_of[it.key][f] for it in picked).items()))
                 for f in factors}
    doc = {"seed": args.seed, "n": args.n, "pool": len(pool), "factors": list(factors),
           "marginals": marginals,
           "problems": [{"key": it.key, **level_of[it.key]} for it in picked]}
    write_bytes_atomic(args.output, (json.dumps(doc, indent=1) + "\n").encode())
    print(f"picked {len(picked)} of {len(pool)} problems; marginals {marginals} -> {args.output}",
          file=sys.stderr)
    return 0

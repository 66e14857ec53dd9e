"""Score a directory of model outputs (standard layout, docs/file-layout.md) and read the results back.

Builds a small synthetic benchmark + outputs tree in a temporary folder, runs the same
code as ``paintkit eval`` (``paintkit.evaluate``) and prints each model's mIoU, then the
leaderboard of ``paintkit stats`` (``paintkit.aggregate``). Runs in seconds on CPU. With real
data: ``paintkit eval --benchmarks DIR --outputs DIR --results results --jobs 2``.
"""

import tempfile
from collections import defaultdict
from pathlib import Path

import paintkit
from paintkit.eval import read_rows
from paintkit.eval.synthetic import write_synthetic_tree

with tempfile.TemporaryDirectory() as tmp:
    benchmarks, outputs = write_synthetic_tree(Path(tmp), problems=24, width=128, height=96)
    summary = paintkit.evaluate(benchmarks, outputs, Path(tmp) / "results", jobs=1,
                                save_images=True)
    print(f"{summary.scored} rows, {summary.missing} missing outputs -> {summary.results_path}")
    per_model = defaultdict(list)
    for row in read_rows(summary.results_path):
        per_model[row["model"]].append(row["output"]["cie76_mean"]["iou"])
    for model, ious in sorted(per_model.items()):
        print(f"{model:>8}: mIoU {sum(ious) / len(ious):.3f} over {len(ious)} problems")
    # paintkit stats: the hierarchy with bootstrap CIs, written beside the rows
    print(paintkit.aggregate(Path(tmp) / "results", n_boot=1000).leaderboard())

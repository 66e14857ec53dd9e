"""CPU ms per problem of the scoring paths, one thread, as JSON: for before/after comparisons.

    python bench/metric_cpu_cost.py                                    # this checkout
    PYTHONPATH=/path/to/old/checkout python bench/metric_cpu_cost.py   # another one

Process time, not wall time, so a shared machine moves the figures less; one Numba and one
torch thread. Paths: ``score`` (Numba and torch, prepared targets) and ``reward`` (torch) on
1024² problems with flat / noisy / random outputs, B = 16 and 64, and ``evaluate`` from PNG
files (512², two models, one process). An older checkout needs ``paintkit/kernels`` and
``paintkit/renderers`` linked to its ``kernels/`` and ``renderers/`` to import from
PYTHONPATH. Run the two checkouts alternately and compare like with like.
"""

from __future__ import annotations

import json
import os
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def cpu_ms(fn, n: int, repeats: int = 3) -> float:
    """Best CPU milliseconds per item of ``fn()`` over ``repeats`` (after one warm-up)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return 1000 * best / n


def main() -> None:
    import torch
    from metrics_side_by_side import make_batch  # bench/ is the script's folder

    from paintkit.eval import evaluate
    from paintkit.eval.synthetic import write_synthetic_tree
    from paintkit.metrics import prepare_targets, reward, tolerance_statistics

    torch.set_num_threads(1)
    res = {}
    for kind in ("flat", "noisy", "random"):
        for n in (16, 64):
            out, ans, inp = make_batch(kind, n, 1024)
            ref = prepare_targets(ans, inp)
            res[f"score numba {kind} B{n}"] = cpu_ms(
                lambda: tolerance_statistics(out, ref, backend="numba"), n)  # noqa: B023
            t_out = torch.from_numpy(out)
            t_ref = prepare_targets(torch.from_numpy(ans), torch.from_numpy(inp))
            t_ref.torch_batch("cpu")
            res[f"score torch {kind} B{n}"] = cpu_ms(
                lambda: tolerance_statistics(t_out, t_ref, backend="torch"), n)  # noqa: B023
            if kind != "random":
                f_out = t_out.permute(0, 3, 1, 2).float() / 255
                res[f"reward torch {kind} B{n}"] = cpu_ms(
                    lambda: reward(f_out, t_ref, backend="torch"), n)  # noqa: B023
    with tempfile.TemporaryDirectory() as tmp:
        bench, outputs = write_synthetic_tree(tmp, problems=40, tasks=4, width=512, height=512,
                                              models=("noisy", "partial"))
        runs = [0]

        def one_eval():
            runs[0] += 1
            evaluate(bench, outputs, f"{tmp}/results{runs[0]}", jobs=1, progress=False)

        res["eval 512x512 per row (jobs 1)"] = cpu_ms(one_eval, 80, repeats=2)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()

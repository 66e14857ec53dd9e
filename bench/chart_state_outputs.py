"""Chart-state outputs over TinyGrafixBench: exactness, and drawing against PNG decoding.

For every TinyGrafixBench problem (or ``--limit`` of them, spread over the tasks), the answer
state and the input state are drawn as chart-state outputs (``NNNN_output.json``,
:func:`paintkit.tinygrafix.state_output.render_output_state`) and scored with
:func:`paintkit.score`: the answer state should score mIoU 1.0 and the input state what the
input PNG scores. Beside that, the same outputs as PNG files are decoded the way ``paintkit
eval`` decodes outputs (CPU seconds of this process)::

    python -m bench.chart_state_outputs --jobs 2       # all 600 problems
    python -m bench.chart_state_outputs --limit 60
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench.svg_outputs import png_decode_seconds


def _one(spec: object) -> dict:
    import paintkit
    from paintkit.tinygrafix.state_output import render_output_state

    problem = paintkit.TinyGrafixSuite(any_matplotlib=True).make_problem(spec)
    meta = problem.metadata
    texts = [json.dumps(meta["answer_state"]), json.dumps(meta["input_state"])]
    t0 = time.thread_time()
    drawn = [render_output_state(text, meta["input_state"], meta["answer_state"])[0]
             for text in texts]
    state_s = time.thread_time() - t0
    png_s = png_decode_seconds([problem.answer, problem.input])
    scores = paintkit.score([*drawn, problem.input], [problem.answer] * 3, [problem.input] * 3)
    return {"task": meta["task"], "answer": scores[0].miou, "input_state": scores[1].miou,
            "input_png": scores[2].miou, "state_s": state_s, "png_s": png_s}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="N problems spread over the tasks")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    import paintkit

    specs = list(paintkit.TinyGrafixSuite(any_matplotlib=True).specs())
    if args.limit:
        specs = specs[::max(1, len(specs) // args.limit)][:args.limit]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(_one, specs, chunksize=4))
    else:
        rows = [_one(s) for s in specs]
    wall = time.perf_counter() - start
    answer = np.array([r["answer"] for r in rows])
    same = sum(r["input_state"] == r["input_png"] for r in rows)
    n_out = 2 * len(rows)
    state_s = sum(r["state_s"] for r in rows)
    png_s = sum(r["png_s"] for r in rows)
    print(f"{len(rows):,} problems, {n_out:,} chart-state outputs, {wall:.0f} s wall, "
          f"{args.jobs} job(s)")
    print(f"answer state scored as the output: mIoU 1.0 on {int((answer == 1.0).sum()):,} of "
          f"{len(rows):,} (lowest {answer.min():.6f})")
    print(f"input state scored as the output: equal to the input PNG's score on {same:,} of "
          f"{len(rows):,}")
    print(f"drawing: {state_s / n_out * 1000:.1f} CPU ms per chart-state output "
          f"({n_out / state_s:.1f} outputs/s per core); decoding the same outputs as PNG: "
          f"{png_s / n_out * 1000:.2f} CPU ms ({n_out / png_s:.0f}/s per core)")


if __name__ == "__main__":
    main()

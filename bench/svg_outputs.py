"""SVG outputs over the benchmark: exactness of the answer SVG, and rendering against PNG decoding.

For every PaintBench problem (or the first ``--limit``), the two SVGs ``paintkit generate
--svg`` writes are rendered by :func:`paintkit.svg.render_svg` and scored as outputs with
:func:`paintkit.score`: the answer SVG should score mIoU 1.0 and the input SVG what the input
PNG scores. Beside that, the same outputs as PNG files are decoded the way ``paintkit eval``
decodes outputs, so the two costs stand side by side (CPU seconds of this process, one core
per worker)::

    python -m bench.svg_outputs --jobs 2            # all 2,016 problems
    python -m bench.svg_outputs --limit 80          # a quick look
"""

from __future__ import annotations

import argparse
import io
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def png_decode_seconds(images: list[np.ndarray]) -> float:
    """CPU seconds to decode ``images`` written as paintkit writes PNGs, the way ``paintkit
    eval`` decodes outputs: what a code output's drawing is compared with."""
    from paintkit.io.images import decode_rgb_bytes
    from paintkit.io.png_encode import encode_png

    pngs = [encode_png(image) for image in images]
    start = time.thread_time()
    for data in pngs:
        decode_rgb_bytes(data)
    return time.thread_time() - start


def _one(index_spec: tuple[int, object]) -> dict:
    import paintkit
    from paintkit.renderers.svg_scene import problem_svgs
    from paintkit.svg import render_svg

    index, spec = index_spec
    problem = paintkit.Suite().make_problem(spec)
    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    h, w = problem.answer.shape[:2]
    t0 = time.thread_time()
    answer_out = render_svg(answer_svg, width=w, height=h)
    input_out = render_svg(input_svg, width=w, height=h)
    svg_s = time.thread_time() - t0
    png_s = png_decode_seconds([problem.answer, problem.input])
    scores = paintkit.score([answer_out, input_out, problem.input],
                            [problem.answer] * 3, [problem.input] * 3)
    return {"index": index, "task": problem.metadata.get("task"),
            "condition": problem.metadata.get("condition"),
            "answer_svg": scores[0].miou, "input_svg": scores[1].miou,
            "input_png": scores[2].miou,
            "answer_pixels_differ": int((answer_out != problem.answer).any(-1).sum()),
            "svg_bytes": len(answer_svg) + len(input_svg), "svg_s": svg_s, "png_s": png_s}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="the first N problems")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    import paintkit

    specs = list(paintkit.Suite().specs())
    if args.limit:
        step = max(1, len(specs) // args.limit)
        specs = specs[::step][:args.limit]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(_one, enumerate(specs), chunksize=4))
    else:
        rows = [_one(item) for item in enumerate(specs)]
    wall = time.perf_counter() - start
    answer = np.array([r["answer_svg"] for r in rows])
    input_svg = np.array([r["input_svg"] for r in rows])
    input_png = np.array([r["input_png"] for r in rows])
    svg_s = sum(r["svg_s"] for r in rows)
    png_s = sum(r["png_s"] for r in rows)
    n_out = 2 * len(rows)
    out = io.StringIO()
    out.write(f"{len(rows):,} problems, {n_out:,} SVG outputs, {wall:.0f} s wall, "
              f"{args.jobs} job(s)\n")
    out.write(f"answer SVG scored as the output: mIoU 1.0 on {int((answer == 1.0).sum()):,} of "
              f"{len(rows):,} (lowest {answer.min():.6f}); pixels that differ from the answer PNG: "
              f"{sum(r['answer_pixels_differ'] for r in rows):,}\n")
    out.write(f"input SVG scored as the output: equal to the input PNG's score on "
              f"{int((input_svg == input_png).sum()):,} of {len(rows):,} (highest "
              f"{input_svg.max():.4f})\n")
    out.write(f"rendering: {svg_s / n_out * 1000:.1f} CPU ms per SVG output "
              f"({n_out / svg_s:.1f} outputs/s per core); decoding the same outputs as PNG: "
              f"{png_s / n_out * 1000:.2f} CPU ms ({n_out / png_s:.0f}/s per core); "
              f"mean SVG size {np.mean([r['svg_bytes'] for r in rows]) / 2 / 1024:.0f} KiB\n")
    worst = sorted(rows, key=lambda r: r["svg_s"])[-3:]
    out.write("slowest: " + ", ".join(f"{r['task']}/{r['condition']} {r['svg_s'] / 2:.2f} s"
                                      for r in worst) + "\n")
    print(out.getvalue(), end="")


if __name__ == "__main__":
    main()

"""CPU ms per problem of every stage of every path, next to the floor that stage could reach.

    python -m bench.stage_breakdown generate [--limit 96] [--tasks a,b]
    python -m bench.stage_breakdown score    [--batch 16] [--size 1024] [--kind noisy]
    python -m bench.stage_breakdown eval     [--size 1024] [--problems 24] [--files paintkit]
    python -m bench.stage_breakdown stream   [--batch 8]
    python -m bench.stage_breakdown floors   # the machine's floors alone

One thread, CPU time of that thread (``time.thread_time``), so a machine shared with other
work moves the figures far less than a wall-clock rate; every figure is the best of
``--repeats``. A stage's *floor* is measured on this machine, the same run:

- memory: copying the bytes the stage must at least write (single-thread ``memcpy``
  bandwidth);
- codecs: the fastest PNG / deflate encoder or decoder on PyPI that is installed
  (``imagecodecs``: zlib-ng, libdeflate, libpng, libspng; Pillow), on the same images. The
  benchmark's PNG bytes are pinned, so the "same bytes" floor of the encoder is the deflate
  call alone (zlib-ng level 2 on the same scanlines); a faster codec writes other bytes;
- arithmetic: the Numba stages of the counting kernel alone, one after the other, on the same
  pixels (Lab of one image, ΔE + bins, histogram), against reading the three images once.

The last columns say how far each stage is from its floor (``x floor``) and, for the whole
path, problems/s per core (1000 / CPU ms) and per hour on two cores at 100 % scaling.
Stages without a hardware floor (scene sampling and task logic are Python) print ``-``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from bench.floors import (
    CORES,
    best_ms,
    copy_bandwidth,
    decode_floors,
    encode_floors,
    thread_time,
)
from bench.stage_clock import StageClock, instrument

# --------------------------------------------------------------------------- the generate path


def generate_path(args) -> None:
    from bench.generate_common import bench_suite, spread
    from paintkit.io.png_encode import ZLIBNG_LEVEL, _scanlines, encode_png
    from paintkit.suites import build_problem
    from paintkit.writers.record import metadata_bytes

    suite = bench_suite(args.tasks)
    indices = spread(len(suite), args.limit)
    for index in indices:  # warm-up: imports, Numba, fonts, every task's first call
        build_problem(suite, suite.spec(index))
    clock = StageClock()
    instrument(clock)
    totals: dict[str, float] = defaultdict(float)
    images: list[np.ndarray] = []
    renders = pngs = 0
    for index in indices:
        spec = suite.spec(index)
        start = thread_time()
        problem = build_problem(suite, spec)
        totals["build"] += thread_time() - start
        pair = [problem.input] if problem.answer is problem.input else [problem.input, problem.answer]
        start = thread_time()
        for image in pair:
            encode_png(image)
        totals["PNG encode"] += thread_time() - start
        start = thread_time()
        metadata_bytes(problem.metadata, 1)
        totals["metadata JSON"] += thread_time() - start
        if len(images) < 12:
            images.extend(pair)
        renders += 2
        pngs += len(pair)
    n = len(indices)
    bandwidth = copy_bandwidth()
    encoders = encode_floors(images, args.repeats)
    canvas = float(np.mean([a.nbytes for a in images]))
    import imagecodecs

    raw = [bytes(_scanlines(a)) for a in images]
    def scanlines_each():  # one at a time, as encode_png does (a kept list faults in fresh pages)
        for a in images:
            _scanlines(a)

    split = {"scanlines": best_ms(scanlines_each, args.repeats) / len(images),
             "deflate": best_ms(lambda: [imagecodecs.zlibng_encode(r, level=ZLIBNG_LEVEL)
                                         for r in raw], args.repeats) / len(images)}
    pngs_per_problem = pngs / n
    rows = []
    sampled, rendered = clock.totals["scene sampling"], clock.totals["Skia render"]
    rows.append(("scene sampling", 1000 * sampled / n, None, "Python (no hardware floor)"))
    floor = renders * canvas / bandwidth * 1000 / n
    rows.append(("Skia render", 1000 * rendered / n, floor,
                 f"write 2 canvases at {bandwidth / 1e9:.1f} GB/s; "
                 f"{clock.calls['Skia render'] / n:.1f} render calls/problem"))
    rows.append(("answer transform + checks", 1000 * (totals["build"] - sampled - rendered) / n,
                 None, "task logic; its kernels are Numba (no single floor)"))
    same_bytes = encoders["  its deflate call alone"] * pngs_per_problem
    fastest = min(v for k, v in encoders.items() if not k.startswith(" ")) * pngs_per_problem
    rows.append(("PNG encode", 1000 * totals["PNG encode"] / n, same_bytes,
                 f"same bytes: the deflate call alone; fastest other codec {fastest:.2f} ms; "
                 f"{pngs_per_problem:.2f} PNGs/problem"))
    rows.append(("metadata JSON", 1000 * totals["metadata JSON"] / n, None, "json.dumps"))
    print(f"generate: {n} problems of {len(suite)} (PaintBench mix), one thread, "
          f"load avg {os.getloadavg()[0]:.1f}")
    print_rows(rows)
    print(f"\nPNG encoders, ms per image ({len(images)} benchmark images, "
          f"{canvas / 1e6:.1f} MB of pixels each):")
    for name, ms in encoders.items():
        print(f"  {name:38s} {ms:7.2f}")
    print(f"  paintkit's encoder split: scanline copy {split['scanlines']:.2f} ms, "
          f"deflate {split['deflate']:.2f} ms")


def print_rows(rows) -> None:
    total = sum(ms for _, ms, _, _ in rows)
    floor_total = sum(f for _, _, f, _ in rows if f is not None)
    print(f"{'stage':28s} {'CPU ms':>8} {'floor ms':>9} {'x floor':>8}  floor is")
    for name, ms, floor, what in rows:
        ratio = f"{ms / floor:7.1f}x" if floor else "       -"
        shown = f"{floor:9.2f}" if floor is not None else "        -"
        print(f"{name:28s} {ms:8.2f} {shown} {ratio}  {what}")
    rate = 1000 / total
    print(f"{'total':28s} {total:8.2f} {floor_total:9.2f}           -> {rate:.0f} problems/s per "
          f"core, {rate * CORES * 3600 / 1e6:.2f} M/h on {CORES} cores at 100 % scaling")


# ------------------------------------------------------------------------------ the score path


def _numba_stages():
    from numba import njit

    from paintkit.kernels.color.lab import lab_planes, linear_row
    from paintkit.kernels.counting import cie76_numba as tc

    @njit(cache=False)
    def lab_only(img, lut, lin, lab):
        for y in range(img.shape[0]):
            linear_row(img[y], lut, lin)
            lab_planes(lin, lab)

    @njit(cache=False)
    def bins_only(lab_a, lab_b, bins, height):
        n = 0
        for _ in range(height):
            n += tc.delta_e_bins_row(lab_a, lab_b, bins)
        return n

    @njit(cache=False)
    def count_only(ans, inp, bins, local):
        for y in range(ans.shape[0]):
            tc.count_row(ans[y], inp[y], bins, bins, local)

    @njit(cache=False)
    def read_only(a, b, c):
        acc = np.uint8(0)
        for k in range(a.size):
            acc |= a[k] ^ b[k] ^ c[k]
        return acc

    return lab_only, bins_only, count_only, read_only


def score_path(args) -> None:
    from bench.metrics_side_by_side import make_batch
    from paintkit.kernels.color.lab import LINEAR_LUT
    from paintkit.metrics import prepare_targets, tolerance_statistics

    out, ans, inp = make_batch(args.kind, args.batch, args.size)
    ref = prepare_targets(ans, inp)
    n = args.batch
    whole = best_ms(lambda: tolerance_statistics(out, ref, backend="numba"), args.repeats) / n
    from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
    kernel = best_ms(lambda: tolerance_histograms_numba(out, ans, inp), args.repeats) / n
    lab_only, bins_only, count_only, read_only = _numba_stages()
    h, w = args.size, args.size
    lin, lab_a, lab_b = (np.empty((3, w), np.float32) for _ in range(3))
    bins = np.zeros(w, np.int32)
    local = np.zeros((4, 3 * 32), np.int64)
    o, a, i = out[0], ans[0], inp[0]
    lab = best_ms(lambda: lab_only(o, LINEAR_LUT, lin, lab_a), args.repeats)
    lab_only(a, LINEAR_LUT, lin, lab_b)
    delta = best_ms(lambda: bins_only(lab_a, lab_b, bins, h), args.repeats)
    count = best_ms(lambda: count_only(a, i, bins, local), args.repeats)
    flat = [x.reshape(-1) for x in (o, a, i)]
    read = best_ms(lambda: read_only(*flat), args.repeats)
    bandwidth = copy_bandwidth()
    mem = 3 * o.nbytes / bandwidth * 1000
    print(f"score (Numba, 1 thread): {args.kind} outputs, {args.size}², B = {n}, "
          f"load avg {os.getloadavg()[0]:.1f}")
    rows = [
        ("Lab of O (noisy: every px)", lab, None, "arithmetic; A, I Lab reused per row"),
        ("ΔE + bins, twice", 2 * delta, None, "O-A and O-I"),
        ("histogram", count, None, ""),
        ("read O, A, I once", read, mem, f"3 images at {bandwidth / 1e9:.1f} GB/s"),
    ]
    print(f"{'stage':28s} {'CPU ms':>8} {'floor ms':>9} {'x floor':>8}")
    for name, ms, floor, what in rows:
        shown = f"{floor:9.2f} {ms / floor:7.1f}x" if floor else f"{'-':>9} {'-':>8}"
        print(f"{name:28s} {ms:8.2f} {shown}  {what}")
    parts = lab + 2 * delta + count
    print(f"{'counting kernel':28s} {kernel:8.2f} {mem:9.2f} "
          f"{kernel / mem:7.1f}x  (A/I Lab updated where the row changed)")
    print(f"{'whole kernel, per problem':28s} {whole:8.2f} {mem:9.2f} {whole / mem:7.1f}x  "
          f"(stages sum to {parts:.2f}; rest: row checks, A/I Lab, guard band) -> "
          f"{1000 / whole:.0f} problems/s per core, {2000 / whole:.0f}/s on 2 at 100 %")


# ------------------------------------------------------------------------------- the eval path


def _reencode_tree(root, encode) -> int:
    """Rewrite every readable PNG under ``root`` with ``encode``; returns how many."""
    from pathlib import Path

    from paintkit.io.images import ImageDecodeError, load_rgb

    count = 0
    for path in sorted(Path(root).rglob("*.png")):
        try:
            pixels = load_rgb(path)
        except ImageDecodeError:
            continue  # the tree's deliberately corrupt files stay corrupt
        path.write_bytes(encode(pixels))
        count += 1
    return count


def eval_path(args) -> None:
    import tempfile

    import imagecodecs

    from paintkit.eval import evaluate
    from paintkit.eval.synthetic import write_synthetic_tree
    from paintkit.io import images
    from paintkit.io.png_encode import encode_png
    from paintkit.metrics import prepare_targets, tolerance_statistics

    with tempfile.TemporaryDirectory() as tmp:
        bench, outputs = write_synthetic_tree(tmp, problems=args.problems, tasks=4,
                                              width=args.size, height=args.size,
                                              models=("noisy", "partial"))
        if args.files == "paintkit":
            _reencode_tree(tmp, encode_png)
        runs = [0]

        def one_eval():
            runs[0] += 1
            evaluate(bench, outputs, f"{tmp}/results{runs[0]}", jobs=1, progress=False)

        rows = 2 * args.problems

        def eval_ms(plain: bool) -> float:
            saved = images.decode_png_rgb
            if not plain:  # libpng for every file, as before paintkit's own reader
                images.decode_png_rgb = lambda data: None
            try:
                start = time.process_time()
                one_eval()
                return 1000 * (time.process_time() - start) / rows
            finally:
                images.decode_png_rgb = saved

        eval_ms(True)  # warm-up
        before, after = float("inf"), float("inf")
        for _ in range(args.repeats):  # alternating, so a change of load hits both
            before = min(before, eval_ms(False))
            after = min(after, eval_ms(True))
        pngs = [p.read_bytes() for p in sorted(bench.rglob("*.png"))[:8]]
        decoders = decode_floors(pngs, args.repeats)
        triples = [tuple(images.decode_rgb_bytes(p) for p in pngs[k:k + 2]) for k in (0, 2, 4)]
        score = best_ms(lambda: [tolerance_statistics(a[None], prepare_targets(a[None], i[None]),
                                                      backend="numba") for a, i in triples],
                        args.repeats) / len(triples)
    decode = decoders["paintkit decode_rgb_bytes"]
    fastest = min(decoders.values())
    print(f"paintkit eval, one process: {args.problems} problems x 2 models, {args.size}², files "
          f"written by {args.files}, load avg {os.getloadavg()[0]:.1f}")
    print(f"{'stage':28s} {'CPU ms':>8} {'floor ms':>9} {'x floor':>8}")
    print(f"{'PNG decode (x3 per row)':28s} {3 * decode:8.2f} {3 * fastest:9.2f} "
          f"{decode / fastest:7.1f}x  fastest decoder below")
    print(f"{'prepare + counts':28s} {score:8.2f} {'-':>9} {'-':>8}  see the score path")
    print(f"{'evaluate, per row, before':28s} {before:8.2f}   (libpng for every file)")
    print(f"{'evaluate, per row, now':28s} {after:8.2f}   {before / after:.2f}x -> "
          f"{1000 / after:.0f} rows/s per core, {2000 / after:.0f} on 2 at 100 %")
    print("PNG decoders, ms per image:")
    for name, ms in decoders.items():
        print(f"  {name:38s} {ms:7.2f}")
    print(f"  (imagecodecs {imagecodecs.__version__})")


def stream_path(args) -> None:
    """The stream's hand-over, in one process: a DataLoader worker's collate and pickling
    (into its shared-memory ring) and the training process's unpickling, before and now."""
    from bench.generate_common import bench_suite, spread
    from bench.stream_throughput import collate_before
    from paintkit.data import ProblemStream, collate_problems, transfer

    suite = bench_suite(args.tasks)
    stream = ProblemStream(suite)
    items = [stream.problem(p) for p in spread(len(suite), 4 * args.batch)]
    items = [item for item in items if item["input"].shape == (1024, 1024, 3)][:args.batch]
    sizes = {tuple(item["input"].shape) for item in items}
    info = type("Info", (), {"id": 0, "num_workers": 1})()
    transfer.get_worker_info = lambda: info  # this process plays the worker (and the trainer)

    def hand_over(collate):
        batch = collate(items)
        rebuild, state = batch.__reduce__()
        got = rebuild(*state)
        assert got["input"].shape[0] == len(items)
        del batch, got  # the training step is done: the slot goes back

    rows = []
    for name, collate in (("now: stack into the ring slot", collate_problems),
                          ("before: stack, then copy", collate_before)):
        transfer._WORKER = transfer._WorkerSide()
        rows.append((name, best_ms(lambda c=collate: hand_over(c), args.repeats) / len(items)))
    nbytes = sum(item["input"].numel() + item["answer"].numel() for item in items) / len(items)
    floor = nbytes / copy_bandwidth() * 1000
    print(f"stream hand-over (collate + pickle in the worker, unpickle in the trainer), "
          f"B = {len(items)}, sizes {sorted(sizes)}, one thread, load avg {os.getloadavg()[0]:.1f}")
    print(f"{'path':32s} {'CPU ms/problem':>15} {'floor ms':>9} {'x floor':>8}")
    for name, ms in rows:
        print(f"{name:32s} {ms:15.2f} {floor:9.2f} {ms / floor:7.1f}x")
    print(f"floor: copying the problem's pixels once ({nbytes / 1e6:.1f} MB); now "
          f"{rows[1][1] / rows[0][1]:.2f}x less CPU than before")


def floors_only(args) -> None:
    bandwidth = copy_bandwidth()
    print(f"single-thread memcpy: {bandwidth / 1e9:.1f} GB/s -> a 1024x1024 RGB image "
          f"({3 << 20} bytes) costs {(3 << 20) / bandwidth * 1000:.2f} ms to write")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", choices=("generate", "score", "eval", "stream", "floors"))
    parser.add_argument("--limit", type=int, default=96, help="generate: problems timed")
    parser.add_argument("--tasks", default=None)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--kind", default="noisy", choices=("noisy", "flat", "random"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--problems", type=int, default=24, help="eval: problems per model")
    parser.add_argument("--files", default="paintkit", choices=("paintkit", "libpng"),
                        help="eval: who wrote the PNGs (paintkit: as `paintkit generate` does)")
    args = parser.parse_args()
    {"generate": generate_path, "score": score_path, "eval": eval_path, "stream": stream_path,
     "floors": floors_only}[args.path](args)


if __name__ == "__main__":
    main()

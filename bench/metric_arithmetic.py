"""How far the canonical metric lies from the paper's float32 NumPy arithmetic, per SIMD path.

    python -m bench.metric_arithmetic --benchmarks out/paintbench [--every 1] [--jpeg 75]

The paper's formulas run naively in float32 NumPy (``np.cbrt``, ``** 2.4``) give different
bits on different CPUs: NumPy dispatches another cube root and power on AVX-512, AVX2 and the
baseline. This script scores the same outputs four ways and counts the count cells (35 per
row: ``|E|``, ``|P|`` and, for t = 0..10, CE_t, CP_t and changed_t) on which they disagree:

- ``canonical``: paintkit's metric (docs/metric-definition.md), the same everywhere;
- ``paper-<path>``: float32 NumPy Lab computed in a child process whose NumPy is held to one
  SIMD path with ``NPY_DISABLE_CPU_FEATURES`` (paths above this CPU's are skipped).

Each arithmetic's Lab of all 2^24 colours is computed once (a table; one contiguous ufunc call
per 2^20 colours, as an eval converts whole images), then every pixel's ΔE is computed from
looked-up Lab in float32 in the definition's order. Outputs (never written to disk), per
problem: the answer with uniform noise of +-3 and +-6 per channel, and the answer through
JPEG at ``--jpeg`` quality. For each disagreeing pixel the script reports how far the
paper-arithmetic ΔE lies from the integer tolerance it straddles.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

PATHS = {  # NumPy SIMD path -> the features to disable
    "avx512": "",
    "avx2": "X86_V4 AVX512_ICL AVX512_SPR",
    "baseline": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
}

_CHILD = """
import numpy as np
from tests.support import metric_oracle as oracle
code = np.arange(1 << 24, dtype=np.uint32)
table = np.empty((3, 1 << 24), np.float32)
for k in range(0, 1 << 24, 1 << 20):
    c = code[k:k + (1 << 20)]
    rgb = np.stack([c >> 16, (c >> 8) & 255, c & 255], -1).astype(np.uint8)
    table[:, k:k + (1 << 20)] = oracle.paper_lab(rgb).T
np.save({out!r}, table)
"""


def paper_table(path: str, workdir: Path) -> np.ndarray:
    out = workdir / f"paper-{path}.npy"
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=PATHS[path])
    root = Path(__file__).resolve().parents[1]  # `python -c` imports tests.support from its cwd
    subprocess.run([sys.executable, "-c", _CHILD.format(out=str(out))], cwd=root,
                   env=env, check=True, capture_output=True, text=True)
    return np.load(out)


def delta_e(table, code_x, code_y):
    lx, ly = table[:, code_x], table[:, code_y]
    d = lx - ly
    return np.sqrt((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2])


def cells(de_oa, de_oi, edit) -> np.ndarray:
    """The 35 count cells of one row."""
    t = np.arange(11, dtype=np.float32)[:, None]
    ok = de_oa[None] <= t
    return np.concatenate([[edit.sum(), (~edit).sum()], (ok & edit).sum(1), (ok & ~edit).sum(1),
                           (de_oi[None] > t).sum(1)])


def outputs_of(answer: np.ndarray, seed: int, quality: int) -> dict:
    rng = np.random.default_rng(seed)
    out = {}
    for amp in (3, 6):
        noise = rng.integers(-amp, amp + 1, answer.shape)
        out[f"noise{amp}"] = np.clip(answer.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(answer).save(buf, "JPEG", quality=quality)
    out[f"jpeg{quality}"] = np.asarray(Image.open(buf).convert("RGB"))
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", required=True, type=Path)
    parser.add_argument("--every", type=int, default=1, help="score every N-th problem")
    parser.add_argument("--jpeg", type=int, default=75)
    args = parser.parse_args(argv)

    from paintkit.io.images import load_rgb
    from paintkit.kernels.color.lab_canonical import canonical_lab_table
    from paintkit.layout.benchmark import discover_problems

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tables = {"canonical": canonical_lab_table()}
        for path in PATHS:
            try:
                tables[f"paper-{path}"] = paper_table(path, Path(tmp))
            except subprocess.CalledProcessError as exc:
                print(f"paper-{path}: skipped ({exc.stderr.strip().splitlines()[-1]})")
        names = list(tables)
        problems = discover_problems(args.benchmarks)[::args.every]
        diff_cells = {(a, b): 0 for i, a in enumerate(names) for b in names[i + 1:]}
        diff_rows = dict.fromkeys(diff_cells, 0)
        gaps = {pair: [] for pair in diff_cells}
        n_rows = 0
        for k, problem in enumerate(problems):
            answer, inp = load_rgb(problem.answer_path), load_rgb(problem.input_path)
            weights = np.array([65536, 256, 1], np.int64)
            code_a = (answer.astype(np.int64) @ weights).ravel()
            code_i = (inp.astype(np.int64) @ weights).ravel()
            edit = code_a != code_i
            for output in outputs_of(answer, k, args.jpeg).values():
                n_rows += 1
                code_o = (output.astype(np.int64) @ weights).ravel()
                per = {n: (delta_e(t, code_o, code_a), delta_e(t, code_o, code_i))
                       for n, t in tables.items()}
                row = {n: cells(oa, oi, edit) for n, (oa, oi) in per.items()}
                for a, b in diff_cells:
                    d = int((row[a] != row[b]).sum())
                    diff_cells[(a, b)] += d
                    diff_rows[(a, b)] += d > 0
                    if d:
                        for x, y in zip(per[a], per[b], strict=True):
                            flip = np.zeros(x.shape, bool)
                            for t in range(11):
                                flip |= (x <= t) != (y <= t)
                            gaps[(a, b)] += list(np.abs(y[flip] - np.round(y[flip])).ravel())
    total = 35 * n_rows
    print(f"{len(problems)} problems x 3 outputs = {n_rows} rows, {total:,} count cells "
          f"({time.perf_counter() - started:.0f} s)")
    for (a, b), d in diff_cells.items():
        g = max(gaps[(a, b)], default=0.0)
        print(f"{a:>16} vs {b:<16} {d:6d} cells differ ({100 * d / total:.4f} %), "
              f"{diff_rows[(a, b)]:4d} rows; disagreeing pixels' ΔE within {g:.2e} "
              f"of an integer")


if __name__ == "__main__":
    main()

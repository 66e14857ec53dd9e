"""Float -> uint8 (``round(x * 255)``, checked to lie in [0, 1]): paintkit's CPU paths against
what a user would write, side by side, one thread each.

    python -m bench.float_to_uint8 [--size 1024] [--batch 8] [--repeat 15]

Times, on the same float32 ``(B, 3, H, W)`` batch in one process (rounds interleaved, the
median of ``--repeat`` kept):

- ``numba pass``: ``paintkit.kernels.pixels.float_to_uint8``, the one parallel pass the
  CPU scorers use (here with one thread);
- ``torch checked``: ``paintkit.metrics.coerce`` with ``numba=False`` (the torch path: a
  reused cache-sized temporary, min / max for the check);
- ``torch unchecked``: ``float_to_uint8_unchecked`` (what the adapters use on CUDA, the
  range flags left on the device);
- ``torch, as a user writes it``: ``aminmax`` check then ``(x * 255).round().to(uint8)``;
- ``numpy, as a user writes it``: ``np.rint(x * 255).astype(np.uint8)`` after a range check.

Every path's bytes are checked equal. Prints ms per batch and each path's ratio to the
Numba pass.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402


def paths():
    from paintkit.kernels.pixels import float_to_uint8
    from paintkit.metrics.coerce import _float_to_uint8, float_to_uint8_unchecked

    def numba_pass(x):
        out, bad = float_to_uint8(x.numpy())
        assert bad == 0
        return torch.from_numpy(out)

    def torch_user(x):
        low, high = torch.aminmax(x)
        assert bool(low >= 0) and bool(high <= 1)
        return (x * 255).round().to(torch.uint8)

    def numpy_user(x):
        a = x.numpy()
        assert a.min() >= 0 and a.max() <= 1
        return torch.from_numpy(np.rint(a * np.float32(255)).astype(np.uint8))

    return {
        "numba pass": numba_pass,
        "torch checked": lambda x: _float_to_uint8(x, "x", numba=False),
        "torch unchecked": lambda x: float_to_uint8_unchecked(x)[0],
        "torch, as a user writes it": torch_user,
        "numpy, as a user writes it": numpy_user,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((args.batch, 3, args.size, args.size), dtype=np.float32))
    candidates = paths()
    reference = candidates["numba pass"](x)
    for name, fn in candidates.items():
        assert torch.equal(fn(x), reference), name
    times: dict = {name: [] for name in candidates}
    for _ in range(args.repeat):
        for name, fn in candidates.items():
            t = time.perf_counter()
            fn(x)
            times[name].append(time.perf_counter() - t)
    base = statistics.median(times["numba pass"])
    print(f"float32 ({args.batch}, 3, {args.size}, {args.size}) -> uint8, one thread, "
          f"median of {args.repeat}; load average {os.getloadavg()[0]:.1f}")
    for name, values in times.items():
        ms = statistics.median(values) * 1e3
        print(f"  {name:28s} {ms:8.2f} ms per batch  {ms / args.batch:6.2f} per image  "
              f"{ms / (base * 1e3):5.2f}x the Numba pass")


if __name__ == "__main__":
    main()

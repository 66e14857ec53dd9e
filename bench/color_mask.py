"""color_mask: direct channel comparison vs packed ``np.isin``, by number of colours.

    python bench/color_mask.py [--size 1024] [--repeat 5]

Prints ms per call of ``color_mask`` and of the two strategies it chooses between, on an
image of 11 palette colours (PaintBench scenes use few colours). Same process, same cores.
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np

from paintkit.kernels.color_mask import color_mask


def per_colour(image, colors):
    out = np.zeros(image.shape[:-1], bool)
    for r, g, b in colors:
        out |= (image[..., 0] == r) & (image[..., 1] == g) & (image[..., 2] == b)
    return out


def packed_isin(image, colors):
    packed = ((image[..., 0].astype(np.int32) << 16) | (image[..., 1].astype(np.int32) << 8)
              | image[..., 2])
    return np.isin(packed, [(r << 16) | (g << 8) | b for r, g, b in colors])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    palette = rng.integers(0, 256, (11, 3), dtype=np.uint8)
    image = palette[rng.integers(0, 11, (args.size, args.size))]
    print(f"{'colours':>7s} {'color_mask':>11s} {'per-colour':>11s} {'packed isin':>11s}  (ms)")
    for k in (1, 2, 3, 5):
        colors = [tuple(int(v) for v in c) for c in palette[:k]]
        assert (color_mask(image, colors) == per_colour(image, colors)).all()
        times = [min(timeit.repeat(lambda f=f, c=colors: f(image, c), number=3, repeat=args.repeat)) / 3 * 1e3
                 for f in (color_mask, per_colour, packed_isin)]
        print(f"{k:7d} {times[0]:11.2f} {times[1]:11.2f} {times[2]:11.2f}")


if __name__ == "__main__":
    main()

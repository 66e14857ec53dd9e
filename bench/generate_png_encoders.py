"""PNG encoders side by side on benchmark images: encode time, size, decode time, lossless.

    python bench/generate_png_encoders.py [--per-condition 3]

Images: input and answer of translation problems under six conditions (solid, striped,
nonstandard, 60 shapes, horizontal, 10 shapes), 1024 wide. Candidates: Pillow at
``compress_level`` 0-9, ``imagecodecs.png_encode`` (libpng) at a few settings, ``fpng``
when installed (``pip install fpng``), and :mod:`paintkit.io.png_encode` (its default and
fallbacks). Decode time is ``imagecodecs.png_decode`` (what ``paintkit eval`` uses).
Ratios are against Pillow level 1.
"""

from __future__ import annotations

import argparse
import io
import time

import imagecodecs
import numpy as np
from PIL import Image

from paintkit.io.png_encode import encode_png
from paintkit.sources import generate

CONDITIONS = ("baseline", "striped", "nonstandard", "n_xhigh", "horizontal", "n_med")


def _pillow(level: int):
    def encode(image: np.ndarray) -> bytes:
        buffer = io.BytesIO()
        Image.fromarray(image).save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    return encode


def candidates() -> dict:
    out = {f"pillow level {level}": _pillow(level) for level in range(10)}
    out["imagecodecs level 1"] = lambda a: bytes(imagecodecs.png_encode(a, level=1))
    out["imagecodecs 1 RLE SUB"] = lambda a: bytes(imagecodecs.png_encode(a, level=1, strategy=3,
                                                                          filter=16))
    try:
        import fpng

        out["fpng"] = fpng.from_ndarray
    except ImportError:
        pass
    for name in ("zlibng", "zlib", "pillow"):
        out[f"paintkit {name}"] = lambda a, name=name: encode_png(a, name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-condition", type=int, default=3)
    args = parser.parse_args()
    images = []
    for condition in CONDITIONS:
        for slot in range(args.per_condition):
            problem = generate("translation", slot, condition, None)
            images += [problem.input, problem.answer]
    print(f"{len(images)} images; ms per image; KiB per image; speed-up vs Pillow level 1")
    rows = []
    for name, encode in candidates().items():
        encode(images[0])
        start = time.perf_counter()
        blobs = [encode(image) for image in images]
        enc = (time.perf_counter() - start) / len(images) * 1e3
        start = time.perf_counter()
        decoded = [imagecodecs.png_decode(blob) for blob in blobs]
        dec = (time.perf_counter() - start) / len(images) * 1e3
        exact = all(np.array_equal(d[..., :3], i) for d, i in zip(decoded, images, strict=True))
        rows.append((name, enc, sum(map(len, blobs)) / len(blobs) / 1024, dec, exact))
    base = dict((r[0], r[1]) for r in rows)["pillow level 1"]
    for name, enc, size, dec, exact in rows:
        print(f"{name:24s} encode {enc:6.2f} ms {base / enc:5.1f}x  {size:8.1f} KiB  "
              f"decode {dec:5.2f} ms  lossless={exact}")

if __name__ == "__main__":
    main()

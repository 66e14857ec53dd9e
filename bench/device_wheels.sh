#!/usr/bin/env bash
# Fill .whl/ (git-ignored) with the wheels a bare GPU machine lacks for bench/device_check.sh.
#
# The device machines have Python 3.12 with CUDA torch, numba, numba-cuda, numpy, pillow,
# matplotlib, threadpoolctl, pytest and hypothesis, and reach no package index: paintkit's
# other dependencies travel with the working tree. Run from the repository root:
#
#     bash bench/device_wheels.sh   # ~33 MB: skia-python, kornia, kornia_rs, tbb, tcmlib, setuptools,
#                                   # and .whl/device_problems.npz (24 real problems)
#
# imagecodecs (28 MB) is left out on purpose: paintkit reads PNGs without it (Pillow), and the
# device check writes no PNGs.
set -euo pipefail
cd "$(dirname "$0")/.."
WHEELS=(
    "skia-python==144.1"   # the scene renderer (generating PaintBench problems)
    "kornia==0.9.0"        # paintkit's similarity metrics; the competent-user baseline scorer
    "kornia_rs==0.2.0"     # kornia's compiled half
    "tbb==2023.2.0"        # Numba's TBB threading layer (paintkit.kernels loads it)
    "tcmlib==1.6.0"        # tbb's allocator
    "setuptools==84.2.1"   # builds paintkit's wheel there (pyproject asks for setuptools>=77)
)
mkdir -p .whl
for wheel in "${WHEELS[@]}"; do
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "$wheel"
done
# Real PaintBench problems for the exactness and throughput checks (rendered here: the GPU
# machine lacks the GL libraries Skia links against)
python -m bench.device_check --make-problems --out .whl
du -ch .whl/* | tail -n 1

#!/usr/bin/env bash
# Fill .whl/ (git-ignored) with the wheels a bare GPU machine lacks for bench/device_check.sh.
#
# The device machines have Python 3.12 with CUDA torch, numba, numba-cuda, numpy, pillow,
# matplotlib, threadpoolctl, pytest and hypothesis, and reach no package index: paintkit's
# other dependencies travel with the working tree. Run from the repository root:
#
#     bash bench/device_wheels.sh   # ~45 MB: skia-python, kornia, kornia_rs, tbb, tcmlib, setuptools,
#                                   # the service's web stack, .whl/device_problems.npz (24 real
#                                   # problems) and .whl/gl (the GL / X libraries Skia needs)
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
    # paintkit serve (the device check's service section): FastAPI on uvicorn, ~8 MB
    "fastapi==0.165.0" "starlette==1.10.0" "pydantic==2.14.4" "pydantic_core==2.50.5"
    "annotated-types==0.8.0" "annotated-doc==0.0.7" "typing-inspection==0.4.5"
    "opentelemetry-api==1.45.2" "anyio==4.16.0" "sniffio==1.3.1" "idna==3.20"
    "uvicorn==0.54.0" "h11==0.16.0" "click==8.5.1" "httptools==0.9.0" "uvloop==0.23.0"
    # (Ray, ~76 MiB, does not fit beside these in what one device call carries: the ray
    # section runs in a second call, with bash bench/device_ray_wheels.sh's .whl_ray/)
)
# shellcheck source=bench/device_wheel_tools.sh
. bench/device_wheel_tools.sh
mkdir -p .whl
for wheel in "${WHEELS[@]}"; do
    download .whl "$wheel"
done
# Real PaintBench problems for the exactness and throughput checks (rendered here: the GPU
# machine lacks the GL libraries Skia links against)
python -m bench.device_check --make-problems --out .whl
# ...and those GL / X libraries themselves (~3 MB), for the sections that generate problems
# there (the service, the pipeline, Ray): device_check.sh puts .whl/gl on LD_LIBRARY_PATH
# where skia does not import without it
copy_gl .whl/gl
du -ch .whl/* | tail -n 1

#!/usr/bin/env bash
# The whole GPU check in one command (at most 6 minutes on one H100 / H200), from a bare
# machine: install what it lacks from .whl/ (fill it here first: bash bench/device_wheels.sh;
# .whl_ray/ for the ray section, below),
# install paintkit from this working tree, run every section of bench/device_check.py
# (exactness of every formula and Lab source, synchronisations, throughput, the service under
# load, the whole pipeline, Ray actors; at most DEVICE_CHECK_SECONDS, default 290, the JSON
# written after each section), then the CUDA cases of the test suite (at most 45 s).
# Summaries go to $OUT (device_check.json, device_check.md, pytest_cuda.log).
#
#     bash bench/device_check.sh            # on the GPU machine
#     bash bench/device_check.sh --dry-run  # here, on the CPU: checks this script (< 1 min)
#     DEVICE_CHECK_SECTIONS=kernel DEVICE_CHECK_TESTS=0 bash bench/device_check.sh  # one section
#
# Two calls, as what one call carries is at most 64 MiB with the working tree:
#   1. carrying .whl (bash bench/device_wheels.sh): bash bench/device_check.sh, every section;
#      the ray one records that Ray is not installed (its wheel alone is ~76 MiB);
#   2. carrying .whl_ray (bash bench/device_ray_wheels.sh: a slim Ray wheel, what Ray needs,
#      skia-python, setuptools; ~52 MiB):
#      DEVICE_CHECK_SECTIONS=ray DEVICE_CHECK_TESTS=0 bash bench/device_check.sh
# The wheels of both folders that are there are installed (.whl_ray's first, where a wheel
# of the same file name is in both).
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
DRY=0
[ "${1:-}" = "--dry-run" ] && DRY=1
log() { echo "[device_check.sh $(date +%H:%M:%S)] $*"; }
export PYTHONUNBUFFERED=1

if [ "$DRY" = 0 ]; then
    PY=python3
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
    declare -A seen=()
    WHEELS=()
    for wheel in .whl_ray/*.whl .whl/*.whl; do
        [ -f "$wheel" ] && [ -z "${seen[${wheel##*/}]:-}" ] || continue
        seen[${wheel##*/}]=1
        WHEELS+=("$wheel")
    done
    [ "${#WHEELS[@]}" -gt 0 ] || { log "no wheels in .whl/ or .whl_ray/: run bash bench/device_wheels.sh (or device_ray_wheels.sh) here first"; exit 2; }
    log "installing the ${#WHEELS[@]} carried wheels into /tmp/site"
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site "${WHEELS[@]}" || exit 1
    export PYTHONPATH=/tmp/site
    # numba-cuda 0.30.4 (the machine's) registers np.row_stack, which NumPy 2.5 removed: give
    # it the alias back for this run only (paintkit itself falls back to its torch kernel when
    # Numba's CUDA target cannot compile, see paintkit.kernels.counting.cie76_cuda)
    python3 -c "import numpy as n, sys; sys.exit(hasattr(n, 'row_stack'))" && \
        printf 'import numpy\nnumpy.row_stack = numpy.vstack\n' > /tmp/site/sitecustomize.py
    # Skia (problem generation: the service, the pipeline, Ray) links against GL / X
    # libraries these machines lack: the copies device_wheels.sh put in .whl/gl (and
    # device_ray_wheels.sh in .whl_ray/gl)
    gl=$(ls -d .whl_ray/gl .whl/gl 2>/dev/null | head -n 1)
    if ! python3 -c "import skia" 2>/dev/null && [ -n "$gl" ]; then
        export LD_LIBRARY_PATH="$REPO/$gl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        python3 -c "import skia" 2>/dev/null && log "skia imports with $gl" \
            || log "skia still does not import: the generating sections will record it"
    fi
    log "installing paintkit from the working tree"
    $PY -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --no-cache-dir \
        --target /tmp/site "$REPO" || exit 1
else
    PY=${PYTHON:-python}
fi

# Run from a copy of tests/ and bench/ outside the repository: the installed paintkit (with
# paintkit.kernels) is what gets imported, not the repository's paintkit/ folder.
RUN=$(mktemp -d)
cp -r tests bench pyproject.toml "$RUN"/
[ -d .whl ] && mkdir -p "$RUN/.whl" && cp .whl/*.npz "$RUN/.whl/" 2>/dev/null
cd "$RUN" || exit 1
status=0
log "bench.device_check"
SECTIONS=()  # DEVICE_CHECK_SECTIONS=kernel,memory: those sections alone
[ -n "${DEVICE_CHECK_SECTIONS:-}" ] && SECTIONS=(--sections "$DEVICE_CHECK_SECTIONS")
if [ "$DRY" = 1 ]; then
    $PY -m bench.device_check --out "$OUT" --dry-run "${SECTIONS[@]}" || status=1
else
    # SIGINT first: the section under way records its error and the summaries are written
    timeout -s INT -k 20 "${DEVICE_CHECK_SECONDS:-290}" \
        $PY -m bench.device_check --out "$OUT" "${SECTIONS[@]}" || status=1
fi
if [ "$DRY" = 0 ] && [ "${DEVICE_CHECK_TESTS:-1}" = 1 ]; then
    log "the CUDA cases of the test suite (DEVICE_CHECK_TESTS=0 skips them)"
    # shellcheck disable=SC2046
    # -o addopts=: the device machine has no pytest-xdist (pyproject's addopts name its -n)
    timeout 45 $PY -m pytest -q -p no:cacheprovider -o addopts= -m "not slow" -x -k "cuda and not cuda_sim" \
        tests/kernels/test_delta_e_cuda_device.py \
        tests/metrics/test_counts_cuda.py tests/metrics/test_exact_counts_torch.py \
        tests/metrics/test_metrics_api.py \
        tests/metrics/test_compiled_counts.py tests/metrics/test_similarity.py \
        tests/rewards/test_rewards_device.py tests/rewards/test_rewards_device_index.py \
        tests/metrics/test_torchmetric.py tests/kernels/test_point_ops.py \
        tests/kernels/test_blend.py tests/kernels/test_gradient.py tests/kernels/test_warp.py \
        tests/kernels/test_flood_fill.py 2>&1 | tee "$OUT/pytest_cuda.log" | tail -n 25
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
log "summaries in $OUT (exit $status)"
cat "$OUT/device_check.md" 2>/dev/null | head -n 60
exit $status

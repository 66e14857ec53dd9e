#!/usr/bin/env bash
# Fill .whl_ray/ (git-ignored) for the device check's second call, the ray section alone:
#
#     bash bench/device_ray_wheels.sh   # ~50 MiB: a slim Ray wheel, what Ray needs that the
#                                       # machine lacks, skia-python, setuptools, .whl_ray/gl
#     # then, on the GPU machine, carrying .whl_ray (not .whl):
#     DEVICE_CHECK_SECTIONS=ray DEVICE_CHECK_TESTS=0 bash bench/device_check.sh
#
# Ray's official wheel (~76 MiB) does not fit in what one device call carries (64 MiB with the
# working tree), so it is rebuilt here without what ray.init, Ray Data and actors never import
# (the Java worker's jars, the dashboard's web client, RLlib, Tune, Train, Serve, Ray LLM) and
# with its ELF binaries' unneeded symbols stripped; same name and version, a new RECORD
# (bench/slim_wheel.py). The official wheel is downloaded once into $RAY_WHEEL_DIR (default
# /tmp/paintkit-ray-wheel; a folder that already holds it is used as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
RAY_VERSION=2.60.0
RAY_WHEEL_DIR=${RAY_WHEEL_DIR:-${TMPDIR:-/tmp}/paintkit-ray-wheel}
# Folders of Ray's wheel the ray section never imports (~35 MiB of the wheel, 31 of it jars)
DROP=(ray/jars ray/dashboard/client/build ray/rllib ray/tune ray/train ray/serve ray/llm)
WHEELS=(
    # Ray's requirements that the device machines lack; the others (msgpack, protobuf,
    # pyyaml, requests, filelock, packaging, aiohttp, grpcio, psutil) and Ray Data's (numpy,
    # pandas, pyarrow, fsspec) are there
    "jsonschema==4.26.0" "jsonschema-specifications==2025.9.1" "referencing==0.37.0"
    "rpds-py==2026.9.1" "click==8.5.1"
    # what the ray section needs of .whl/ (bench/device_wheels.sh) to run paintkit there
    "skia-python==144.1"   # generating the section's problems
    "setuptools==84.2.1"   # builds paintkit's wheel there
    "threadpoolctl==3.8.0" # paintkit eval's statistics (the machines have one: 18 kB in case)
)
# shellcheck source=bench/device_wheel_tools.sh
. bench/device_wheel_tools.sh  # download, copy_gl
rm -rf .whl_ray
mkdir -p .whl_ray "$RAY_WHEEL_DIR"
download "$RAY_WHEEL_DIR" "ray==$RAY_VERSION"
ray_wheel=$(ls "$RAY_WHEEL_DIR"/ray-"$RAY_VERSION"-cp312-*.whl | head -n 1)
drops=()
for folder in "${DROP[@]}"; do drops+=(--drop "$folder"); done
python -m bench.slim_wheel "$ray_wheel" .whl_ray "${drops[@]}" --strip
for wheel in "${WHEELS[@]}"; do
    download .whl_ray "$wheel"
done
copy_gl .whl_ray/gl  # Skia's GL / X libraries, as .whl/gl
ls -l .whl_ray/*.whl .whl_ray/gl/* | awk 'NF > 5 {printf "%8.2f MiB  %s\n", $5 / 1048576, $NF}'
# What the second call carries: .whl_ray and the working tree (tracked and untracked files
# git does not ignore), at most 64 MiB together
wheels=$(du -cb .whl_ray | tail -n 1 | cut -f 1)
tree=$(git ls-files -z --cached --others --exclude-standard \
    | du -cb --files0-from=- 2>/dev/null | tail -n 1 | cut -f 1)
total=$((wheels + tree))
awk -v w="$wheels" -v t="$tree" -v s="$total" 'BEGIN {
    printf ".whl_ray %.1f MiB + working tree %.1f MiB = %.1f MiB carried (limit 64 MiB)\n",
        w / 1048576, t / 1048576, s / 1048576 }'
if [ "$total" -gt $((58 * 1048576)) ]; then
    echo "device_ray_wheels.sh: more than 58 MiB to carry: too little margin under 64 MiB" >&2
    exit 1
fi

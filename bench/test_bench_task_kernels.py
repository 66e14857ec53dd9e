"""Per-call time of the PaintBench answer kernels at 1024x1024: Numba vs torch CPU.

Run: ``pytest -n 0 bench/test_bench_task_kernels.py --benchmark-only`` (groups = kernels; compare
the ``numba`` and ``torch`` rows of a group). torch is pinned to one thread so both sides
use one core, as a generator worker does. The scene is a solid background with a few
opaque shapes, like a rendered PaintBench input; the edit mask is a 200 px radius disk.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.kernels.blend import blend_numba, blend_torch
from paintkit.kernels.distance import distance_to_mask, within_distance
from paintkit.kernels.flood_fill import (
    connected_region_numba,
    connected_region_torch,
    flood_fill_numba,
    flood_fill_torch,
    label_components_numba,
    label_components_torch,
)
from paintkit.kernels.gradient import linear_gradient_numba, linear_gradient_torch
from paintkit.kernels.point_ops import point_operation_numba, point_operation_torch
from paintkit.kernels.warp import (
    crop_rect_inverse_map,
    warp_affine_nearest_numba,
    warp_affine_nearest_torch,
)

SIZE = 1024
BACKGROUND = (255, 255, 255)
SHAPE_SEED = (500, 400)  # inside the big disk
BACKGROUND_SEED = (5, 5)


def _scene():
    i, j = np.indices((SIZE, SIZE))
    image = np.empty((SIZE, SIZE, 3), np.uint8)
    image[:] = BACKGROUND
    disk = (i - 500) ** 2 + (j - 400) ** 2 <= 200**2
    image[disk] = (255, 0, 0)
    image[100:300, 650:950] = (0, 0, 255)
    ring = ((i - 800) ** 2 + (j - 800) ** 2 <= 120**2) & ((i - 800) ** 2 + (j - 800) ** 2 > 60**2)
    image[ring] = (0, 128, 0)
    return image, disk


IMAGE, DISK = _scene()
IMAGE_T, DISK_T = torch.from_numpy(IMAGE), torch.from_numpy(DISK)
CROP = crop_rect_inverse_map((520.0, 480.0), 600, 400, 33.0, (SIZE, SIZE))


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


CASES = {
    "flood_fill_background": (
        lambda: flood_fill_numba(IMAGE, BACKGROUND_SEED, (1, 2, 3)),
        lambda: flood_fill_torch(IMAGE_T, BACKGROUND_SEED, (1, 2, 3)),
    ),
    "flood_fill_shape": (
        lambda: flood_fill_numba(IMAGE, SHAPE_SEED, (1, 2, 3)),
        lambda: flood_fill_torch(IMAGE_T, SHAPE_SEED, (1, 2, 3)),
    ),
    "connected_region_background": (
        lambda: connected_region_numba(IMAGE, BACKGROUND_SEED),
        lambda: connected_region_torch(IMAGE_T, BACKGROUND_SEED),
    ),
    "label_components": (
        lambda: label_components_numba(~DISK),
        lambda: label_components_torch(~DISK_T),
    ),
    "blend": (
        lambda: blend_numba(IMAGE, DISK, (0, 0, 255), 35),
        lambda: blend_torch(IMAGE_T, DISK_T, (0, 0, 255), 35),
    ),
    "linear_gradient": (
        lambda: linear_gradient_numba(IMAGE, DISK, (200.0, 300.0), (600.5, 700.25), (255, 0, 0),
                                (0, 0, 255)),
        lambda: linear_gradient_torch(IMAGE_T, DISK_T, (200.0, 300.0), (600.5, 700.25),
                                      (255, 0, 0), (0, 0, 255)),
    ),
    "invert": (
        lambda: point_operation_numba(IMAGE, DISK, "invert"),
        lambda: point_operation_torch(IMAGE_T, DISK_T, "invert"),
    ),
    "grayscale": (
        lambda: point_operation_numba(IMAGE, DISK, "grayscale"),
        lambda: point_operation_torch(IMAGE_T, DISK_T, "grayscale"),
    ),
    "brightness": (
        lambda: point_operation_numba(IMAGE, DISK, "brightness", -60),
        lambda: point_operation_torch(IMAGE_T, DISK_T, "brightness", -60),
    ),
    "distance_full_canvas": (lambda: distance_to_mask(DISK), None),
    "distance_roi_bbox_plus_16": (lambda: distance_to_mask(DISK, roi=(284, 184, 717, 617)), None),
    "within_distance_r12": (lambda: within_distance(DISK, 12), None),
    "warp_rotated_crop": (
        lambda: warp_affine_nearest_numba(IMAGE, CROP, (SIZE, SIZE)),
        lambda: warp_affine_nearest_torch(IMAGE_T, CROP, (SIZE, SIZE)),
    ),
}

PARAMS = [
    pytest.param(fn, id=f"{name}-{impl}", marks=pytest.mark.benchmark(group=name))
    for name, pair in CASES.items()
    for impl, fn in zip(("numba", "torch"), pair, strict=True)
    if fn is not None
]


@pytest.mark.parametrize("kernel", PARAMS)
def test_kernel(benchmark, kernel):
    kernel()  # compile / warm up outside the timing
    benchmark(kernel)

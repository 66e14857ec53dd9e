"""verl style: ``verl_pixel_miou(data_source, solution_image, ground_truth, extra_info)``.

verl's reward manager calls it per sample; here the ground truth carries the answer and the
input of a ``ProblemStream`` problem, and the solution is a dummy uint8 (C, H, W) image.

    python examples/rewards_verl.py
"""

import numpy as np

from paintkit.data import ProblemStream
from paintkit.rewards import verl_pixel_miou
from paintkit.suites import Suite

suite = Suite(tasks=("removal",), conditions=("baseline",), per_cell=3, namespace="example",
              preservation=False)
rng = np.random.default_rng(0)
for item in ProblemStream(suite, layout="chw"):
    answer, inp = item["answer"].numpy(), item["input"].numpy()
    solution = np.where(rng.random(answer.shape[1:]) < 0.8, answer, inp)  # dummy policy
    result = verl_pixel_miou("paintbench", solution, {"answer": answer, "input": inp},
                           extra_info={"index": item["index"]})
    print(f"problem {item['index']}: {result}")

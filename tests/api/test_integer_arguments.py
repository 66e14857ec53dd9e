"""Every integer argument of the public API refuses ``bool`` (issue 23, item 11:
``samples_per_problem=True`` was accepted as 1), floats and out-of-range values."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.arguments import check_int

IMAGE = np.zeros((4, 4, 3), np.uint8)
ANSWER = IMAGE.copy()
ANSWER[0, 0] = 255


def _calls():
    """``{name: call(value)}``: one public entry point per integer argument."""
    from paintkit.data.stream import ProblemStream
    from paintkit.engines import write_suite
    from paintkit.metrics import PixelEditIoUAccumulator, prepare_targets, reward
    from paintkit.rewards.flow_factory import FlowFactoryPixelMIoU
    from paintkit.rewards.flow_grpo import flow_grpo_pixel_miou
    from paintkit.rewards.plain import stream_pixel_miou
    from paintkit.stats.aggregate import aggregate_tables
    from paintkit.stats.agreement import agreement_report
    from paintkit.stats.diagnostics import diagnostics_rows
    from paintkit.subsets import balanced_subset

    ref = prepare_targets([ANSWER], [IMAGE])
    outputs = torch.zeros(2, 3, 4, 4, dtype=torch.uint8)
    return {
        "reward(samples_per_problem)": lambda v: reward(outputs, ref, samples_per_problem=v),
        "reward(tolerance)": lambda v: reward(outputs[:1], ref, tolerance=v),
        "PixelEditIoUAccumulator.update(samples_per_problem)":
            lambda v: PixelEditIoUAccumulator().update(outputs, ref, samples_per_problem=v),
        "stream_pixel_miou(samples_per_problem)":
            lambda v: stream_pixel_miou(outputs, ref, samples_per_problem=v),
        "flow_grpo_pixel_miou(cache_size)": lambda v: flow_grpo_pixel_miou("cpu", cache_size=v),
        "FlowFactoryPixelMIoU(cache_size)": lambda v: FlowFactoryPixelMIoU("cpu", cache_size=v),
        "ProblemStream(start)": lambda v: ProblemStream(start=v),
        "ProblemStream(batch_size)": lambda v: ProblemStream(batch_size=v),
        "ProblemStream(rank)": lambda v: ProblemStream(rank=v, world_size=2),
        "ProblemStream(world_size)": lambda v: ProblemStream(rank=0, world_size=v),
        "write_suite(shard_size)": lambda v: write_suite(None, "/nonexistent", shard_size=v),
        "write_suite(jobs)": lambda v: write_suite(None, "/nonexistent", jobs=v),
        "write_suite(unit_size)": lambda v: write_suite(None, "/nonexistent", unit_size=v),
        "balanced_subset(n)": lambda v: balanced_subset([], v),
        "balanced_subset(seed)": lambda v: balanced_subset([], 0, seed=v),
        "aggregate_tables(n_boot)": lambda v: aggregate_tables([], n_boot=v),
        "aggregate_tables(seed)": lambda v: aggregate_tables([], seed=v),
        "aggregate_tables(jobs)": lambda v: aggregate_tables([], jobs=v),
        "diagnostics_rows(n_buckets)": lambda v: diagnostics_rows([], n_buckets=v),
        "agreement_report(resamples)":
            lambda v: agreement_report([0.1, 0.2], [[1.0], [2.0]], resamples=v),
        "agreement_report(seed)": lambda v: agreement_report([0.1, 0.2], [[1.0], [2.0]], seed=v),
    }


CALLS = _calls()


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, "1"])
def test_integer_arguments_refuse_bools_floats_and_strings(name, value):
    argument = name[name.index("(") + 1:-1]
    with pytest.raises(ValueError, match=argument):
        CALLS[name](value)


def test_check_int():
    assert check_int(np.int64(3), "x", 1) == 3 and type(check_int(np.int64(3), "x")) is int
    assert check_int(None, "x", allow_none=True) is None
    with pytest.raises(ValueError, match=r"x: expected an integer from 0 to 10, got 11 \(int\)"):
        check_int(11, "x", 0, 10)
    with pytest.raises(ValueError, match="None or an integer >= 1"):
        check_int(0, "x", 1, allow_none=True)


def test_score_refuses_a_bool_samples_per_problem():
    from paintkit.metrics import score

    with pytest.raises(ValueError, match="samples_per_problem"):
        score([IMAGE], [ANSWER], [IMAGE], samples_per_problem=True)

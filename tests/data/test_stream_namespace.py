"""Training data stays out of the benchmark: the default stream's namespace is not
``paintbench``, so its problems share no seed and no image with PaintBench."""

import hashlib
import multiprocessing

import pytest

from paintkit.data import ProblemStream
from paintkit.seeds import paintbench_seed
from paintkit.sources.paintbench import PaintBenchSource
from paintkit.suites import PAINTBENCH_NAMESPACE, TRAINING_NAMESPACE, Suite, build_problem

FIRST = 5000
MAX_ATTEMPTS = PaintBenchSource().max_attempts


def _candidate_seeds(suite: Suite, positions) -> set[int]:
    """Every seed the attempt search may use for these stream positions of ``suite``."""
    seeds = set()
    for position in positions:
        round_, index = divmod(position, len(suite))
        spec = suite.spec(index, round_)
        seeds.update(paintbench_seed(spec.task, spec.seed_condition, spec.mode, spec.slot, a,
                                     namespace=spec.namespace) for a in range(MAX_ATTEMPTS))
    return seeds


def test_default_stream_is_not_the_benchmark():
    stream = ProblemStream()
    assert stream.suite.namespace == TRAINING_NAMESPACE != PAINTBENCH_NAMESPACE
    assert stream.suite.tasks == Suite().tasks and stream.suite.conditions == Suite().conditions
    item = stream.problem(0)
    assert item["metadata"]["namespace"] == TRAINING_NAMESPACE
    assert item["metadata"]["problem_id"].startswith(f"{TRAINING_NAMESPACE}-")


def test_first_5000_stream_problems_can_share_no_seed_with_the_benchmark():
    """Checked on every seed the attempt search could pick (attempts 0..MAX_ATTEMPTS-1) on
    both sides, so it holds whichever attempts the tasks accept."""
    stream_seeds = _candidate_seeds(ProblemStream(infinite=True).suite, range(FIRST))
    benchmark = Suite()
    bench_seeds = _candidate_seeds(benchmark, range(len(benchmark)))
    assert not stream_seeds & bench_seeds


def _fingerprint(args):
    suite, position = args
    round_, index = divmod(position, len(suite))
    p = build_problem(suite, suite.spec(index, round_))
    return (p.metadata["seed"], hashlib.sha256(p.input.tobytes()).hexdigest(),
            hashlib.sha256(p.answer.tobytes()).hexdigest(), p.metadata.get("scored", True))


@pytest.mark.slow
def test_first_5000_stream_problems_share_no_seed_and_no_image_with_the_benchmark():
    stream_suite, benchmark = ProblemStream(infinite=True).suite, Suite()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        stream = pool.map(_fingerprint, [(stream_suite, i) for i in range(FIRST)], chunksize=50)
        bench = pool.map(_fingerprint, [(benchmark, i) for i in range(len(benchmark))],
                         chunksize=50)
    assert not {s for s, *_ in stream} & {s for s, *_ in bench}
    # Scored problems only on the benchmark side: a preservation problem's input is its
    # removal problem's answer by construction.
    bench_images = {h for _, i, a, scored in bench if scored for h in (i, a)}
    stream_images = {h for _, i, a, _ in stream for h in (i, a)}
    assert not stream_images & bench_images

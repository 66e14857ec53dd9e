"""ProblemStream: DataLoader workers and ranks take disjoint shares, no gaps; infinite rounds."""

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader

from paintkit.data import ProblemStream, collate_problems
from paintkit.suites import Suite, build_problem
from tests.support.generate_helpers import small_suite

SUITE = small_suite(conditions=("baseline",), per_cell=2)  # 6 problems incl. preservation


def test_two_dataloader_workers_cover_the_suite_once():
    loader = DataLoader(ProblemStream(SUITE), batch_size=None, num_workers=2)
    items = list(loader)
    assert sorted(item["index"] for item in items) == list(range(len(SUITE)))
    ids = [item["metadata"]["problem_id"] for item in items]
    assert sorted(ids) == sorted(spec.problem_id for spec in SUITE.specs())
    for item in items:
        problem = build_problem(SUITE, SUITE.spec(item["index"]))
        assert item["input"].dtype == torch.uint8 and item["input"].shape == (1024, 1024, 3)
        assert np.array_equal(item["input"].numpy(), problem.input)
        assert np.array_equal(item["answer"].numpy(), problem.answer)
        assert item["instruction"] == problem.instruction


@pytest.mark.parametrize("world_size, workers", [(3, 1), (2, 2)])
@pytest.mark.parametrize("uneven", ["keep", "pad", "drop"])
def test_ranks_and_workers_partition_positions(world_size, workers, uneven, monkeypatch):
    import paintkit.data.stream as stream_module

    suite = Suite(tasks=("translation",), per_cell=5)  # 40 problems, never generated here
    seen, per_rank = [], []
    for rank in range(world_size):
        per_rank.append(0)
        for worker in range(workers):
            info = type("Info", (), {"num_workers": workers, "id": worker})()
            monkeypatch.setattr(stream_module, "get_worker_info", lambda info=info: info)
            stream = ProblemStream(suite, rank=rank, world_size=world_size, start=3,
                                   uneven=uneven)
            share = list(stream.item_indices())
            assert len(share) == len(stream)
            seen += share
            per_rank[-1] += len(share)
    items = len(suite) - 3  # 37: uneven for 2 and 3 ranks
    if uneven == "keep":
        assert sorted(seen) == list(range(3, len(suite)))
    elif uneven == "pad":  # every rank ceil(37 / W); the short ranks repeat the first items
        assert per_rank == [-(-items // world_size)] * world_size
        assert sorted(set(seen)) == list(range(3, len(suite)))
        assert sorted(seen) == sorted(list(range(3, len(suite))) +
                                      list(range(3, 3 + len(seen) - items)))
    else:
        assert per_rank == [items // world_size] * world_size
        assert sorted(seen) == list(range(3, 3 + len(seen)))


def test_infinite_stream_continues_with_fresh_problems():
    suite = Suite(tasks=("translation",), conditions=("baseline",), per_cell=2)
    items = []
    for item in ProblemStream(suite, infinite=True, layout="chw"):
        items.append(item)
        if len(items) == 5:
            break
    assert [item["index"] for item in items] == list(range(5))
    assert items[0]["input"].shape == (3, 1024, 1024)
    ids = [item["metadata"]["problem_id"] for item in items]
    assert len(set(ids)) == 5  # rounds 1, 2 use slots after the suite's
    assert [item["metadata"]["slot"] for item in items] == [0, 0, 1, 1, 2]
    with pytest.raises(TypeError):
        len(ProblemStream(suite, infinite=True))


def test_collate_stacks_equal_sizes_and_lists_others():
    a = {"input": torch.zeros(4, 5, 3, dtype=torch.uint8), "answer": torch.zeros(4, 5, 3, dtype=torch.uint8),
         "instruction": "x", "metadata": {}, "index": 0}
    b = dict(a, input=torch.zeros(5, 4, 3, dtype=torch.uint8), index=1)
    same = collate_problems([a, a])
    assert same["input"].shape == (2, 4, 5, 3) and same["index"] == [0, 0]
    mixed = collate_problems([a, b])
    assert isinstance(mixed["input"], list) and mixed["answer"].shape == (2, 4, 5, 3)


def test_bad_arguments():
    with pytest.raises(ValueError, match="both rank and world_size"):
        ProblemStream(SUITE, rank=0)
    with pytest.raises(ValueError, match="0 <= rank < world_size"):
        ProblemStream(SUITE, rank=2, world_size=2)
    with pytest.raises(ValueError, match="allowed: hwc, chw"):
        ProblemStream(SUITE, layout="nchw")


@pytest.mark.parametrize("workers", [2, 3])
def test_start_with_workers_keeps_index_order(workers, monkeypatch):
    # Issue 10 item 17: with start=7 and two workers, pairs used to come swapped.
    import paintkit.data.stream as stream_module

    suite = Suite(tasks=("translation",), conditions=("baseline",), per_cell=6)  # 12
    stream = ProblemStream(suite, start=7)
    shares = []
    for worker in range(workers):
        info = type("Info", (), {"num_workers": workers, "id": worker})()
        monkeypatch.setattr(stream_module, "get_worker_info", lambda info=info: info)
        shares.append(list(stream.item_indices()))
    merged = [share[k] for k in range(max(map(len, shares)))
              for share in shares if k < len(share)]  # the DataLoader asks workers in turn
    assert merged == list(range(7, len(suite)))


def test_start_7_two_workers_through_a_dataloader():
    stream = ProblemStream(SUITE, start=1)  # 5 items over two workers
    loader = DataLoader(stream, batch_size=None, num_workers=2)
    items = list(loader)
    assert [item["index"] for item in items] == list(range(1, len(SUITE)))
    assert len(loader) == len(items)


def test_batched_stream_keeps_order_and_len_loader_counts_batches():
    stream = ProblemStream(SUITE, start=1, batch_size=2)  # items 1..5 -> [1,2] [3,4] [5]
    loader = DataLoader(stream, batch_size=None, num_workers=2)
    batches = list(loader)
    assert [batch["index"] for batch in batches] == [[1, 2], [3, 4], [5]]
    assert len(loader) == len(batches) == 3
    assert batches[0]["input"].shape == (2, 1024, 1024, 3)
    for batch in batches:
        for k, index in enumerate(batch["index"]):
            problem = build_problem(SUITE, SUITE.spec(index))
            assert np.array_equal(batch["answer"][k].numpy(), problem.answer)


def test_batched_stream_shares_across_ranks():
    suite = Suite(tasks=("translation",), per_cell=5)  # 40 problems, never generated here
    shares = []
    for rank in range(2):
        stream = ProblemStream(suite, rank=rank, world_size=2, start=3, batch_size=4)
        shares.append(list(stream.item_indices()))
        assert len(stream) == -(-len(shares[-1]) // 4)
    assert sorted(shares[0] + shares[1]) == list(range(3, 40))
    assert shares[0][:4] == [3, 4, 5, 6] and shares[1][:4] == [7, 8, 9, 10]
    with pytest.raises(ValueError, match="batch_size"):
        ProblemStream(suite, batch_size=0)

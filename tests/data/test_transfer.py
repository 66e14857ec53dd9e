"""The worker -> training process pixel ring: same values as torch's path, no aliasing of
reused slots, clean fallbacks."""

import copy
import pickle

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

import paintkit.data.transfer as transfer
from paintkit.data import collate_problems
from paintkit.data.transfer import PixelRing, StreamItem

SHAPES = [(20, 30, 3), (20, 30, 3), (16, 24, 3), (3, 20, 30)]


def fake_item(index: int) -> StreamItem:
    """Deterministic images of varying sizes (some batches stack, some stay lists)."""
    rng = np.random.default_rng(index)
    shape = SHAPES[index % len(SHAPES)]
    images = [torch.from_numpy(rng.integers(0, 256, shape, dtype=np.uint8)) for _ in range(2)]
    return StreamItem(input=images[0], answer=images[1], instruction=f"edit {index}",
                      metadata={"n": index}, index=index)


class FakeStream(IterableDataset):
    def __init__(self, units: int, batch: int | None):
        self.units, self.batch = units, batch

    def __iter__(self):
        info = get_worker_info()
        for unit in range(info.id, self.units, info.num_workers):
            if self.batch is None:
                yield fake_item(unit)
            else:
                yield collate_problems([fake_item(unit * self.batch + k) for k in range(self.batch)])


def expected(unit: int, batch: int | None) -> dict:
    if batch is None:
        return dict(fake_item(unit))
    return dict(collate_problems([fake_item(unit * batch + k) for k in range(batch)]))


def assert_same(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for key in want:
        if key in ("input", "answer"):
            gots = got[key] if isinstance(got[key], list) else [got[key]]
            wants = want[key] if isinstance(want[key], list) else [want[key]]
            assert isinstance(got[key], list) == isinstance(want[key], list)
            for g, w in zip(gots, wants, strict=True):
                assert g.dtype == torch.uint8 and g.shape == w.shape and g.is_contiguous()
                assert torch.equal(g, w)
        else:
            assert got[key] == want[key]


@pytest.mark.parametrize("batch", [None, 2, 3])
def test_held_batches_keep_their_values(batch, monkeypatch):
    monkeypatch.setattr(transfer, "RING_SLOTS", 2)
    units = 24
    loader = DataLoader(FakeStream(units, batch), batch_size=None, num_workers=2, prefetch_factor=4)
    received = list(loader)  # all held: no slot may be reused under them
    assert len(received) == units
    through_ring = 0
    for unit, got in enumerate(received):
        assert type(got) is dict
        assert_same(got, expected(unit, batch))
        images = got["input"] if isinstance(got["input"], list) else [got["input"]]
        through_ring += not any(image.is_shared() for image in images)  # views of the ring
    assert 1 <= through_ring <= 4  # 2 workers x 2 slots, the rest fell back to torch's path


@pytest.mark.parametrize("batch", [None, 3])
def test_slots_are_reused_once_the_loop_lets_go(batch, monkeypatch):
    monkeypatch.setattr(transfer, "RING_SLOTS", 2)
    units = 24
    loader = DataLoader(FakeStream(units, batch), batch_size=None, num_workers=2, prefetch_factor=4)
    through_ring = 0
    for unit, got in enumerate(loader):
        assert_same(got, expected(unit, batch))
        images = got["input"] if isinstance(got["input"], list) else [got["input"]]
        through_ring += not any(image.is_shared() for image in images)
        del got, images  # the training step is done with the batch
    assert through_ring > 4  # more ring deliveries than slots: slots came back and were reused


def test_chw_views_arrive_contiguous_with_the_same_values():
    item = fake_item(0)
    item["input"] = item["input"].permute(2, 0, 1)
    assert not item["input"].is_contiguous()
    ring = PixelRing(slot_bytes=4096)
    transfer._WORKER.ring = ring
    try:
        reduced = _reduce_as_worker(item)
        got = reduced[0](*reduced[1])
    finally:
        transfer._WORKER.ring = None
    assert got["input"].is_contiguous() and torch.equal(got["input"], item["input"])
    assert int(ring.sent[0]) == 1 and int(ring.taken[0]) == 0  # in use while viewed
    kept = got["answer"][1:, 2:]  # a view keeps the slot too
    del got
    assert int(ring.taken[0]) == 0
    del kept
    assert int(ring.taken[0]) == 1  # the slot was handed back


def _reduce_as_worker(item: StreamItem):
    info = type("Info", (), {"id": 0, "num_workers": 1})()
    original = transfer.get_worker_info
    transfer.get_worker_info = lambda: info
    try:
        return item.__reduce__()
    finally:
        transfer.get_worker_info = original


def test_ring_refuses_a_slot_until_it_is_taken():
    ring = PixelRing(slot_bytes=16, slots=2)
    first, second = ring.acquire(), ring.acquire()
    assert first is not None and second is not None and first[0] != second[0]
    for slot, sequence in (first, second):
        ring.sent[slot] = sequence
    assert ring.acquire() is None  # both in flight
    ring.taken[first[0]] = first[1]
    assert ring.acquire()[0] == first[0]
    with pytest.raises(ValueError, match="slots"):
        PixelRing(slot_bytes=16, slots=0)


def test_full_ring_falls_back_to_the_usual_path():
    ring = PixelRing(slot_bytes=4096, slots=1)
    transfer._WORKER.ring = ring
    try:
        assert _reduce_as_worker(fake_item(0))[0] is transfer._receive
        rebuild, args = _reduce_as_worker(fake_item(1))  # slot 0 not taken back yet
    finally:
        transfer._WORKER.ring = None
    assert rebuild is dict
    assert_same(rebuild(*args), dict(fake_item(1)))


def test_other_tensors_and_no_room_go_the_usual_way(monkeypatch):
    item = fake_item(0)
    item["input"] = item["input"].float()
    assert _reduce_as_worker(item)[0] is dict
    monkeypatch.setattr(transfer, "_room_for", lambda nbytes: False)
    monkeypatch.setattr(transfer, "_WORKER", transfer._WorkerSide())
    assert _reduce_as_worker(fake_item(0))[0] is dict
    assert transfer._WORKER.disabled


def test_outside_a_worker_it_pickles_as_a_plain_dict():
    item = fake_item(2)
    got = pickle.loads(pickle.dumps(item))
    assert type(got) is dict
    assert_same(got, dict(item))


def test_a_worker_that_outgrows_its_slots_gets_a_larger_ring():
    side = transfer._WorkerSide()
    small = side.ring_for(100)
    assert side.ring_for(50) is small
    larger = side.ring_for(1000)
    assert larger is not small and larger.slot_bytes == 1000


def test_copies_in_a_worker_do_not_touch_the_ring(monkeypatch):
    import copy

    monkeypatch.setattr(transfer, "get_worker_info", lambda: object())
    monkeypatch.setattr(transfer, "_WORKER", transfer._WorkerSide())
    item = fake_item(0)
    for twin in (copy.copy(item), copy.deepcopy(item)):  # DataLoader workers copy every item
        assert type(twin) is StreamItem
        assert_same(dict(twin), dict(item))
    assert transfer._WORKER.ring is None


def _in_worker(monkeypatch):
    """Pretend to be a DataLoader worker with a fresh worker side (its own ring)."""
    info = type("Info", (), {"id": 0, "num_workers": 1})()
    monkeypatch.setattr(transfer, "get_worker_info", lambda: info)
    monkeypatch.setattr(transfer, "_WORKER", transfer._WorkerSide())


def _slot_of(rebuild, args) -> int | None:
    """The ring slot a pickled item travels in (None: torch's usual path)."""
    if rebuild is transfer._receive:  # (ring, key, slot_bytes, slot, ...)
        return args[3]
    if rebuild is transfer._receive_known:  # (key, slot_bytes, slot, ...)
        return args[2]
    return None


def _views_ring(tensor, ring) -> bool:
    start = ring.buffer.data_ptr()
    return start <= tensor.data_ptr() < start + ring.buffer.numel()


def test_a_worker_stacks_a_batch_straight_into_a_slot_and_sends_it_as_is(monkeypatch):
    _in_worker(monkeypatch)
    items = [fake_item(k) for k in (0, 1)]  # one shape: input and answer stack
    batch = collate_problems(items)
    ring = transfer._WORKER.ring
    assert ring is not None and all(_views_ring(batch[key], ring) for key in ("input", "answer"))
    (slot,) = ring.reserved  # filled, not sent: no one else may take it
    assert ring.acquire()[0] != slot
    rebuild, args = batch.__reduce__()
    assert _slot_of(rebuild, args) == slot and not ring.reserved
    got = rebuild(*args)
    want = {"input": torch.stack([i["input"] for i in items]),
            "answer": torch.stack([i["answer"] for i in items])}
    for key in want:
        assert torch.equal(got[key], want[key]) and got[key].is_contiguous()
    assert [got[k] for k in ("instruction", "metadata", "index")] == \
        [[i[k] for i in items] for k in ("instruction", "metadata", "index")]
    # pickled a second time, the batch is copied into another slot like any other item
    rebuild2, args2 = batch.__reduce__()
    assert _slot_of(rebuild2, args2) != slot
    assert torch.equal(rebuild2(*args2)["input"], want["input"])


def test_an_unsent_stacked_batch_gives_its_slot_back_when_dropped(monkeypatch):
    _in_worker(monkeypatch)
    batch = collate_problems([fake_item(0), fake_item(1)])
    ring = transfer._WORKER.ring
    assert len(ring.reserved) == 1
    twin = copy.copy(batch)  # DataLoader workers shallow-copy: the twin shares the tensors
    del batch
    assert len(ring.reserved) == 1
    del twin
    assert not ring.reserved and not transfer._WORKER.stacked


def test_a_batch_changed_after_stacking_is_copied_as_it_now_is(monkeypatch):
    _in_worker(monkeypatch)
    batch = collate_problems([fake_item(0), fake_item(1)])
    batch["input"] = batch["input"].flip(0).contiguous()  # a worker-side transform
    want = batch["input"].clone()
    rebuild, args = batch.__reduce__()
    assert _slot_of(rebuild, args) is not None and torch.equal(rebuild(*args)["input"], want)


def test_mixed_sizes_and_outside_a_worker_stack_as_before():
    batch = collate_problems([fake_item(0), fake_item(1)])
    assert batch["input"].shape == (2, *SHAPES[0]) and not batch["input"].is_shared()
    mixed = collate_problems([fake_item(1), fake_item(2)])
    assert isinstance(mixed["input"], list) and len(mixed["input"]) == 2


@pytest.mark.parametrize("batch", [None, 2])
def test_a_mapped_ring_is_named_by_its_key_not_sent_again(batch, monkeypatch):
    registry = transfer._Registry()
    named = []
    lookup = registry.get
    monkeypatch.setattr(registry, "get", lambda key: named.append(key) or lookup(key))
    monkeypatch.setattr(transfer, "_REGISTRY", registry)  # this (the training) process's
    units = 40
    loader = DataLoader(FakeStream(units, batch), batch_size=None, num_workers=2,
                        prefetch_factor=2, timeout=120)
    through_ring = 0
    for unit, got in enumerate(loader):
        assert_same(got, expected(unit, batch))
        images = got["input"] if isinstance(got["input"], list) else [got["input"]]
        through_ring += not any(image.is_shared() for image in images)
        del got, images
    # each worker sends its ring's descriptor until it sees the flag its first receipt
    # set: at most the items it had pickled by then (prefetch_factor, plus one)
    assert len(registry.rings) == 2
    assert 2 <= through_ring - len(named) <= 2 * 3
    assert len(named) >= units - 8 - 2 * 3  # a few may have gone torch's usual way


def test_the_registry_lets_go_of_retired_rings_and_those_of_exited_workers(monkeypatch):
    import subprocess
    import sys

    registry = transfer._Registry()
    monkeypatch.setattr(transfer, "_REGISTRY", registry)
    _in_worker(monkeypatch)
    small = transfer._WORKER.ring_for(4096)
    rebuild, args = _reduce_as_worker(fake_item(0))
    first = rebuild(*args)
    assert list(registry.rings) == [small.key] and int(small.flags[transfer._MAPPED]) == 1
    assert _reduce_as_worker(fake_item(0))[0] is transfer._receive_known
    larger = transfer._WORKER.ring_for(8192)  # the worker outgrows its ring: retires it
    assert larger is not small and int(small.flags[transfer._RETIRED]) == 1
    rebuild, args = _reduce_as_worker(fake_item(1))
    assert rebuild is transfer._receive  # a new ring travels with its descriptor
    rebuild(*args)
    assert list(registry.rings) == [larger.key]
    assert torch.equal(first["input"], fake_item(0)["input"])  # still valid: views keep it
    # a ring whose worker has exited is dropped at the next registration
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = PixelRing(slot_bytes=64, slots=1)
    registry.add((int(gone.stdout), 1), dead.buffer)
    assert (int(gone.stdout), 1) in registry.rings
    other = PixelRing(slot_bytes=64, slots=1)
    registry.add(other.key, other.buffer)
    assert (int(gone.stdout), 1) not in registry.rings and larger.key in registry.rings


def test_an_unknown_ring_key_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(transfer, "_REGISTRY", transfer._Registry())
    with pytest.raises(RuntimeError, match="never mapped"):
        transfer._receive_known((1, 2), 64, 0, 1, [("input", None, 0, (2, 2, 3))], {}, ("input",))


def test_successive_loaders_leave_only_live_workers_rings_registered(monkeypatch):
    registry = transfer._Registry()
    monkeypatch.setattr(transfer, "_REGISTRY", registry)
    seen = []
    for _ in range(2):
        loader = DataLoader(FakeStream(8, None), batch_size=None, num_workers=2, prefetch_factor=2,
                            timeout=120)
        for unit, got in enumerate(loader):
            assert_same(got, expected(unit, None))
        seen.append(set(registry.rings))
    assert len(seen[0]) == 2 and len(seen[1]) == 2  # the first loader's exited workers' rings
    assert not seen[0] & seen[1]                    # went when the second's arrived


def test_a_worker_places_an_item_in_a_slot_and_sends_it_as_is(monkeypatch):
    _in_worker(monkeypatch)
    item = fake_item(0)
    item["input"] = item["input"].permute(2, 0, 1)  # a chw view: placed contiguous
    want = {key: item[key].clone() for key in ("input", "answer")}
    placed = transfer.place_in_ring({key: item[key] for key in ("input", "answer")})
    ring = transfer._WORKER.ring
    assert placed is not None and all(_views_ring(placed[k], ring) for k in placed)
    assert all(placed[k].is_contiguous() and torch.equal(placed[k], want[k]) for k in want)
    item.update(placed)
    (slot,) = ring.reserved
    rebuild, args = item.__reduce__()
    assert _slot_of(rebuild, args) == slot and not ring.reserved  # sent as it is
    got = rebuild(*args)
    assert all(torch.equal(got[k], want[k]) for k in want) and got["index"] == 0


def test_an_unsent_placed_item_gives_its_slot_back_when_dropped(monkeypatch):
    _in_worker(monkeypatch)
    item = fake_item(1)
    item.update(transfer.place_in_ring({key: item[key] for key in ("input", "answer")}))
    ring = transfer._WORKER.ring
    assert len(ring.reserved) == 1
    del item
    assert not ring.reserved and not transfer._WORKER.stacked


def test_placing_outside_a_worker_or_other_tensors_does_nothing(monkeypatch):
    item = fake_item(2)
    assert transfer.place_in_ring({"input": item["input"]}) is None  # not in a worker
    _in_worker(monkeypatch)
    assert transfer.place_in_ring({"input": item["input"].float()}) is None
    assert transfer.place_in_ring({}) is None

"""Streams of problems with reference images: ProblemStream items and batches carry them
(``references`` tensors, ``reference_roles``), through DataLoader workers too; Ray Data's
generated batches of such a suite always carry a ``references`` column (empty lists for
one-image problems)."""

import numpy as np
import torch
from torch.utils.data import DataLoader

from paintkit.data import ProblemStream, collate_problems
from paintkit.suites import Suite, build_problem
from tests.support.stored_references import mixed_reference_suite

SUITE = mixed_reference_suite()


def _problem(index):
    return build_problem(SUITE, SUITE.spec(index))


def test_items_carry_their_references_and_roles():
    stream = ProblemStream(SUITE)
    for position in range(len(SUITE)):
        item, problem = stream.problem(position), _problem(position)
        if not problem.references:
            assert "references" not in item and "reference_roles" not in item
            continue
        assert item["reference_roles"] == [ref.role for ref in problem.references]
        for tensor, ref in zip(item["references"], problem.references, strict=True):
            assert tensor.dtype == torch.uint8 and np.array_equal(tensor.numpy(), ref.image)


def test_chw_layout_turns_references_too():
    item = ProblemStream(SUITE, layout="chw").problem(0)
    assert [tuple(t.shape) for t in item["references"]] == [(3, 128, 128), (3, 48, 64)]


def test_batches_give_one_list_per_item_through_dataloader_workers():
    loader = DataLoader(ProblemStream(SUITE, batch_size=3), batch_size=None, num_workers=2)
    batches = list(loader)
    assert [b["index"] for b in batches] == [[0, 1, 2], [3, 4, 5]]
    for batch in batches:
        assert [len(refs) for refs in batch["references"]] == [2, 1, 0]
        assert batch["reference_roles"] == [["style", "layout"], ["style"], []]
        for index, refs in zip(batch["index"], batch["references"], strict=True):
            for tensor, ref in zip(refs, _problem(index).references, strict=True):
                assert np.array_equal(tensor.numpy(), ref.image)


def test_one_image_items_and_batches_have_no_reference_keys():
    suite = Suite(tasks=("recolor",), conditions=("baseline",), per_cell=2, namespace="train",
                  size=(128, 128), preservation=False)
    stream = ProblemStream(suite)
    items = [stream.problem(k) for k in range(2)]
    assert all(set(item) == {"input", "answer", "instruction", "metadata", "index"}
               for item in items)
    assert "references" not in collate_problems(items)


def test_ray_batches_of_a_suite_with_references_always_carry_the_column():
    from paintkit.data.ray_data import generate_batch

    batch = generate_batch({"id": np.arange(3)}, SUITE)
    assert [[cell["role"] for cell in row] for row in batch["references"]] == \
        [["style", "layout"], ["style"], []]
    assert batch["references"].shape == (3,)
    assert all(isinstance(cell["bytes"], bytes) for cell in batch["references"][0])
    assert generate_batch({"id": np.array([2])}, SUITE)["references"].tolist() == [[]]

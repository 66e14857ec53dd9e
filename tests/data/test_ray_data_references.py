"""Ray Data over a suite mixing one-image and reference problems, on a real local Ray
instance (127.0.0.1, two CPUs): blocks with and without reference problems make one
dataset whose rows, Parquet files and pandas frame carry the bytes the local engine writes
(slow: starting Ray); without Ray, every generated block has one Arrow schema."""

import json

import pytest

from paintkit.engines import write_suite
from paintkit.suites import Suite
from paintkit.suites.combined import CombinedSuite
from paintkit.suites.references import ReferenceSuite

ray = pytest.importorskip("ray")
pq = pytest.importorskip("pyarrow.parquet")

# 3 one-image problems, then 2 reference problems: batches of 2 are
# [one-image, one-image], [one-image, reference], [reference].
SUITE = CombinedSuite([
    Suite(tasks=("translation",), conditions=("baseline",), per_cell=3, namespace="raydata",
          size=(128, 128), preservation=False),
    ReferenceSuite(tasks=("reference_copy",), conditions=("baseline",), per_cell=2),
])
BATCH = 2
ONE_IMAGE = 3


@pytest.fixture(scope="module")
def local_tree(tmp_path_factory):
    """What the in-process engine writes for SUITE (the directory layout): per index
    (input, answer, [(reference PNG, role)], metadata dict), read from the files."""
    root = tmp_path_factory.mktemp("local")
    write_suite(SUITE, root, engine="inprocess", progress=False)
    out = {}
    for index in range(len(SUITE)):
        spec = SUITE.spec(index)
        base = root / spec.folder
        metadata = json.loads((base / f"{spec.stem}.json").read_bytes())
        roles = [ref["role"] for ref in metadata.get("references", [])]
        refs = [((base / f"{spec.stem}_reference_{n}.png").read_bytes(), role)
                for n, role in enumerate(roles, start=1)]
        out[index] = ((base / f"{spec.stem}_input.png").read_bytes(),
                      (base / f"{spec.stem}_answer.png").read_bytes(), refs, metadata)
    assert [len(out[i][2]) for i in range(len(SUITE))] == [0, 0, 0, 1, 1]
    return out


@pytest.fixture(scope="module")
def dataset():
    """The problem dataset of SUITE on a fresh local Ray instance, stopped at the end."""
    from paintkit.data.ray_data import problem_dataset

    if ray.is_initialized():
        ray.shutdown()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR", _node_ip_address="127.0.0.1")
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield problem_dataset(SUITE, batch_size=BATCH).materialize()
    finally:
        ray.shutdown()


def _cells(value):
    """A ``references`` cell as [(bytes, role)]: None or missing (a one-image row) is []."""
    if value is None:
        return []
    return [(bytes(cell["bytes"]), cell["role"]) for cell in value]


def _check_rows(rows, local_tree):
    assert sorted(row["index"] for row in rows) == list(range(len(SUITE)))
    for row in rows:
        index = int(row["index"])
        input_png, answer_png, refs, metadata = local_tree[index]
        assert row["key"] == SUITE.spec(index).problem_id
        assert (bytes(row["input"]), bytes(row["answer"])) == (input_png, answer_png)
        assert json.loads(row["metadata"]) == metadata
        assert row["instruction"] == metadata["instruction"]
        assert (row["task"], row["mode"]) == (metadata["task"], metadata["mode"])
        assert _cells(row.get("references")) == refs


@pytest.mark.slow  # the module's Ray instance: 12-16 s to start, generate and stop here
def test_blocks_with_and_without_references_make_one_dataset(dataset, local_tree):
    assert dataset.num_blocks() == 3
    _check_rows(dataset.take_all(), local_tree)
    rows = []
    for batch in dataset.iter_batches(batch_size=None, batch_format="numpy"):
        names = list(batch)
        rows += [{name: batch[name][k] for name in names} for k in range(len(batch["index"]))]
    _check_rows(rows, local_tree)
    assert "references" in dataset.schema().names


@pytest.mark.slow  # the module's Ray instance: 12-16 s to start, generate and stop here
def test_the_dataset_writes_parquet_with_references_on_the_reference_rows(dataset, local_tree,
                                                                          tmp_path):
    dataset.write_parquet(str(tmp_path))
    table = pq.read_table(tmp_path)
    assert "references" in table.schema.names
    rows = table.to_pylist()
    _check_rows(rows, local_tree)
    by_index = {row["index"]: row for row in rows}
    assert [by_index[i]["references"] for i in range(ONE_IMAGE)] == [[]] * ONE_IMAGE


@pytest.mark.slow  # the module's Ray instance: 12-16 s to start, generate and stop here
def test_the_dataset_as_pandas(dataset, local_tree):
    frame = dataset.to_pandas()
    assert len(frame) == len(SUITE) and "references" in frame.columns
    _check_rows(frame.to_dict("records"), local_tree)


def test_a_one_image_suite_never_gets_the_column_and_every_block_one_schema():
    from paintkit.data.ray_data import dataset_schema, generate_table
    from paintkit.suites.protocol import may_hold_references

    one_image = SUITE.parts[0]
    assert not may_hold_references(one_image) and may_hold_references(SUITE)
    assert may_hold_references(SUITE.parts[1])
    table = generate_table({"id": [0]}, one_image, references=False)
    assert table.schema.names == ["index", "key", "input", "answer", "instruction", "task",
                                  "mode", "visual_condition", "category", "metadata"]
    without = generate_table({"id": [0, 1]}, SUITE, references=True)
    with_refs = generate_table({"id": [3]}, SUITE, references=True)
    assert without.schema == with_refs.schema == dataset_schema(True)
    assert without["references"].to_pylist() == [[], []]


def test_a_reference_problem_in_a_dataset_without_the_column_is_an_error():
    from paintkit.data.ray_data import generate_batch

    with pytest.raises(ValueError, match="has reference images but the dataset has no "
                                         "references column"):
        generate_batch({"id": [3]}, SUITE, references=False)


def test_every_suite_says_whether_its_problems_can_have_references():
    from paintkit.engines.feasibility import SkippingSuite
    from paintkit.suites.compositional import CompositionalSuite
    from paintkit.suites.guidance import GuidanceSuite
    from paintkit.suites.protocol import may_hold_references
    from paintkit.tinygrafix.style_suite import StyleTransferSuite
    from paintkit.tinygrafix.suite import TinyGrafixSuite

    one_image = (Suite(), TinyGrafixSuite(), CompositionalSuite(), GuidanceSuite())
    assert [suite.reference_images for suite in one_image] == [False] * 4
    assert ReferenceSuite().reference_images and StyleTransferSuite().reference_images
    assert not CombinedSuite(one_image).reference_images
    assert CombinedSuite([*one_image, StyleTransferSuite()]).reference_images
    assert SkippingSuite(ReferenceSuite(), []).reference_images
    assert not SkippingSuite(Suite(), []).reference_images
    assert may_hold_references(object())  # a suite that does not say may have them


def test_generate_table_and_generate_batch_default_alike():
    from paintkit.data.ray_data import dataset_schema, generate_table

    assert generate_table({"id": [3]}, SUITE).schema == dataset_schema(True)
    assert generate_table({"id": [0]}, SUITE.parts[0]).schema == dataset_schema(False)

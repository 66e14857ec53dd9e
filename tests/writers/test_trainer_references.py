"""Problems with reference images (the scene reference and chart style transfer suites) in the
trainer formats, read back at each trainer's loading path:

- ``--format flow-grpo``: flow_grpo's ``dataset/dual_ref`` rows as
  ``train_qwenimage_edit_plus.py``'s ``GenevalPromptImageDataset`` opens them (``ctrl_image``
  the input, ``ref_image`` the reference, ``sup_image`` the answer; reproduced in
  ``test_flow_grpo_edit_trainers.py``), then scored through ``multi_score`` as its loop calls
  it (``reward_fn(images, prompts, metadata, ref_images, only_strict=False)``);
- ``--format flow-factory``: the JSONL loaded by ``datasets.load_dataset("json")`` (the call
  Flow-Factory's ``GeneralDataset._load_raw_dataset`` makes) and each row's ``images`` opened
  under ``images/`` as its ``_preprocess_batch`` does;
- ``--format verl-omni`` / ``pix2pix``: refused, one line naming the formats that carry them
  (verl-omni's rollout takes exactly one condition image; ``train_instruct_pix2pix.py`` one
  original image column).
"""

from __future__ import annotations

import functools
import json
import os
import shutil

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.engines import write_suite
from paintkit.suites.combined import CombinedSuite
from paintkit.suites.references import ReferenceSuite
from paintkit.tinygrafix.style_suite import StyleTransferSuite
from paintkit.writers import FORMATS
from paintkit.writers.reference_limits import ReferencesNotCarried, formats_carrying
from tests.support.generate_helpers import small_suite, tree_digest
from tests.writers.test_flow_grpo_edit_trainers import QwenEditDataset, multi_score

#: Problems with one reference: two scene copies, a chart style transfer.
ONE = CombinedSuite((ReferenceSuite(tasks=("reference_copy",), conditions=("baseline",),
                                    per_cell=2),
                     StyleTransferSuite(tasks=("bar_chart",), per_cell=1)))
#: Problems with two references (a layout and a palette).
TWO = ReferenceSuite(tasks=("reference_move_recolor",), conditions=("baseline",), per_cell=2)


@functools.cache
def problems_of(suite):
    return {p.problem_id: p for p in suite.problems()}


def write(suite, out, fmt):
    return write_suite(suite, out, format=fmt, engine="inprocess", progress=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """``ONE`` written once in each JSONL format: ``{format: folder}``."""
    root = tmp_path_factory.mktemp("one")
    for fmt in ("flow-grpo", "flow-factory"):
        write(ONE, root / fmt, fmt)
    return {fmt: root / fmt for fmt in ("flow-grpo", "flow-factory")}


def test_flow_grpo_dual_ref_rows_carry_the_reference(written, monkeypatch):
    out = written["flow-grpo"]
    problems = problems_of(ONE)
    monkeypatch.setenv("PAINTKIT_REWARD_ROOT", str(out))
    from paintkit import score
    from paintkit.rewards import flow_grpo_pixel_miou

    reward_fn = multi_score("cpu", {"paintbench": flow_grpo_pixel_miou}, {"paintbench": 1.0})
    dataset = QwenEditDataset(str(out))
    assert len(dataset) == len(ONE)  # indices 0-2: all in the train split
    for idx in range(len(dataset)):
        item = dataset[idx]
        meta = item["metadata"]
        problem = problems[meta["problem_id"]]
        assert meta["ref_image"].endswith("_reference_1.png") and meta["image"] == meta["ctrl_image"]
        assert np.array_equal(np.asarray(item["ctrl_image"]), problem.input)
        assert np.array_equal(np.asarray(item["ref_image"]), problem.references[0].image)
        assert np.array_equal(np.asarray(item["sup_image"]), problem.answer)
        outputs = [problem.answer, problem.references[0].image]  # copying the reference
        images = [torch.from_numpy(x.copy()).permute(2, 0, 1).float() / 255 for x in outputs]
        details, _ = reward_fn(images, [item["prompt"]] * 2, [meta] * 2,
                               [item["ref_image"]] * 2, only_strict=False)
        expected = [np.float32(s.miou) for s in score(outputs, [problem.answer] * 2,
                                                      [problem.input] * 2)]
        assert [np.float32(s) for s in details["paintbench"]] == expected
        assert expected[0] == 1.0 and expected[1] <= 0.05


def test_flow_grpo_refuses_two_references_naming_the_formats_that_carry_them(tmp_path):
    with pytest.raises(ReferencesNotCarried) as caught:
        write(TWO, tmp_path / "flow_grpo", "flow-grpo")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("--format flow-grpo takes at most 1 reference image(s)")
    assert "formats that carry 2: directory, flow-factory, parquet, webdataset" in message
    assert not list((tmp_path / "flow_grpo").rglob("*.png"))  # the first problem is refused


@pytest.mark.parametrize("fmt, why", [("verl-omni", "exactly one condition image"),
                                      ("pix2pix", "one original image column")])
def test_single_image_trainers_refuse_a_reference(tmp_path, fmt, why):
    out = tmp_path / fmt
    with pytest.raises(ReferencesNotCarried, match=why) as caught:
        write(ONE, out, fmt)
    assert f"--format {fmt} takes no reference images" in str(caught.value)
    assert "flow-factory, flow-grpo (at most 1)" in str(caught.value)
    assert not list(out.rglob("*.parquet"))  # the open shard was discarded
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_every_format_says_how_many_references_it_carries():
    assert {name: cls.max_references for name, cls in FORMATS.items()} == {
        "directory": None, "webdataset": None, "parquet": None, "verl-omni": 0, "pix2pix": 0,
        "flow-grpo": 1, "flow-factory": None}
    assert formats_carrying(1) == ["directory", "flow-factory", "flow-grpo (at most 1)",
                                   "parquet", "webdataset"]


def flow_factory_rows(out, split="train"):
    """Flow-Factory's ``GeneralDataset``: ``load_dataset("json")``, then ``image`` renamed
    ``images`` and every path opened under ``<dataset>/images``."""
    datasets = pytest.importorskip("datasets")
    table = datasets.load_dataset("json", data_files=str(out / f"{split}.jsonl"),
                                  split="train", cache_dir=str(out.parent / "hf-cache"))
    batch = table[:]
    if "image" in batch:
        batch["images"] = batch.pop("image")
    rows = []
    for k, paths in enumerate(batch["images"]):
        paths = [paths] if isinstance(paths, str) else paths
        images = [np.asarray(Image.open(os.path.join(out, "images", p)).convert("RGB"))
                  for p in paths]
        rows.append(({key: batch[key][k] for key in batch if key != "images"}, images))
    return rows


def test_flow_factory_lines_list_the_input_then_each_reference(tmp_path):
    out = tmp_path / "ff"
    write(TWO, out, "flow-factory")
    problems = problems_of(TWO)
    rows = flow_factory_rows(out)
    assert len(rows) == len(TWO)
    for fields, images in rows:
        problem = problems[fields["problem_id"]]
        assert len(images) == 3
        assert np.array_equal(images[0], problem.input)
        for image, ref in zip(images[1:], problem.references, strict=True):
            assert np.array_equal(image, ref.image)
        assert fields["input"].endswith("_input.png") and fields["answer"].endswith("_answer.png")
    line = json.loads((out / "train.jsonl").read_text().splitlines()[0])
    assert list(line) == ["prompt", "images", "answer", "problem_id", "task", "input"]


def test_flow_factory_mixed_dataset_has_one_image_column(tmp_path):
    """One-image problems beside problems with references: their JSONL lines give
    ``images: [input]`` (a lone ``image`` there would lose its images in the loader's
    table), their sidecars keep ``image``."""
    plain = small_suite(tasks=("recolor",), conditions=("baseline",), per_cell=2,
                        size=(256, 256), preservation=False)
    mixed = CombinedSuite((plain, ReferenceSuite(tasks=("reference_recolor",),
                                                 conditions=("baseline",), per_cell=1)))
    out = tmp_path / "ff"
    write(mixed, out, "flow-factory")
    problems = problems_of(mixed)
    counts = []
    for fields, images in flow_factory_rows(out):
        problem = problems[fields["problem_id"]]
        assert len(images) == 1 + len(problem.references)
        assert np.array_equal(images[0], problem.input)
        counts.append(len(images))
    assert sorted(set(counts)) == [1, 2]
    sidecars = [json.loads(p.read_text()) for p in sorted(out.rglob("images/**/*.json"))]
    assert any("image" in s for s in sidecars) and any("images" in s for s in sidecars)


def test_a_one_image_dataset_keeps_its_lines(tmp_path):
    suite = small_suite(tasks=("recolor",), conditions=("baseline",), per_cell=2,
                        size=(256, 256), preservation=False)
    write(suite, tmp_path / "ff", "flow-factory")
    write(suite, tmp_path / "grpo", "flow-grpo")
    ff = json.loads((tmp_path / "ff" / "train.jsonl").read_text().splitlines()[0])
    grpo = json.loads((tmp_path / "grpo" / "train_metadata.jsonl").read_text().splitlines()[0])
    assert list(ff) == ["prompt", "image", "answer", "problem_id", "task", "input"]
    assert grpo["ref_image"] == grpo["ctrl_image"] == grpo["image"]
    assert not list(tmp_path.rglob("*_reference_*"))


@pytest.mark.parametrize("fmt", ["flow-factory", "flow-grpo"])
def test_a_resumed_run_keeps_the_references(written, tmp_path, fmt):
    out = tmp_path / fmt
    shutil.copytree(written[fmt], out)
    before = tree_digest(out)
    manifest = json.loads((out / "manifest.json").read_text())
    refs = [p for p in manifest["files"] if p.endswith("_reference_1.png")]
    assert len(refs) == len(ONE)
    (out / refs[0]).unlink()  # that problem is made again, the others are kept
    summary = write(ONE, out, fmt)
    assert (summary.generated, summary.skipped) == (1, len(ONE) - 1)
    assert tree_digest(out) == before


@pytest.mark.slow
def test_generate_refuses_with_one_line(tmp_path, capsys):
    from paintkit.cli.main import main

    code = main(["generate", "references", "--tasks", "reference_copy", "--conditions",
                 "baseline", "--per-cell", "1", "--format", "pix2pix", "--out",
                 str(tmp_path / "out"), "--engine", "inprocess", "--quiet"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("paintkit generate: error: --format pix2pix takes no reference")
    assert lines[0].endswith("formats that carry 1: directory, flow-factory, flow-grpo "
                             "(at most 1), parquet, webdataset")


def test_a_sidecar_without_its_keys_is_made_again(written, tmp_path):
    out = tmp_path / "grpo"
    shutil.copytree(written["flow-grpo"], out)
    sidecar = sorted(out.rglob("images/**/*.json"))[0]
    sidecar.write_text("{}")  # and unrecorded: a file the manifest does not list is kept as is
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["files"][str(sidecar.relative_to(out))]
    (out / "manifest.json").write_text(json.dumps(manifest))
    summary = write(ONE, out, "flow-grpo")
    assert summary.generated == 1 and json.loads(sidecar.read_text())["ref_image"]

"""``paintkit run`` over problems with reference images: every image reaches the model, in
order, with its role; a model that takes one image refuses such a problem with one line
(that problem's failure, the rest of the batch runs) and is never handed it."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_editors
from PIL import Image
from reference_tree import ROLES, pattern, reference_pixels, write_reference_tree

from paintkit.cli.main import main
from paintkit.io.images import load_rgb
from paintkit.run.interface import EditModel, EditRequest, EditResult, ReferenceImage
from paintkit.run.records import read_log
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model

GUIDED = "References/guided"


@pytest.fixture
def tree(tmp_path):
    return write_reference_tree(tmp_path / "bench")


@pytest.fixture(autouse=True)
def fresh_calls():
    reference_editors.SEEN.clear()


def _written(out, folder):
    return sorted(p.name for p in (out / folder / GUIDED).glob("*_output.png"))


def test_a_callable_that_declares_references_gets_every_image_in_order(tree, tmp_path):
    summary = run_model(build_model("reference_editors:with_references", batch_size=3), tree,
                        tmp_path / "out", progress=False)
    assert summary.written == 3 and not summary.failures
    [call] = reference_editors.SEEN  # one batch of three: with and without references
    assert [text for text, _ in call] == ["guided edit 0", "guided edit 1", "guided edit 2"]
    for idx, (_, refs) in enumerate(call):
        assert [role for _, role in refs] == list(ROLES[idx])
        for n, (pixels, _) in enumerate(refs, 1):
            np.testing.assert_array_equal(pixels, reference_pixels(idx, n))
    assert call[2][1][1][0].shape == (24, 48, 3)  # a reference keeps its own size
    out = load_rgb(tmp_path / "out" / "reference_editors.with_references" / GUIDED /
                   "0002_output.png")
    np.testing.assert_array_equal(out, 255 - pattern(2))  # scored against the input


@pytest.mark.parametrize("function", ["one_image", "options_only"])
def test_a_one_image_callable_runs_one_image_problems_and_refuses_the_others(function, tree,
                                                                           tmp_path):
    name = f"reference_editors:{function}"
    summary = run_model(build_model(name, batch_size=3,
                                    options={"scale": 1} if function == "options_only" else None),
                        tree, tmp_path / "out", progress=False)
    folder = f"reference_editors.{function}"
    assert summary.written == 1 and _written(tmp_path / "out", folder) == ["0000_output.png"]
    assert reference_editors.SEEN == [[("guided edit 0", None)]]  # never handed the others
    assert sorted(summary.failures) == [f"{GUIDED}/0001", f"{GUIDED}/0002"]
    reason = summary.failures[f"{GUIDED}/0002"]
    assert reason == (f"{name} takes one image; this problem has 3 (its input and 2 reference "
                      "image(s): style, layout); declare a 'references' parameter to get the "
                      "reference images")
    records = {r["key"]: r for r in read_log(tmp_path / "out" / folder)}
    assert records[f"{GUIDED}/0001"]["status"] == "failed" and "seed" in records[f"{GUIDED}/0001"]


def test_references_is_not_an_option_name_for_a_function_that_takes_them(tree):
    with pytest.raises(ValueError, match="--option references= is the name"):
        build_model("reference_editors:with_references", options={"references": 1})


class OldModel(EditModel):
    """An adapter written before references: it says nothing about how many images it
    takes."""

    name = "old"

    def __init__(self):
        self.seen = []

    def edit_batch(self, requests):
        self.seen.extend(r.key for r in requests)
        return [EditResult(image=r.image) for r in requests]


class DuckModel:
    """An adapter that is not an :class:`EditModel` (no ``refusal``, no ``max_images``)."""

    name = "duck"

    def __init__(self):
        self.seen = []

    def edit_batch(self, requests):
        self.seen.extend(r.key for r in requests)
        return [EditResult(image=r.image) for r in requests]

    def describe(self):
        return {"name": self.name}

    def usage_summary(self):
        return {}


class ManyImages(EditModel):
    name, max_images = "many", 2

    def edit_batch(self, requests):
        return [EditResult(image=r.images[-1].resize(r.image.size)) for r in requests]


def test_an_adapter_takes_one_image_unless_it_says_more(tree, tmp_path):
    old = OldModel()
    summary = run_model(old, tree, tmp_path / "out", progress=False)
    assert old.seen == [f"{GUIDED}/0000"] and summary.written == 1
    assert summary.failures[f"{GUIDED}/0001"] == (
        "old takes one image; this problem has 2 (its input and 1 reference image(s): style); "
        "run a model that takes several images")
    duck = DuckModel()
    summary = run_model(duck, tree, tmp_path / "out", progress=False)
    assert duck.seen == [f"{GUIDED}/0000"] and len(summary.failures) == 2
    assert summary.failures[f"{GUIDED}/0001"].startswith("duck takes one image;")
    summary = run_model(ManyImages(), tree, tmp_path / "out", progress=False)
    assert summary.written == 2 and list(summary.failures) == [f"{GUIDED}/0002"]
    assert "many takes at most 2 images; this problem has 3" in summary.failures[f"{GUIDED}/0002"]


def test_the_metadata_says_how_many_references_there_are(tree, tmp_path):
    folder = tree / GUIDED
    Image.fromarray(pattern(9)).save(folder / "000_reference_1.png")  # listed nowhere: unsent
    (folder / "001_reference_1.png").unlink()  # listed, missing: the problem fails
    meta = json.loads((folder / "002.json").read_text())
    meta["references"] = ["style"]  # malformed: the problem fails
    (folder / "002.json").write_text(json.dumps(meta))
    summary = run_model(build_model("reference_editors:with_references", batch_size=3), tree,
                        tmp_path / "out", progress=False)
    assert summary.written == 1 and reference_editors.SEEN == [[("guided edit 0", [])]]
    assert summary.failures[f"{GUIDED}/0001"].startswith("cannot read the problem: ")
    assert "001_reference_1.png" in summary.failures[f"{GUIDED}/0001"]
    assert summary.failures[f"{GUIDED}/0002"].startswith("cannot read the problem: ")
    assert summary.failures[f"{GUIDED}/0002"].endswith(
        "002.json: 'references' must be a list of {\"role\": name} objects, got ['style']")


def test_the_request_lists_its_images_in_order():
    source, style = Image.new("RGB", (4, 3), "red"), Image.new("RGB", (2, 2), "blue")
    request = EditRequest(source, "x", 0, references=(ReferenceImage(style, "style"),))
    assert request.images == (source, style)
    [(image, role)] = request.references
    assert image is style and role == "style"
    assert EditRequest(source, "x", 0).images == (source,)


def test_the_cli_run_refuses_with_the_same_line(tree, tmp_path, capsys):
    code = main(["run", "--model", "reference_editors:one_image", "--benchmarks", str(tree),
                 "--outputs", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "1 output written, 0 already there, 2 failed" in err
    assert ("paintkit run: failed References/guided/0001: reference_editors:one_image takes one "
            "image; this problem has 2 (its input and 1 reference image(s): style);") in err
    log = read_log(tmp_path / "out" / "reference_editors.one_image")
    assert [r["status"] for r in log] == ["ok", "failed", "failed"]

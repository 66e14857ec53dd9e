"""The reference suites as ``paintkit generate`` writes them, through ``paintkit run`` and
``paintkit eval``: scene references (two problems, one with two references) and chart style
transfer. A model that takes several images gets each problem's references as the files
hold them and, answering the answer, scores 1.0; a model that takes one image is refused
every such problem."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
import reference_editors
from PIL import Image

from paintkit.cli.main import main
from paintkit.eval import evaluate, read_rows
from paintkit.io.images import load_rgb
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model

KEYS = ["References/reference_copy/0000", "References/reference_move_recolor/0000",
        "StyleTransfer/bar_chart/0000"]


@pytest.fixture(scope="module")
def suites(tmp_path_factory):
    made = tmp_path_factory.mktemp("suites")
    assert main(["generate", "references", "--out", str(made / "refs"), "--tasks",
                 "reference_copy,reference_move_recolor", "--conditions", "baseline",
                 "--per-cell", "1", "--engine", "inprocess", "--quiet"]) == 0
    assert main(["generate", "style-transfer", "--out", str(made / "st"), "--tasks",
                 "bar_chart", "--per-cell", "1", "--any-matplotlib", "--engine", "inprocess",
                 "--quiet"]) == 0
    root = made / "bench"  # both benchmarks in one tree, as a run over both reads it
    root.mkdir()
    (made / "refs" / "References").rename(root / "References")
    (made / "st" / "StyleTransfer").rename(root / "StyleTransfer")
    return root


@pytest.fixture(autouse=True)
def fresh_calls(suites):
    reference_editors.SEEN.clear()
    reference_editors.ROOT[:] = [suites]


def _references_on_disk(root, key):
    benchmark, task, index = key.split("/")
    folder = root / benchmark / task
    roles = [r["role"] for r in json.loads((folder / f"{int(index):03d}.json").read_text())
             ["references"]]
    return [(load_rgb(folder / f"{int(index):03d}_reference_{n}.png"), role)
            for n, role in enumerate(roles, 1)]


def test_a_model_taking_several_images_gets_them_and_scores_like_any_problem(suites, tmp_path):
    out = tmp_path / "out"
    summary = run_model(build_model("reference_editors:answers", batch_size=3), suites, out,
                        progress=False)
    assert summary.written == 3 and not summary.failures
    [call] = reference_editors.SEEN
    for key, (_, refs) in zip(KEYS, call, strict=True):
        expected = _references_on_disk(suites, key)
        assert [role for _, role in refs] == [role for _, role in expected]
        for (got, _), (want, _) in zip(refs, expected, strict=True):
            np.testing.assert_array_equal(got, want)
    assert [len(refs) for _, refs in call] == [1, 2, 1]
    evaluate(suites, out, tmp_path / "res", jobs=1, progress=False)
    rows = read_rows(tmp_path / "res" / "problem_stats.jsonl")
    assert len(rows) == 3 and all(r["output"]["cie76_mean"]["iou"] == 1.0 for r in rows)


def test_a_model_taking_one_image_is_refused_every_reference_problem(suites, tmp_path):
    summary = run_model(build_model("reference_editors:one_image"), suites, tmp_path / "out",
                        progress=False)
    assert summary.written == 0 and sorted(summary.failures) == KEYS
    assert not reference_editors.SEEN and not list(tmp_path.rglob("*_output.png"))
    assert "this problem has 3 (its input and 2 reference image(s): layout, palette)" in \
        summary.failures["References/reference_move_recolor/0000"]


def test_chat_code_edits_a_style_transfer_chart_seeing_both_charts(suites, tmp_path,
                                                                   monkeypatch):
    pytest.importorskip("openai")
    from test_chat_code_model import ChatFake

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    folder = suites / "StyleTransfer" / "bar_chart"
    meta = json.loads((folder / "000.json").read_text())
    with ChatFake(lambda body, attempt: (
            200, "```json\n" + json.dumps(meta["answer_state"]) + "\n```", "stop")) as fake:
        model = build_model("chat-code", api_base=fake.url, options={"with_image": True})
        summary = run_model(model, suites, tmp_path / "out", benchmarks=["StyleTransfer"],
                            progress=False)
    assert summary.written == 1 and not summary.failures
    [request] = fake.requests
    text, *images = request["body"]["messages"][1]["content"]
    assert text["text"].startswith("Instruction: The first image is the chart to edit; the "
                                   "second image is the style reference.")
    sent = [np.asarray(Image.open(io.BytesIO(base64.b64decode(
        part["image_url"]["url"].split(",", 1)[1]))).convert("RGB")) for part in images]
    assert len(sent) == 2
    np.testing.assert_array_equal(sent[0], load_rgb(folder / "000_input.png"))
    np.testing.assert_array_equal(sent[1], load_rgb(folder / "000_reference_1.png"))
    evaluate(suites, tmp_path / "out", tmp_path / "res", jobs=1, progress=False,
             benchmarks=["StyleTransfer"])
    [row] = read_rows(tmp_path / "res" / "problem_stats.jsonl")
    assert row["output"]["cie76_mean"]["iou"] == 1.0


def test_chat_code_without_images_refuses_a_problem_with_references(suites, tmp_path,
                                                                   monkeypatch):
    pytest.importorskip("openai")
    from test_chat_code_model import ChatFake

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ChatFake(lambda body, attempt: (500, "", "stop")) as fake:
        summary = run_model(build_model("chat-code", api_base=fake.url), suites,
                            tmp_path / "out", benchmarks=["StyleTransfer"], progress=False)
    assert summary.written == 0 and not fake.requests  # nothing was sent
    assert summary.failures == {"StyleTransfer/bar_chart/0000": (
        "chat-code sends the input as code and no image, so this problem's 1 reference "
        "image(s) (style) would be dropped: --option with_image=true sends every image with "
        "the code")}

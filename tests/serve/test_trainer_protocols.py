"""``paintkit serve`` answering the wire formats trainers already send, on a loopback server,
from clients reproduced in this project's words (neither installs from PyPI):

- Flow-Factory (X-GenGroup/Flow-Factory a0b2bc5, ``src/flow_factory/rewards/
  my_reward_remote.py`` ``RemoteRewardClient.compute`` / ``_build_payload``): a
  ``requests.Session`` posting JSON to ``/compute``, images as base64 PNG (float
  ``(3, H, W)`` tensors scaled by 255 and truncated to uint8), reading ``data["rewards"]``
  after ``raise_for_status()``; ``extra`` as ``reward_server/example_server.py`` reads it;
- UniRL (Tencent-Hunyuan/UniRL 1a7b501, ``unirl-reward-service/reward_service/client.py``
  ``RewardClient.score`` and ``schemas.py``): ``{"requests": [{"history": [{"text",
  "image_b64"}], "required_rewards", "metadata"}]}`` to ``/score``, images JPEG (q=95) by
  default or PNG, reading ``results``.
"""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from paintkit.metrics import reward, score

requests = pytest.importorskip("requests")


@pytest.fixture(scope="module")
def service():
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    running = RunningService(ServeOptions(device="cpu", max_wait_ms=2))
    yield running
    running.stop()


def encode(image: np.ndarray, image_format: str = "PNG") -> str:
    buf = io.BytesIO()
    Image.fromarray(image).save(buf, format=image_format,
                                **({"quality": 95} if image_format == "JPEG" else {}))
    return base64.b64encode(buf.getvalue()).decode()


def flow_factory_compute(url: str, prompts, images, condition_images, extra=None):
    """Flow-Factory's client: float tensors -> (x * 255) truncated to uint8 -> PNG base64."""
    import torch

    def b64(x):
        if isinstance(x, torch.Tensor):
            x = (x.clamp(0, 1).permute(1, 2, 0).cpu().numpy() * 255).astype("uint8")
        return encode(x)

    payload = {"prompt": prompts, "image": [b64(x) for x in images],
               "video": None, "condition_images": [[b64(c) for c in cs] for cs in
                                                   condition_images],
               "condition_videos": None}
    if extra is not None:
        payload["extra"] = extra
    with requests.Session() as session:
        r = session.post(f"{url}/compute", json=payload, timeout=60)
        r.raise_for_status()
        return r.json()


def unirl_score(url: str, reqs, image_format: str = "JPEG"):
    """UniRL's client: history turns of (text, PIL image) -> base64 (JPEG q=95 by default)."""
    payload = {"requests": [{
        "history": [{"text": text, "image_b64": encode(np.asarray(img), image_format)}
                    for text, img in req["history"]],
        "required_rewards": list(req["required_rewards"]), "metadata": req.get("metadata")}
        for req in reqs]}
    with requests.Session() as session:
        resp = session.post(f"{url}/score", json=payload, timeout=60)
        resp.raise_for_status()
        return resp.json()


def test_flow_factory_compute_gives_the_exact_rewards(service, problems):
    import torch

    outputs = [problems[0].answer, problems[0].input, problems[1].answer]
    ids = [problems[0].metadata["problem_id"]] * 2 + [problems[1].metadata["problem_id"]]
    tensors = [torch.from_numpy(x.copy()).permute(2, 0, 1).float() / 255 for x in outputs]
    conds = [[problems[0].input], [problems[0].input], [problems[1].input]]
    answer = flow_factory_compute(service.url, ["p"] * 3, tensors, conds,
                                  extra={"problem_id": ids})
    expected = [float(reward(o, p.answer, p.input))
                for o, p in zip(outputs, [problems[0], problems[0], problems[1]], strict=True)]
    assert answer["rewards"] == pytest.approx(expected, abs=0)
    assert answer["rewards"][0] == 1.0 and answer["rewards"][1] <= 0.05
    assert len(answer["iou"]) == 3 and len(answer["iou"][0]) == 11


def test_flow_factory_compute_without_ids_or_with_a_jpeg_is_an_error(service, problems):
    p = problems[0]
    with pytest.raises(requests.HTTPError) as info:
        flow_factory_compute(service.url, ["p"], [p.answer], [[p.input]])
    assert info.value.response.status_code == 400
    assert "extra.problem_id" in info.value.response.json()["detail"]
    body = {"prompt": ["p"], "image": [encode(p.answer, "JPEG")],
            "extra": {"problem_id": [p.metadata["problem_id"]]}}
    r = requests.post(f"{service.url}/compute", json=body, timeout=60)
    assert r.status_code == 400 and "lossy" in r.json()["detail"]
    r = requests.post(f"{service.url}/compute", json={
        "image": [encode(p.answer)], "extra": {"problem_id": ["paintbench-nope-baseline-x-000000"]}},
        timeout=60)
    assert r.status_code == 422 and "nope" in r.json()["detail"]


def test_unirl_score_gives_reward_and_per_tolerance_sub_metrics(service, problems):
    p = problems[0]
    pid = p.metadata["problem_id"]
    reqs = [{"history": [("edit", Image.fromarray(p.input)), ("edit", Image.fromarray(out))],
             "required_rewards": ["paintbench"], "metadata": {"problem_id": pid}}
            for out in (p.answer, p.input)]
    answer = unirl_score(service.url, reqs, image_format="PNG")
    assert answer["errors"] == [{}, {}]
    first, second = (r["paintbench"] for r in answer["results"])
    assert first["score"] == 1.0 and second["score"] == float(reward(p.input, p.answer, p.input))
    assert second["score"] <= 0.05
    figures = score([p.input], [p.answer], [p.input])[0]
    assert [second[f"iou_{t}"] for t in range(11)] == pytest.approx(
        [float(np.float32(v)) for v in figures.iou], abs=1e-7)


def test_unirl_jpeg_default_is_named_lossy_not_scored(service, problems):
    p = problems[0]
    reqs = [{"history": [("edit", Image.fromarray(p.input)), ("edit", Image.fromarray(p.answer))],
             "required_rewards": ["paintbench"],
             "metadata": {"problem_id": p.metadata["problem_id"]}},
            {"history": [("edit", Image.fromarray(p.answer))], "required_rewards": ["paintbench"],
             "metadata": {}}]
    answer = unirl_score(service.url, reqs)  # UniRL's default encoding: JPEG
    assert answer["results"] == [{}, {}]
    assert "lossy" in answer["errors"][0]["paintbench"]
    assert "problem_id" in answer["errors"][1]["paintbench"]
    r = requests.post(f"{service.url}/score", json={"requests": [
        {"history": [], "required_rewards": ["clip"], "metadata": None}]}, timeout=60)
    assert r.status_code == 400 and "unknown reward: clip" in r.json()["detail"]
    assert requests.get(f"{service.url}/rewards", timeout=60).json() == {"rewards": ["paintbench"]}


def test_pickle_is_refused_on_the_trainer_routes(service):
    for path in ("/compute", "/score"):
        r = requests.post(f"{service.url}{path}", data=b"\x80\x04K\x01.",
                          headers={"content-type": "application/python-pickle"}, timeout=60)
        assert r.status_code == 415


def test_hostile_bodies_on_the_trainer_routes_are_400(service):
    deep = b"[" * 100_000 + b"]" * 100_000
    for path in ("/compute", "/score"):
        for body in (deep, b"{not json", b"[]"):
            r = requests.post(f"{service.url}{path}", data=body,
                              headers={"content-type": "application/json"}, timeout=60)
            assert r.status_code == 400, (path, body[:10], r.text)
    assert requests.get(f"{service.url}/health", timeout=60).status_code == 200


def test_flow_factorys_own_client_with_no_extra_is_matched_by_prompt(tmp_path, start_service):
    """``paintkit serve --prompts DATASET``: Flow-Factory's client sends prompts and the resized
    condition images, nothing naming the problem."""
    import json

    import torch

    from paintkit.engines import write_suite
    from paintkit.suites import build_problem
    from tests.support.generate_helpers import small_suite

    suite = small_suite(tasks=("translation",), conditions=("baseline", "horizontal"),
                        per_cell=2, size=(256, 256))
    dataset = tmp_path / "ff"
    write_suite(suite, dataset, format="flow-factory", engine="inprocess", progress=False)
    problems = {s.problem_id: build_problem(suite, s) for s in suite.specs()}
    lines = [json.loads(t) for t in (dataset / "train.jsonl").read_text().splitlines()]
    service = start_service(prompts=str(dataset))
    prompts, images, conds, want = [], [], [], []
    for line in lines:
        p = problems[line["problem_id"]]
        small = torch.nn.functional.interpolate(
            torch.from_numpy(p.input.copy()).permute(2, 0, 1)[None].float() / 255,
            size=(48, 48), mode="bilinear", antialias=True)[0]
        for out, expected in ((p.answer, 1.0), (p.input, None)):
            prompts.append(line["prompt"])
            images.append(torch.from_numpy(out.copy()).permute(2, 0, 1).float() / 255)
            conds.append([small])
            want.append(expected if expected is not None else
                        float(reward(p.input, p.answer, p.input)))
    answer = flow_factory_compute(service.url, prompts, images, conds)  # no extra
    assert answer["rewards"] == want
    assert all(r <= 0.05 for r in answer["rewards"][1::2])
    with pytest.raises(requests.HTTPError) as info:
        flow_factory_compute(service.url, ["paint the moon"], [images[0]], [conds[0]])
    assert "is in no line of" in info.value.response.json()["detail"]

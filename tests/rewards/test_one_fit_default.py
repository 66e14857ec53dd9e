"""One ``fit=`` vocabulary and one default on every reward path.

Every path (``paintkit.reward``, ``soft_reward``, ``stream_pixel_miou``, the flow_grpo, verl-omni,
Flow-Factory and trl adapters, their remote twins, ``RewardClient`` and ``paintkit serve``)
takes ``fit`` in ``FITS`` and defaults to ``DEFAULT_FIT`` (``"exact"``): an output of
another size than its answer is a one-line error naming ``fit=``, never a reward computed
on a guessed resize. ``cover`` keeps the metric's own normalisation, the one
``paintkit.metrics.score`` (and so ``paintkit eval``) applies.
"""

from __future__ import annotations

import inspect
from typing import get_args

import numpy as np
import pytest
import torch

import paintkit
from paintkit.metrics import prepare_targets, reward, score, soft_reward
from paintkit.metrics.fit import DEFAULT_FIT, FITS
from paintkit.rewards import (
    FlowFactoryPixelMIoU,
    flow_grpo_pixel_miou,
    remote,
    stream_pixel_miou,
    verl_pixel_miou,
)
from paintkit.rewards.client import RewardClient
from paintkit.rewards.trl import trl_pixel_miou


def problem(h=32, w=48):
    """A synthetic problem: an input and an answer with a recoloured block."""
    inp = np.zeros((h, w, 3), np.uint8)
    inp[..., 2] = 200
    ans = inp.copy()
    ans[4:20, 6:30] = (250, 10, 10)  # on the grid of a 2x3 squeeze
    return inp, ans


def half(image):
    """The image at half its size (nearest neighbour): another size than its answer."""
    return np.ascontiguousarray(image[::2, ::2])


def nchw(image):
    return torch.from_numpy(image).permute(2, 0, 1)[None].float() / 255


def default_of(fn, name="fit"):
    return inspect.signature(fn).parameters[name].default


def test_every_path_has_the_same_default_and_choices():
    assert DEFAULT_FIT == "exact" and set(FITS) == {"exact", "cover", "stretch"}
    for fn in (reward, paintkit.reward, soft_reward, stream_pixel_miou, flow_grpo_pixel_miou, verl_pixel_miou,
               trl_pixel_miou, remote.flow_grpo_pixel_miou, RewardClient.__init__):
        assert default_of(fn) == DEFAULT_FIT, fn
    assert FlowFactoryPixelMIoU({"device": "cpu"}).fit == DEFAULT_FIT
    model = remote.FlowFactoryPixelMIoU(server_url="http://127.0.0.1:9")
    assert model.client.fit == DEFAULT_FIT
    assert RewardClient("http://127.0.0.1:9").fit == DEFAULT_FIT
    from paintkit.serve import protocol
    from paintkit.serve.single_image_route import FITS as SERVE_FITS

    assert set(get_args(protocol.Fit)) == set(FITS) == set(SERVE_FITS)
    for model_cls in (protocol.BatchRequest, protocol.BinaryBatchHeader):
        assert model_cls.model_fields["fit"].default == DEFAULT_FIT
    from paintkit.serve.single_image_route import plain_parameters

    assert plain_parameters(b"")["fit"] == DEFAULT_FIT


def test_remote_compute_score_defaults_to_exact(monkeypatch):
    seen = {}

    class Client:
        async def ascore_one(self, image, key, tolerance=None):
            return 1.0

    def shared(url, **settings):
        seen.update(settings)
        return Client()

    monkeypatch.setattr(remote, "shared_client", shared)
    import asyncio

    asyncio.run(remote.verl_pixel_miou(np.zeros((3, 4, 4), np.uint8), "key",
                                     server_url="http://127.0.0.1:9"))
    assert seen["fit"] == DEFAULT_FIT


def test_a_typo_names_the_choices():
    inp, ans = problem()
    for call in (lambda: reward(ans, ans, inp, fit="crop"),
                 lambda: soft_reward(nchw(ans), ans, inp, fit="crop"),
                 lambda: RewardClient("http://127.0.0.1:9", fit="crop")):
        with pytest.raises(ValueError, match="fit: expected one of 'exact', 'cover', 'stretch'"):
            call()


def one_line_fit_error(excinfo):
    message = str(excinfo.value)
    assert "\n" not in message
    assert "fit='stretch'" in message and "fit='cover'" in message and "24x16" in message, \
        message
    assert "48x32" in message, message


@pytest.mark.parametrize("path", ["reward", "reward-list", "reward-uint8", "soft_reward",
                                  "stream_pixel_miou", "flow_grpo", "verl", "flow_factory", "trl"])
def test_a_size_mismatch_under_the_default_is_a_one_line_error_naming_fit(path):
    inp, ans = problem()
    small = half(ans)
    calls = {
        "reward": lambda: reward(nchw(small), ans[None], inp[None]),
        "reward-list": lambda: reward([nchw(small)[0]], [ans], [inp]),
        "reward-uint8": lambda: reward(small, ans, inp),
        "soft_reward": lambda: soft_reward(nchw(small), ans[None], inp[None]),
        "stream_pixel_miou": lambda: stream_pixel_miou(nchw(small), {"answer": [ans], "input": [inp]}),
        "flow_grpo": lambda: flow_grpo_pixel_miou("cpu")(nchw(small), ["p"],
                                               [{"answer": ans, "image": inp}]),
        "verl": lambda: verl_pixel_miou("paintbench", small.transpose(2, 0, 1),
                                      {"answer": ans, "input": inp}),
        "flow_factory": lambda: FlowFactoryPixelMIoU({"device": "cpu"})(
            prompt=["p"], image=[small], metadata=[{"answer": ans, "input": inp}]),
        "trl": lambda: trl_pixel_miou(lambda text, image, row: small)(
            prompts=["p"], completions=["c"], answer=[ans], input=[inp]),
    }
    with pytest.raises(ValueError) as excinfo:
        calls[path]()
    one_line_fit_error(excinfo)


def test_cover_is_the_metrics_normalisation_and_stretch_resamples():
    inp, ans = problem()
    small = half(ans)
    targets = prepare_targets(ans[None], inp[None])
    cover = reward(nchw(small), targets, fit="cover")
    assert cover.tolist() == [np.float32(score([small], [ans], [inp])[0].miou)]
    # a canvas squeezed without keeping its aspect ratio, mapped back by stretch
    squeezed = np.ascontiguousarray(ans[::2, ::3])
    assert reward(nchw(squeezed), targets, fit="stretch").tolist() == [1.0]
    assert reward([squeezed], [ans], [inp], fit="stretch").tolist() == [1.0]
    assert float(reward(nchw(squeezed), targets, fit="cover")[0]) < 1.0
    assert stream_pixel_miou(nchw(squeezed), targets, fit="stretch").tolist() == [1.0]
    # the same size needs no fit
    assert reward(nchw(ans), targets).tolist() == [1.0]


def test_stretch_with_mixed_answer_sizes_and_groups():
    (i1, a1), (i2, a2) = problem(32, 48), problem(48, 32)
    targets = prepare_targets([a1, a2], [i1, i2])
    outs = [half(a1), half(a1), half(a2), half(a2)]
    assert reward(outs, targets, samples_per_problem=2, fit="stretch").tolist() == [1.0] * 4
    with pytest.raises(ValueError, match=r"outputs\[0\]: 24x16, the answer is 48x32"):
        reward(outs, targets, samples_per_problem=2)

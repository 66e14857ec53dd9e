"""PixelEditIoU (torchmetrics) against score(); its states sum across (simulated) ranks."""

import numpy as np
import pytest
import torch

from paintkit.metrics import PixelEditIoUAccumulator, score
from tests.support.metric_images import palette_pair

torchmetrics = pytest.importorskip("torchmetrics")


def problems(rng, n, h=12, w=16):
    pairs = [palette_pair(rng, h, w) for _ in range(n)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    out = ans.copy()
    out[:, : h // 2] = inp[:, : h // 2]  # half the edit done
    return torch.from_numpy(out), torch.from_numpy(ans), torch.from_numpy(inp)


def test_attributes_and_states():
    from paintkit.metrics import PixelEditIoU

    metric = PixelEditIoU()
    assert isinstance(metric, torchmetrics.Metric)
    assert PixelEditIoU.full_state_update is False
    assert PixelEditIoU.higher_is_better is True and PixelEditIoU.is_differentiable is False
    assert all(fx == "sum" or getattr(fx, "__name__", "") == "dim_zero_sum"
               for fx in metric._reductions.values())
    assert metric.edit_correct.shape == (11,)


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_matches_score_over_batches(backend, rng):
    from paintkit.metrics import PixelEditIoU

    metric, at_3 = PixelEditIoU(backend=backend), PixelEditIoU(tolerance=3, backend=backend)
    scores = []
    for _ in range(3):
        out, ans, inp = problems(rng, 4)
        metric.update(out, ans, inp)
        at_3.update(out, ans, inp)
        scores += score(out, ans, inp)
    assert float(metric.compute()) == pytest.approx(np.mean([s.miou for s in scores]), abs=1e-12)
    assert float(at_3.compute()) == pytest.approx(np.mean([s.iou[3] for s in scores]), abs=1e-12)
    all_ = metric.compute_all()
    assert int(all_["problems"]) == 12
    np.testing.assert_allclose(all_["edit_accuracy"].numpy(),
                               np.mean([s.edit_accuracy for s in scores], axis=0), atol=1e-12)


def test_rank_states_add_up_like_ddp_sync(rng):
    """What DDP's sum reduction does: states of two ranks added equal one metric on all."""
    from paintkit.metrics import PixelEditIoU

    rank0, rank1, both = PixelEditIoU(), PixelEditIoU(), PixelEditIoU()
    a, b = problems(rng, 3), problems(rng, 5)
    rank0.update(*a)
    rank1.update(*b)
    both.update(*a)
    both.update(*b)
    merged = PixelEditIoU()
    for name in rank0._defaults:
        setattr(merged, name, getattr(rank0, name) + getattr(rank1, name))
    merged._update_count = 1
    assert torch.equal(merged.compute(), both.compute())
    acc = PixelEditIoUAccumulator()
    acc.update(*a)
    acc.update(*b)
    assert float(both.compute()) == pytest.approx(acc.compute()["miou"], abs=1e-12)


def test_torchmetrics_conventions_collection_plot_and_dtype(rng):
    """``(preds, target)`` order and names, in a MetricCollection beside PSNR; ``plot()``;
    ``compute()`` float32 on the metric's device."""
    import matplotlib

    matplotlib.use("Agg")
    from torchmetrics import MetricCollection
    from torchmetrics.image import PeakSignalNoiseRatio

    from paintkit.metrics import PixelEditIoU

    out, ans, inp = problems(rng, 4)
    collection = MetricCollection({"iou": PixelEditIoU(),
                                   "psnr": PeakSignalNoiseRatio(data_range=1.0)})
    preds, target = out.permute(0, 3, 1, 2).float() / 255, ans.permute(0, 3, 1, 2).float() / 255
    collection.update(preds, target, inputs=inp)
    collection.update(preds=preds, target=target, inputs=inp)
    values = collection.compute()
    expected = np.mean([s.miou for s in score(out, ans, inp)])
    assert float(values["iou"]) == pytest.approx(expected, abs=1e-6)
    assert values["iou"].dtype == torch.float32 and values["iou"].device.type == "cpu"
    assert torch.isfinite(values["psnr"])
    metric = PixelEditIoU()
    metric.update(out, ans, inputs=inp)
    fig, ax = metric.plot()
    assert fig is not None and ax is not None
    fig, ax = metric.plot([metric.compute(), metric.compute()])
    assert fig is not None


@pytest.mark.parametrize("delta_e", ["cie76", "ciede2000"])
def test_one_accumulator_two_faces(delta_e, rng):
    """PixelEditIoU.compute_all() and PixelEditIoUAccumulator.compute() give the same figures, bit
    for bit, for any ``delta_e``; the formula is the metric's, and counts differ between
    formulas."""
    from paintkit.metrics import PixelEditIoU

    metric, acc = PixelEditIoU(delta_e=delta_e), PixelEditIoUAccumulator(delta_e=delta_e)
    batches = [problems(rng, 3), problems(rng, 4)]
    for batch in batches:
        metric.update(*batch)
        acc.update(*batch)
    assert metric.delta_e == delta_e
    figures = {k: v.tolist() for k, v in metric.compute_all().items()}
    assert figures == acc.compute()
    assert float(metric.compute()) == np.float32(figures["miou"])
    per_problem = [s for batch in batches for s in score(*batch, delta_e=delta_e)]
    assert figures["miou"] == pytest.approx(np.mean([s.miou for s in per_problem]), abs=1e-12)
    with pytest.raises(ValueError, match="delta_e"):
        PixelEditIoU(delta_e="de2000")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_both_faces_on_cuda_equal_the_cpu(backend, rng):
    """The core's state stays on the GPU (states, batch sums, figures) and gives the CPU's
    figures."""
    from paintkit.metrics import PixelEditIoU

    cpu = PixelEditIoUAccumulator(backend="numba")
    metric = PixelEditIoU(backend=backend).to("cuda")
    acc = PixelEditIoUAccumulator(backend=backend, device="cuda")
    for n in (5, 3):
        batch = problems(rng, n)
        cpu.update(*batch)
        metric.update(*(x.cuda() for x in batch))
        acc.update(*(x.cuda() for x in batch))
    assert {getattr(metric, name).device.type for name in metric._defaults} == {"cuda"}
    assert acc.state["problems"].device.type == "cuda"
    assert metric.compute().device.type == "cuda"
    want = cpu.compute()
    for got in ({k: v.cpu().tolist() for k, v in metric.compute_all().items()}, acc.compute()):
        assert got["problems"] == want["problems"] == 8
        for name in ("iou", "edit_accuracy", "preservation_accuracy", "micro_iou"):
            np.testing.assert_allclose(got[name], want[name], rtol=0, atol=1e-12)

"""examples/reward_in_training_loop.py counts on the fast path of its device (never the slow
torch reference on a CPU, which users copy) and prints the figure docs/rewards.md gives."""

import runpy
from pathlib import Path

import paintkit.metrics

ROOT = Path(__file__).resolve().parents[2]


def test_the_loop_example_uses_the_fast_path_and_prints_the_documented_figure(
        monkeypatch, capsys):
    backends = []
    original = paintkit.metrics.PixelEditIoUAccumulator

    class Recording(original):
        def __init__(self, backend="auto", *args, **kwargs):
            backends.append(backend)
            super().__init__(backend, *args, **kwargs)

    monkeypatch.setattr(paintkit.metrics, "PixelEditIoUAccumulator", Recording)
    runpy.run_path(str(ROOT / "examples" / "reward_in_training_loop.py"), run_name="__main__")
    assert backends == ["auto"]
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == "over all steps: mIoU 0.614 on 32 samples"
    assert f"`{last}`" in (ROOT / "docs" / "rewards.md").read_text()

"""``kernels/counting/cuda_launch.launch``: the compiled overload after the first call, the dispatcher
again if an overload's launch fails (another Numba release), and the same arguments either
way. A stand-in kernel records what was called: no GPU needed."""

from __future__ import annotations

import pytest

from paintkit.kernels.counting import cuda_launch


class Overload:
    def __init__(self, calls, fail=False):
        self.calls, self.fail = calls, fail

    def launch(self, args, griddim, blockdim, stream, sharedmem):
        if self.fail:
            raise TypeError("launch() takes other arguments in this release")
        self.calls.append(("overload", griddim, blockdim, stream, args))


class Kernel:
    """What ``launch`` asks of a Numba CUDA dispatcher."""

    def __init__(self, fail=False):
        self.calls = []
        self.overloads = {("int64", "int64"): Overload(self.calls, fail)}

    def typeof_pyval(self, value):
        return type(value).__name__ + "64"

    def __getitem__(self, config):
        griddim, blockdim, stream = config
        return lambda *args: self.calls.append(("dispatcher", griddim, blockdim, stream, args))


@pytest.fixture(autouse=True)
def fresh_launch_state(monkeypatch):
    monkeypatch.setattr(cuda_launch, "_OVERLOADS", {})
    monkeypatch.setattr(cuda_launch, "_FAST_LAUNCH", [True])


def test_the_first_call_dispatches_then_the_overload_launches():
    kernel = Kernel()
    for _ in range(3):
        cuda_launch.launch(kernel, (4, 2), 256, "stream", (1, 2))
    assert [c[0] for c in kernel.calls] == ["dispatcher", "overload", "overload"]
    assert all(c[1:] == ((4, 2), 256, "stream", (1, 2)) for c in kernel.calls)


def test_a_failing_overload_falls_back_to_the_dispatcher_for_good():
    kernel = Kernel(fail=True)
    for _ in range(3):
        cuda_launch.launch(kernel, 8, 128, 0, (1, 2))
    assert [c[0] for c in kernel.calls] == ["dispatcher"] * 3
    assert cuda_launch._FAST_LAUNCH == [False]

"""A reward service on 127.0.0.1 (a free port) in a thread of the test process, stopped by
the test; problems and outputs to score."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")


class RunningService:
    def __init__(self, options, log_level: str = "warning"):
        from paintkit.serve.run import build_server

        self.urls: list[str] = []
        self.server = build_server(options, "127.0.0.1", 0, log_level=log_level,
                                   announce=self.urls.append, log_config=None)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.urls:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the reward service did not start")
            time.sleep(0.02)
        self.url = self.urls[0]
        self.app = self.server.config.app
        import httpx

        while httpx.get(self.url + "/health").status_code != 200:  # warm-up
            if time.monotonic() > deadline:
                raise RuntimeError("the reward service did not become healthy")
            time.sleep(0.05)

    @property
    def service(self):
        return self.app.state.reward_service

    def stop(self):
        self.server.should_exit = True
        self.thread.join(30)
        assert not self.thread.is_alive()


@pytest.fixture
def start_service():
    """``start_service(**ServeOptions fields) -> RunningService``; every one is stopped."""
    from paintkit.serve.options import ServeOptions

    running = []

    def start(log_level: str = "warning", **settings):
        settings.setdefault("device", "cpu")
        service = RunningService(ServeOptions(**settings), log_level)
        running.append(service)
        return service

    yield start
    for service in running:
        service.stop()


@pytest.fixture(scope="module")
def problems():
    """Three small problems (256x256) by key, from the suite the benchmark is made with."""
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=["translation", "recolor", "flood_fill"], conditions=["baseline"],
                  per_cell=1, size=(256, 256))
    return [build_problem(suite, spec) for spec in suite.specs()]


def noisy(image: np.ndarray, seed: int, fraction: float = 0.05) -> np.ndarray:
    """``image`` with a random ``fraction`` of its pixels set to random colours."""
    rng = np.random.default_rng(seed)
    out = image.copy()
    mask = rng.random(image.shape[:2]) < fraction
    out[mask] = rng.integers(0, 256, (int(mask.sum()), 3), dtype=np.uint8)
    return out


def jpeg_damaged(image: np.ndarray, quality: int = 75) -> np.ndarray:
    """``image`` saved as JPEG (PIL) and read back: what a lossy transport does to it."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))


def outputs_of(problem, seed: int) -> list[np.ndarray]:
    """Perfect, unchanged, noisy and JPEG-damaged outputs of ``problem``."""
    return [problem.answer, problem.input, noisy(problem.answer, seed), jpeg_damaged(problem.answer)]

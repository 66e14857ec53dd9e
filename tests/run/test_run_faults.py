"""``paintkit run`` against hostile callables and providers (issue 38): text UTF-8 cannot hold,
one problem's failure, forged lines in reasons."""

from __future__ import annotations

import time

import pytest

from paintkit.cli.main import main
from paintkit.run.records import read_log, read_manifest
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model
from tests.support.loopback import Loopback


def _argv(model, bench, out, *extra):
    return ["run", "--model", model, "--benchmarks", str(bench), "--outputs", str(out),
            "--quiet", *extra]


def test_an_unpaired_surrogate_is_written_escaped(bench, tmp_path, capsys):
    code = main(_argv("editors:bad_text", bench, tmp_path, "--batch-size", "1"))
    assert code == 0, capsys.readouterr().err
    texts = sorted((tmp_path / "editors.bad_text").rglob("*_reasoning.txt"))
    assert len(texts) == 12
    assert {t.read_text(encoding="utf-8") for t in texts} == {"thinking \\ud800 done"}


def test_a_revised_prompt_with_a_surrogate_from_a_provider(bench, tmp_path, monkeypatch):
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with Loopback(text="revised \ud800 prompt") as server:
        model = build_model("gpt-image-2", api_base=server.url + "/v1", retries=0)
        summary = run_model(model, bench, tmp_path, tasks=["task_0"], progress=False)
    assert summary.written == 4 and not summary.failures
    (text, *_) = sorted((tmp_path / "gpt-image-2").rglob("*_reasoning.txt"))
    assert text.read_text(encoding="utf-8") == "revised \\ud800 prompt"


def test_one_problem_that_cannot_be_written_does_not_stop_the_run(bench, tmp_path, capsys):
    blocked = tmp_path / "editors.invert" / "PaintBench" / "task_1" / "0002_output.png"
    blocked.mkdir(parents=True)  # a folder where the output goes: only this problem fails
    code = main(_argv("editors:invert", bench, tmp_path, "--batch-size", "2"))
    err = capsys.readouterr().err
    assert code == 1 and "11 outputs written" in err
    assert "failed PaintBench/task_1/0002: cannot write the output: IsADirectoryError" in err
    entry = read_manifest(tmp_path / "editors.invert")["runs"][-1]
    assert list(entry["failures"]) == ["PaintBench/task_1/0002"]


def test_a_reason_with_line_breaks_is_one_line(bench, tmp_path, capsys):
    code = main(_argv("editors:forged_error", bench, tmp_path, "--tasks", "task_0"))
    err = capsys.readouterr().err
    assert code == 1
    lines = err.splitlines()
    assert not [line for line in lines if line.startswith("paintkit run: 999")]
    assert sum("999 outputs written" in line for line in lines) == 4  # inside 4 reasons
    assert "\x1b" not in err and "\r" not in err
    for row in read_log(tmp_path / "editors.forged_error"):
        assert "\n" not in row["reason"] and "\r" not in row["reason"]


def test_one_line_drops_breaks_and_terminal_controls():
    from paintkit.errors import one_line

    assert one_line("a\nb\r\nc\x1b[2Kd\u2028e\x85f\tg  h") == "a b c [2Kd e f g h"
    assert one_line(ValueError("x\n")) == "x"


@pytest.mark.parametrize("name", ["gpt-image-1", "nano-banana-2"])
def test_timeout_is_a_deadline_for_the_whole_answer(name, bench, tmp_path, monkeypatch):
    """A server dripping one byte every 0.2 s never lets a read time out; ``timeout`` still
    ends each attempt after its seconds (issue 38, item 8)."""
    pytest.importorskip("openai")
    pytest.importorskip("google.genai")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    with Loopback(lambda key, attempt: "drip", drip=0.2, drip_for=20) as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        model = build_model(name, api_base=base, timeout=1.5, retries=1, retry_delay=0.01)
        start = time.monotonic()
        summary = run_model(model, bench, tmp_path, tasks=["task_0"], limit=1, progress=False)
        seconds = time.monotonic() - start
    assert seconds < 12, f"{seconds:.1f} s for 2 attempts of 1.5 s"  # a drip lasts 20 s
    (reason,) = summary.failures.values()
    assert "AttemptTimeout" in reason and "1.5 s deadline" in reason and "2 attempt" in reason


@pytest.mark.parametrize("name", ["gpt-image-1", "nano-banana-2"])
def test_a_huge_provider_image_is_refused_from_its_header(name, bench, tmp_path, monkeypatch):
    """A PNG whose header says 16384 x 16384 (its body cut short: decoding it would fail
    differently) for a 40 x 32 problem (issue 38, item 6)."""
    pytest.importorskip("openai")
    pytest.importorskip("google.genai")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    with Loopback(lambda key, attempt: "huge") as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        model = build_model(name, api_base=base, retries=0)
        summary = run_model(model, bench, tmp_path, tasks=["task_0"], limit=1, progress=False)
    (reason,) = summary.failures.values()
    assert "16384x16384 = 268435456 pixels exceeds the limit of 16777216" in reason
    assert "16x the problem's pixels" in reason and "refusing to decode" in reason


def test_the_output_limit_follows_the_problem_size():
    import numpy as np
    from PIL import Image

    from paintkit.run.interface import output_pixel_limit, to_rgb_array

    assert output_pixel_limit(40, 32) == 4096 * 4096  # the floor: providers' fixed sizes fit
    assert output_pixel_limit(2048, 2048) == 16 * 2048 * 2048
    small = output_pixel_limit(40, 32)
    assert to_rgb_array(Image.new("RGB", (4096, 4096)), "o", small).shape == (4096, 4096, 3)
    with pytest.raises(ValueError, match="4097x4096 .* exceeds the limit"):
        to_rgb_array(np.zeros((4096, 4097, 3), np.uint8), "o", small)


@pytest.mark.parametrize("name", ["gpt-image-1", "nano-banana-2"])
def test_html_with_status_200_is_said_and_retried(name, bench, tmp_path, monkeypatch):
    """A proxy's HTML page with status 200 (issue 38, item 15): retried, then ok."""
    pytest.importorskip("openai")
    pytest.importorskip("google.genai")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    with Loopback(lambda key, attempt: "html" if attempt == 1 else "ok") as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        model = build_model(name, api_base=base, retries=1, retry_delay=0.01)
        summary = run_model(model, bench, tmp_path, tasks=["task_0"], limit=1, progress=False)
    assert summary.written == 1 and not summary.failures  # the second attempt got the image
    with Loopback(lambda key, attempt: "html") as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        model = build_model(name, api_base=base, retries=1, retry_delay=0.01)
        summary = run_model(model, bench, tmp_path / "again", tasks=["task_0"], limit=1,
                            progress=False)
        assert sorted(server.attempts.values()) == [2]
    (reason,) = summary.failures.values()
    assert reason.startswith("NotJSONAnswer: the provider answered ")
    assert "not JSON" in reason and "after 2 attempt(s)" in reason
    if name.startswith("gpt"):
        assert "answered HTML, not JSON: <!DOCTYPE html>" in reason

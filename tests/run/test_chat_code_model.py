"""``paintkit run --model chat-code``: a code-editing model over a loopback fake of the
chat-completions endpoint, through the real ``openai`` client, at its real request and
response shapes. The reply's code is written as ``NNNN_output.svg`` / ``.json`` and scored
by ``paintkit eval``; replies with no code, several blocks or cut-off code are that
problem's reason, retried by the next run."""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.code_outputs import NoCode, extract_code
from paintkit.eval import evaluate
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model

pytest.importorskip("openai")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class ChatFake:
    """``POST /v1/chat/completions``: ``reply(request_json, attempt) -> (status, text,
    finish_reason)``; records every request body."""

    def __init__(self, reply) -> None:  # noqa: ANN001
        self.reply, self.requests, self.lock = reply, [], threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.requests.append({"path": self.path, "body": body,
                                          "auth": self.headers.get("Authorization")})
                    attempt = len(fake.requests)
                status, text, finish = fake.reply(body, attempt)
                if status != 200:
                    data = json.dumps({"error": {"message": "slow down"}}).encode()
                else:
                    data = json.dumps({
                        "id": f"chatcmpl-{attempt}", "object": "chat.completion", "created": 0,
                        "model": body["model"],
                        "choices": [{"index": 0, "finish_reason": finish,
                                     "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 11, "completion_tokens": 22,
                                  "total_tokens": 33}}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ChatFake:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> tuple[Path, dict]:  # noqa: ANN001
    root = tmp_path_factory.mktemp("chat")
    assert main(["generate", "paintbench", "--out", str(root / "pb"), "--tasks", "translation",
                 "--conditions", "baseline", "--per-cell", "2", "--svg"]) == 0
    answers = {}
    for meta_path in sorted((root / "pb" / "PaintBench" / "translation").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        answers[meta["instruction"]] = meta_path.with_name(meta_path.stem + "_answer.svg").read_text()
    return root / "pb", answers


def _answering(answers: dict):  # noqa: ANN202
    def reply(body: dict, attempt: int) -> tuple[int, str, str]:
        content = body["messages"][1]["content"]
        text = content[0]["text"] if isinstance(content, list) else content
        instruction = text.split("\n", 1)[0].removeprefix("Instruction: ")
        return 200, f"Here is the edit.\n```svg\n{answers[instruction]}\n```\nDone.", "stop"
    return reply


def test_code_answers_are_written_and_score_one(bench, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    root, answers = bench
    with ChatFake(_answering(answers)) as fake:
        model = build_model("chat-code", api_base=fake.url, api_model="tiny-coder",
                            options={"with_image": True, "temperature": 0}, retry_delay=0.01)
        summary = run_model(model, root, tmp_path / "out", progress=False)
    assert summary.written == 2 and not summary.failures
    request = fake.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["body"]["model"] == "tiny-coder"
    assert request["body"]["temperature"] == 0
    system, user = request["body"]["messages"]
    assert system["role"] == "system" and "```svg" in system["content"]
    assert user["content"][0]["type"] == "text" and "<svg" in user["content"][0]["text"]
    assert user["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    outputs = sorted((tmp_path / "out" / "chat-code").rglob("*_output.*"))
    assert [p.name for p in outputs] == ["0000_output.svg", "0001_output.svg"]
    evaluate(root, tmp_path / "out", tmp_path / "res", jobs=1, progress=False)
    rows = [json.loads(x) for x in (tmp_path / "res" / "problem_stats.jsonl").read_text().splitlines()]
    assert [r["output"]["cie76_mean"]["iou"] for r in rows] == [1.0, 1.0]


@pytest.mark.parametrize("text, finish, reason", [
    ("I cannot do that.", "stop", "no svg code"),
    ("```svg\n<svg/>\n```\n```svg\n<svg/>\n```", "stop", "2 svg code blocks"),
    ("```svg\n<svg width='4' height='4'>", "stop", "not closed"),
    ("```svg\n<svg width='4'", "length", "cut off"),
    ("```svg\n<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>\n```", "stop",
     "cannot be drawn"),
])
def test_replies_without_usable_code_fail_the_problem(bench, tmp_path, monkeypatch, text,
                                                     finish, reason) -> None:  # noqa: ANN001
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    root, answers = bench
    with ChatFake(lambda body, attempt: (200, text, finish)) as fake:
        model = build_model("chat-code", api_base=fake.url, retry_delay=0.01)
        summary = run_model(model, root, tmp_path / "out", progress=False)
    assert summary.written == 0 and len(summary.failures) == 2
    assert all(reason in r for r in summary.failures.values()), summary.failures
    assert fake.requests[0]["auth"] == "Bearer sk-test-secret"
    assert not list((tmp_path / "out").rglob("*_output.*"))
    with ChatFake(_answering(answers)) as fake:  # the next run retries them
        again = run_model(build_model("chat-code", api_base=fake.url), root, tmp_path / "out",
                          progress=False)
    assert again.written == 2


def test_rate_limits_are_retried_and_resume_keeps_code(bench, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    root, answers = bench
    answer = _answering(answers)
    with ChatFake(lambda body, attempt: (429, "", "stop") if attempt == 1 else answer(body, attempt)) as fake:
        first = run_model(build_model("chat-code", api_base=fake.url, retry_delay=0.01,
                                      concurrency=1), root, tmp_path / "out", progress=False)
        assert first.written == 2 and len(fake.requests) == 3
        second = run_model(build_model("chat-code", api_base=fake.url), root, tmp_path / "out",
                           progress=False)
    assert second.written == 0 and second.skipped == 2 and len(fake.requests) == 3


def test_a_png_output_is_replaced_by_code_not_kept_beside_it(bench, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    root, answers = bench
    folder = tmp_path / "out" / "chat-code" / "PaintBench" / "translation"
    folder.mkdir(parents=True)
    shutil.copy(root / "PaintBench" / "translation" / "000_input.png", folder / "0000_output.png")
    with ChatFake(_answering(answers)) as fake:
        run_model(build_model("chat-code", api_base=fake.url), root, tmp_path / "out",
                  overwrite=True, progress=False)
    assert sorted(p.name for p in folder.iterdir() if "output" in p.name) == \
        ["0000_output.svg", "0001_output.svg"]


def test_extract_code_picks_the_tagged_block() -> None:
    assert extract_code("```json\n{\"a\": 1}\n```", "json") == '{"a": 1}'
    assert extract_code("```python\nx = 1\n```\n```svg\n<svg/>\n```", "svg") == "<svg/>"
    assert extract_code("plain <svg width='1'></svg> text", "svg") == "<svg width='1'></svg>"
    with pytest.raises(NoCode, match="none is tagged"):
        extract_code("```\na\n```\n```\nb\n```", "svg")


def test_chart_states_go_as_json_and_come_back_as_json(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["generate", "tinygrafixbench", "--out", str(tmp_path / "tg"), "--tasks",
                 "bar_chart_sort_bars", "--per-cell", "1", "--any-matplotlib"]) == 0
    meta = json.loads(next((tmp_path / "tg").rglob("000.json")).read_text())

    def reply(body: dict, attempt: int) -> tuple[int, str, str]:
        text = body["messages"][1]["content"]
        assert json.loads(text.split("```json\n", 1)[1].split("\n```", 1)[0]) == meta["input_state"]
        return 200, "```json\n" + json.dumps(meta["answer_state"]) + "\n```", "stop"

    with ChatFake(reply) as fake:
        summary = run_model(build_model("chat-code", api_base=fake.url), tmp_path / "tg",
                            tmp_path / "out", progress=False)
    assert summary.written == 1
    evaluate(tmp_path / "tg", tmp_path / "out", tmp_path / "res", jobs=1, progress=False)
    row = json.loads((tmp_path / "res" / "problem_stats.jsonl").read_text())
    assert row["output"]["cie76_mean"]["iou"] == 1.0 and row["state_diff"]["exact"] is True


def test_a_callable_may_return_svg_text(bench, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    import sys
    import types

    root, answers = bench
    module = types.ModuleType("svg_editor_for_test")

    def edit(batch):  # noqa: ANN001, ANN202
        return [answers[instruction] for _, instruction in batch]

    module.edit = edit
    monkeypatch.setitem(sys.modules, "svg_editor_for_test", module)
    summary = run_model(build_model("svg_editor_for_test:edit"), root, tmp_path / "out",
                        progress=False)
    assert summary.written == 2
    evaluate(root, tmp_path / "out", tmp_path / "res", jobs=1, progress=False)
    rows = [json.loads(x) for x in (tmp_path / "res" / "problem_stats.jsonl").read_text().splitlines()]
    assert [r["output"]["cie76_mean"]["iou"] for r in rows] == [1.0, 1.0]

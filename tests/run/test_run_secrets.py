"""No secret leaves a ``paintkit run`` (issue 38, items 3 and 4): credentials in a URL and a
key a server echoes back never reach ``run_manifest.json``, ``run_log.jsonl`` or stderr."""

from __future__ import annotations

import sys

import pytest

from paintkit.cli.main import main
from paintkit.io.redact import Redactor, redact_url_text
from tests.support.loopback import Loopback

pytest.importorskip("openai")
pytest.importorskip("google.genai")

KEY = "sk-test-ECHOED-KEY-0123456789"


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _everything_written(root) -> str:
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def _run(argv, capsys, monkeypatch) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["paintkit", *argv])  # what the manifest's command records
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("how", ["environment", "--api-base"])
def test_url_credentials_are_never_recorded(how, bench, tmp_path, capsys, monkeypatch):
    with Loopback() as server:
        base = server.url.replace("http://", "http://proxyuser:URLSECRET@") + \
            "/v1?api_key=QUERYSECRET&region=eu"
        argv = ["run", "--model", "gpt-image-1", "--benchmarks", str(bench), "--outputs",
                str(tmp_path), "--tasks", "task_0", "--limit", "1", "--quiet", "--retries", "0"]
        if how == "environment":
            monkeypatch.setenv("OPENAI_BASE_URL", base)
        else:
            argv += ["--api-base", base]
        code, err = _run(argv, capsys, monkeypatch)
    written = _everything_written(tmp_path)
    assert "run_manifest.json" in {p.name for p in tmp_path.rglob("*")}
    for secret in ("URLSECRET", "QUERYSECRET", "proxyuser"):
        assert secret not in written and secret not in err
    assert "region=eu" in written  # what is not a credential stays
    assert code in (0, 1)


@pytest.mark.parametrize("name", ["gpt-image-2", "nano-banana-2"])
def test_a_key_echoed_by_the_server_is_masked(name, bench, tmp_path, capsys, monkeypatch):
    with Loopback(lambda key, attempt: "echo401") as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        code, err = _run(["run", "--model", name, "--api-base", base, "--benchmarks",
                          str(bench), "--outputs", str(tmp_path), "--tasks", "task_0",
                          "--limit", "2", "--quiet", "--retries", "0"], capsys, monkeypatch)
    assert code == 1
    assert any(KEY in str(h) for h in server.headers)  # the server did get (and echo) it
    written = _everything_written(tmp_path)
    assert "invalid credentials" in written and "HTTP 401" in err
    assert KEY not in written and KEY not in err
    assert "***" in err


def test_redaction_rules():
    assert redact_url_text("see https://u:p@host:8/v1?token=abc&x=1#f") == \
        "see https://***@host:8/v1?token=***&x=1#f"
    assert redact_url_text("http://host/v1?Signature=s1&X-Amz-Credential=c2&n=3") == \
        "http://host/v1?Signature=***&X-Amz-Credential=***&n=3"
    assert redact_url_text("no url, key=value") == "no url, key=value"
    redactor = Redactor(["a-key-of-length", "short"])  # under 8 characters: too common to mask
    assert redactor.value({"reason": ["Bearer a-key-of-length", "short"], "n": 3}) == \
        {"reason": ["Bearer ***", "short"], "n": 3}


def test_recorded_command_lines_hold_no_url_credentials():
    from paintkit.cli.main import command_line

    line = command_line(["run", "--api-base", "https://me:pw@host/v1?token=t", "--seed", "1"])
    assert line == "paintkit run --api-base 'https://***@host/v1?token=***' --seed 1"

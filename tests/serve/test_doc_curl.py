"""The ``curl`` calls docs/serve.md shows, run as written but for the port."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "serve.md"


def _curl_block() -> str:
    blocks = re.findall(r"```bash\n(.*?)```", DOC.read_text(), flags=re.S)
    return next(block for block in blocks if "curl " in block)


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_documented_curl_calls_work(start_service, tmp_path):
    from paintkit.io.images import write_png
    from paintkit.suites.problem_keys import problem_from_key

    block = _curl_block()
    commands = [c for c in block.replace("\\\n", " ").splitlines()
                if c.strip() and not c.lstrip().startswith("#")]
    assert [c.split()[0] for c in commands] == ["curl", "curl"]
    key = re.search(r"/v1/score/([^'\" ]+)", commands[1]).group(1)
    write_png(tmp_path / "output.png", problem_from_key(key).answer)  # a perfect output
    service = start_service()
    port = service.url.rsplit(":", 1)[1]
    answers = []
    for command in commands:
        done = subprocess.run(command.replace("127.0.0.1:8000", f"127.0.0.1:{port}"), shell=True,
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        answers.append(json.loads(done.stdout))
    assert answers[0]["status"] == "ok"
    assert answers[1]["problem_id"] == key and answers[1]["reward"] == 1.0
    shown = re.search(r"# (\{.*\})", block).group(1)
    assert shown.startswith('{"metric_version":') and f'"problem_id":"{key}"' in shown

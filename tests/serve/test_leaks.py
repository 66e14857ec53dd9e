"""What the service writes and answers never holds a secret or its own file paths."""

from __future__ import annotations

import logging

import httpx


def test_a_token_in_the_query_string_is_not_written_to_the_access_log(start_service, caplog):
    service = start_service(log_level="info", token="s3cret-value")
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        for path in ("/v1/score/x?token=s3cret-value&fit=exact", "/health?access_token=s3cret-value",
                     "/v1/score/s3cret-value", "/v1/score?API_KEY=s3cret-value"):
            httpx.post(service.url + path, content=b"")
        lines = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert len(lines) >= 4 and not [line for line in lines if "s3cret" in line]
    assert any("?token=***&fit=exact" in line for line in lines)

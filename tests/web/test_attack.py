"""A sample of tests/web/attack.py against the in-process application: every hostile request gets a clean
answer (JSON, one error line, the CSP), none is lost, the server answers a plain request afterwards."""

from __future__ import annotations

from starlette.testclient import TestClient

from symcute.web.app import create_app

from .attack import clean, requests, run


def test_attack_sample_gets_only_clean_answers():
    with TestClient(create_app(workers=2, seconds=1, slow=2)) as c:
        def send(method, path, body, headers):
            r = c.request(method, path, content=body, headers=headers)
            return r.status_code, r.headers, r.content
        counts = run(send, requests(3, seed=5))
        assert {k: v["not clean"] for k, v in counts.items() if v["not clean"]} == {}
        assert sum(v["requests"] for v in counts.values()) == len(requests(3, seed=5))
        assert c.post("/api/eval", json={"expr": "4:1"}).json()["value"] == "4:1"


def test_the_judge_refuses_what_is_not_clean():
    h = {"content-type": "application/json", "content-security-policy": "script-src 'self'"}
    assert clean(400, h, b'{"error": "one line"}') is None
    assert clean(400, h, b'{"error": "two\\nlines"}') is not None
    assert clean(400, h, b'{"error": "internal error (TypeError)"}') is not None
    assert clean(500, h, b'{"error": "x"}') is not None
    assert clean(200, {"content-type": "text/html"}, b"<html>") is not None
    assert clean(200, h, b'{"error": "x"}') is not None

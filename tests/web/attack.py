"""An attack on ``symcute serve`` (issue 27): hostile requests of every class against a real server.

    python tests/web/attack.py [--rounds N] [--seed S]

Classes: oversized bodies (declared and undeclared lengths), deep nesting (JSON and the expression
language), bad bodies (garbage bytes, bad UTF-8, non-objects, wrong field types, unknown fields), markup
injection (HTML, SVG, script and URL payloads through every text field: expressions, --let names and
values, claims, smem layouts, atom names, TOML), path tricks on every route, wrong methods, and slow
requests beside cheap ones.  Every answer must be clean: a JSON body, status 200 with an answer or
4xx with ``{"error": one line}``, never a traceback, an HTML page or a payload echoed into a non-JSON
body; the server must answer every request (none lost) and still answer a plain request at the end.
Prints the counts per class; exit status 1 when one answer is not clean.  tests/web/test_attack.py
runs a small sample against the in-process application.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
            "javascript:alert(1)", "\"><iframe src=//x>", "</pre><b>x</b>", "{{7*7}}", "${7*7}",
            "\u202e\u0000\u0007", "%3Cscript%3E", "&lt;&#x3C;", "'; DROP TABLE x; --", "\\x3cscript\\x3e"]
FIELDS = {"eval": ["expr", "let", "param"], "prove": ["claim", "let", "param"],
          "bank": ["smem", "copy", "mma", "atom_layout", "operand", "value_type"], "kernel": ["toml"]}
PATHS = ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/etc/passwd", "/static//etc/passwd",
         "/static/app.js%00.html", "/static/app.js/../../x", "/..%2f..%2fetc%2fpasswd", "/static/\u2025/x",
         "/api/../../etc/passwd", "/api/eval/../../x", "/%00", "/static/" + "a" * 5000, "/api/" + "b" * 5000,
         "/static/index.html", "/static/APP.JS", "/static/app.css;.js", "/api/__init__", "/api/compute",
         "/api/stats/..", "/.git/config", "/static/.%2e/.%2e/README.md"]


def requests(rounds: int, seed: int):
    """``(class, method, path, body bytes or None, headers)`` for every attack request."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        ep = rng.choice(list(FIELDS))
        # oversized
        n = rng.choice([64 * 1024 + 1, 100_000, 1 << 20])
        out.append(("oversized", "POST", f"/api/{ep}", json.dumps({FIELDS[ep][0]: "x" * n}).encode(), {}))
        out.append(("oversized", "POST", f"/api/{ep}", b"{" + b" " * n + b"}", {"content-length": "12"}))
        # deep nesting
        d = rng.choice([100, 1000, 20000])
        out.append(("nesting", "POST", f"/api/{ep}", ("[" * d + "]" * d).encode(), {}))
        out.append(("nesting", "POST", f"/api/{ep}", ('{"a":' * d + "1" + "}" * d).encode(), {}))
        e = rng.choice([50, 500, 1900])
        out.append(("nesting", "POST", "/api/eval", json.dumps({"expr": "(" * e + "4:1" + ")" * e}).encode(), {}))
        out.append(("nesting", "POST", "/api/eval",
                    json.dumps({"expr": "coalesce(" * e + "4:1" + ")" * e}).encode(), {}))
        # bad bodies
        out.append(("bad body", "POST", f"/api/{ep}", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))), {}))
        out.append(("bad body", "POST", f"/api/{ep}", rng.choice([b"[]", b"1", b'"x"', b"null", b"true", b"", b"\xff\xfe{"]), {}))
        field = rng.choice(FIELDS[ep])
        out.append(("bad body", "POST", f"/api/{ep}",
                    json.dumps({field: rng.choice([1, 2.5, None, True, {"a": 1}, [1, 2], ["x"] * 100])}).encode(), {}))
        out.append(("bad body", "POST", f"/api/{ep}", json.dumps({"zz" + str(rng.randrange(99)): "x"}).encode(), {}))
        # injection through every field
        for field in FIELDS[ep]:
            p = rng.choice(PAYLOADS)
            value = [f"{p}=4:1", f"L={p}"] if field in ("let", "param") else p
            body = {FIELDS[ep][0]: "4:1" if ep == "eval" else "injective(L)" if ep == "prove" else "(32,64):(64,1)"
                    if ep == "bank" else "[problem]"}
            body[field] = value
            out.append(("injection", "POST", f"/api/{ep}", json.dumps(body).encode(), {}))
        # path tricks and methods
        out.append(("path", "GET", rng.choice(PATHS), None, {}))
        out.append(("method", rng.choice(["GET", "PUT", "DELETE", "PATCH"]), f"/api/{ep}", b"{}", {}))
        # slow beside cheap
        out.append(("slow", "POST", "/api/eval", json.dumps(
            {"expr": "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_4,_4,_1>>{}, Tile<_128,_128,_32>{})",
             "let": [f"u{rng.randrange(10**9)}=1:1"]}).encode(), {}))
        out.append(("slow", "POST", "/api/eval", json.dumps({"expr": f"({rng.randrange(1, 64)},8):(8,1)"}).encode(), {}))
    return out


def clean(status: int, headers, body: bytes) -> str | None:
    """Why the answer is not clean, or None."""
    ctype = headers.get("content-type", "")
    if not ctype.startswith("application/json"):
        return f"content-type {ctype!r}"
    try:
        d = json.loads(body)
    except ValueError:
        return "a body that is not JSON"
    if status == 200:
        return None if isinstance(d, dict) and "error" not in d else f"200 with {str(d)[:80]}"
    if not (400 <= status < 500):
        return f"status {status}"
    if not (isinstance(d, dict) and set(d) == {"error"} and isinstance(d["error"], str)):
        return f"error body {str(d)[:80]}"
    line = d["error"]
    if "\n" in line or "Traceback" in line or "internal error" in line:
        return f"error line {line[:120]!r}"
    if headers.get("content-security-policy", "").find("script-src 'self'") < 0:
        return "no CSP"
    return None


def run(send, reqs) -> dict:
    """``send(method, path, body, headers) -> (status, headers, body)``; the counts per class."""
    counts = {}
    for kind, method, path, body, headers in reqs:
        c = counts.setdefault(kind, {"requests": 0, "clean": 0, "not clean": []})
        c["requests"] += 1
        try:
            status, h, b = send(method, path, body, headers)
        except Exception as e:   # a lost request (connection reset, timeout) is not clean
            c["not clean"].append(f"{method} {path[:60]}: lost ({type(e).__name__})")
            continue
        why = clean(status, h, b)
        if why is None:
            c["clean"] += 1
        else:
            c["not clean"].append(f"{method} {path[:60]} {str(body)[:60]}: {why}")
    return counts


def main() -> int:
    import http.client
    import re
    import urllib.parse
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.cli_runner import start_cli_process
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--seed", type=int, default=27)
    a = ap.parse_args()
    server = start_cli_process("serve", "--port", "0", "--workers", "2", "--seconds", "0.5")
    try:
        url = urllib.parse.urlsplit(re.search(r"(http://\S+/)", server.stdout.readline()).group(1))

        def send(method, path, body, headers):   # http.client sends the path as written (no dot-segment removal)
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
            try:
                conn.request(method, urllib.parse.quote(path, safe="/%;.?=&"), body=body, headers=headers)
                r = conn.getresponse()
                return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
            finally:
                conn.close()
        reqs = requests(a.rounds, a.seed)
        counts = run(send, reqs)
        status, _, body = send("POST", "/api/eval", b'{"expr": "4:1"}', {})
        alive = status == 200 and json.loads(body)["value"] == "4:1"
    finally:
        server.terminate()
        server.wait(timeout=30)
    bad = 0
    for kind, c in counts.items():
        print(f"{kind:10s} requests={c['requests']:6d} clean={c['clean']:6d} not clean={len(c['not clean'])}")
        for line in c["not clean"][:5]:
            print("   ", line)
        bad += len(c["not clean"])
    print(f"total {sum(c['requests'] for c in counts.values())} requests, {bad} not clean; server alive: {alive}")
    return 1 if bad or not alive else 0


if __name__ == "__main__":
    sys.exit(main())

"""The web application over HTTP (Starlette's test client, real worker processes): its answers are the
CLI's answers, bad input is one clean line, and the server's limits hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from symcute.web.app import CSP, MAX_BODY, create_app


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2, seconds=30)) as c:
        yield c


def post(client, endpoint, **body):
    return client.post(f"/api/{endpoint}", content=json.dumps(body), headers={"Content-Type": "application/json"})


EXPRESSIONS = [
    ("(4,8):(8,1)", [], []),
    ("right_inverse(L)", ["L=(4,8):(8,1)"], []),
    ("composition(A, B)", ["A=(4,8):(8,1)", "B=(2,4):(4,1)"], []),
    ("Sw<3,3,3> o 0 o (8,64):(64,1)", [], []),
    ("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})", [], []),
    ("logical_divide((M,8):(1,M), 4:1)", [], ["M:4"]),
]


@pytest.mark.parametrize("expr,lets,params", EXPRESSIONS)
def test_eval_prints_what_calc_prints(client, cli, expr, lets, params):
    r = post(client, "eval", expr=expr, let=lets, param=params)
    assert r.status_code == 200, r.text
    d = r.json()
    args = ["calc", expr] + [a for x in lets for a in ("--let", x)] + [a for x in params for a in ("--param", x)]
    code, out, _ = cli(args)
    assert code == 0
    assert out.startswith(d["value"] + "\n")
    code, cpp, _ = cli(args + ["--cpp"])
    assert (cpp.strip() if code == 0 else None) == d["cpp"]


def test_a_layout_is_drawn_cell_by_cell_with_its_values(client):
    d = post(client, "eval", expr="(4,8):(8,1)").json()
    (panel,) = d["panels"]
    assert (panel["rows"], panel["cols"]) == (4, 8)
    assert {(c["m"], c["n"]): c["i"] for c in panel["cells"]} == {(m, n): 8 * m + n for m in range(4) for n in range(8)}
    assert d["formula"] == "8*x0 + x1" and "stride" in d["table"]


def test_a_tiled_mma_gives_cute_svg_and_thread_cells(client, cli):
    expr = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
    d = post(client, "eval", expr=expr).json()
    code, svg, _ = cli(["calc", f"print_svg({expr})"])
    assert code == 0 and svg.rstrip("\n") == d["svg"].rstrip("\n")   # the same text (calc ends it with one newline)
    titles = {p["title"]: p for p in d["panels"]}
    assert set(titles) == {"C", "A", "B"} and (titles["C"]["rows"], titles["C"]["cols"]) == (32, 16)
    assert all(0 <= c["t"] < 128 for c in titles["A"]["cells"]) and len(titles["A"]["cells"]) == 32 * 16


def test_errors_are_the_cli_line(client, cli):
    for expr in ["(4,8):(8,", "right_invers((4,8):(8,1))", "composition((4,8):(8,1))"]:
        r = post(client, "eval", expr=expr)
        assert r.status_code == 400
        code, _, err = cli(["calc", expr])
        assert code == 2 and err.strip() == "symcute: error: " + r.json()["error"]


def test_did_you_mean(client):
    r = post(client, "eval", expr="right_invers((4,8):(8,1))")
    assert r.status_code == 400 and "right_inverse" in r.json()["error"]


def test_prove_answers_as_prove_does(client, cli):
    for claim, lets, verdict in [("injective(L)", ["L=(4,8):(8,1)"], "proved"),
                                 ("injective(L)", ["L=(4,8):(8,2)"], "refuted"),
                                 ("equal(A, B)", ["A=(4,2):(1,4)", "B=8:1"], "proved")]:
        d = post(client, "prove", claim=claim, let=lets).json()
        code, out, _ = cli(["prove", claim] + [a for x in lets for a in ("--let", x)])
        assert d["verdict"] == verdict and out.strip() == d["text"].strip()
        assert code == {"proved": 0, "refuted": 1}[verdict]
    d = post(client, "prove", claim="injective(L)", let=["L=(4,8):(8,2)"]).json()
    assert d["counterexample"]["indices"] == "(1, 16)"


def test_bank_view_equals_the_memory_model(client):
    from symcute import memory
    from symcute.recipes.bank import build_copy, resolve_smem
    for smem, free in [("(32,64):(64,1)", False), ("Sw<3,3,3> o 0 o (32,64):(64,1)", True)]:
        d = post(client, "bank", smem=smem).json()
        _, tc = build_copy("SM80_16x8x16_F16F16F16F16_TN", "2,2,1", "A", "SM75_U32x4_LDSM_N", "half_t")
        res = memory.bank_conflicts(tc, resolve_smem(smem, "half_t", tc.tiler_mn), None)
        assert d["conflict_free"] is free is res.conflict_free and d["wavefronts"] == res.wavefronts
        (grid,) = d["panels"]
        layout = resolve_smem(smem, "half_t", tc.tiler_mn)
        for c in grid["cells"][:200]:
            byte = layout(c["m"], c["n"]) * 2
            assert (c["addr"], c["bank"]) == (byte, byte // 4 % 32)
        assert d["svg"].startswith("<svg") or "<svg" in d["svg"][:300]
        w = res.witness
        want = res.phases(w.warp, w.instruction)
        assert [(p["phase"], p["wavefronts"], p["bank"]) for p in d["worst"]["phases"]] == \
            [(p.index, p.wavefronts, p.bank) for p in want]
        assert sum(p["wavefronts"] for p in d["worst"]["phases"]) == max(r[2] for r in res.per_instruction)


def test_names_with_markup_stay_text(client):
    payload = "<script>alert(1)</script>"
    r = post(client, "eval", expr=payload)
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/json")
    r = post(client, "eval", expr="L", let=[f"L={payload}"])
    assert r.status_code == 400


def test_headers_and_page_have_no_inline_script(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "<script>" not in r.text and 'src="/static/app.js"' in r.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/%2e%2e/app.py", "/static/app.py", "/static/",
                                  "/etc/passwd", "/static/app.js/..", "/api/", "/static/app.js%00", "/static/APP.JS"])
def test_no_path_reaches_a_file_outside_the_table(client, path):
    r = client.get(path)
    assert r.status_code in (404, 405) and r.json() == {"error": "not found"}


def test_refused_bodies(client):
    big = json.dumps({"expr": "x" * (MAX_BODY + 1)})
    r = client.post("/api/eval", content=big)
    assert r.status_code == 413 and "bytes" in r.json()["error"]
    assert client.post("/api/eval", content=b"\xff\xfe").status_code == 400
    assert client.post("/api/eval", content="[" * 50000 + "]" * 50000).status_code in (400, 413)
    assert client.post("/api/eval", content="[1,2]").json()["error"].startswith("request body")
    assert "unknown field" in post(client, "eval", expr="4:1", bogus="x").json()["error"]
    assert "must be text" in post(client, "eval", expr=["4:1"]).json()["error"]
    assert "required" in post(client, "eval").json()["error"]
    r = post(client, "eval", expr="4:1", let=[f"L{i}=1:1" for i in range(100)])
    assert r.status_code == 400 and "at most" in r.json()["error"]
    r = post(client, "eval", expr="(" * 3000 + "4:1" + ")" * 3000)
    assert r.status_code == 400 and r.json()["error"]


def test_a_request_past_the_limit_is_answered_and_the_server_stays_up():
    with TestClient(create_app(workers=1, seconds=0.05)) as c:
        r = post(c, "eval", expr="make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_4,_4,_1>>{})")
        assert r.status_code == 400 and "LimitError" in r.json()["error"] and "0.05 s" in r.json()["error"]
        assert c.get("/api/stats").json()["timeouts"] == 1
    with TestClient(create_app(workers=1, seconds=30)) as c:
        assert post(c, "eval", expr="4:1").json()["value"] == "4:1"


def test_work_budget_and_picture_limits(client):
    r = post(client, "eval", expr="(256,128):(128,1)")
    assert r.status_code == 200 and r.json()["panels"] == [] and "more than the page draws" in r.json()["note"]


NT = (Path(__file__).resolve().parents[2] / "examples" / "kernels" / "sgemm_sm80_nt.toml").read_text()
UNCOVERED = NT.replace("Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]",
                       "Layout<Shape<_32,_8>,Stride<_1,_0>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]", 1)


def test_kernel_check_answers_as_kernel_check_does(client, tmp_path, cli):
    for text, status in [(NT, 0), (UNCOVERED, 1)]:
        d = post(client, "kernel", toml=text).json()
        f = tmp_path / "k.toml"
        f.write_text(text)
        code, out, _ = cli(["kernel", "check", str(f), "--json"])
        assert code == status == d["exit_status"]
        assert {k: v["verdict"] for k, v in json.loads(out)["claims"].items()} == \
            {k: v["verdict"] for k, v in d["claims"].items()}
    assert d["claims"]["a.load"]["verdict"] == "refuted"
    assert d["highlight"] == d["claims"]["a.load"]["counterexample"]["thread"]
    assert {p["title"] for p in d["panels"]} == {"TiledMMA C", "TiledMMA A", "TiledMMA B"}


def test_kernel_bad_toml_is_one_line(client):
    r = post(client, "kernel", toml="[problem\nshape=")
    assert r.status_code == 400 and r.json()["error"].startswith("kernel: not TOML")
    r = post(client, "kernel", toml=NT.replace("[pipeline]", "[pipelines]"))
    assert r.status_code == 400 and "unknown table [pipelines]" in r.json()["error"]


def test_markdown_proof_is_derive_expr(client, cli):
    expr, lets = "right_inverse(L)", ["L=(4,8):(8,1)"]
    d = post(client, "derive", expr=expr, let=lets).json()
    code, out, _ = cli(["derive", "expr", expr, "--let", lets[0]])
    assert code == 0 and out.strip() == d["markdown"].strip() and "right_inverse" in d["markdown"]
    assert "lang" in post(client, "derive", expr=expr, lang="fr").json()["error"]

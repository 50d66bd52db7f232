"""symcute formula / symcute prove: the seed's outputs from the command line."""

import json

from .seed import F_TEXT

NAMES = "((t0,t1,wm,wn),((v0,v1,v2),(a,b)))"


def test_formula_with_names_and_table(cli):
    code, out, _ = cli("formula", F_TEXT, "--names", NAMES, "--table", "--zeros")
    assert code == 0
    assert "formula: 64*t0 + t1 + 16*wm + 0*wn + 32*v0 + 8*v1 + 256*v2" in out
    assert "weight     1   4  32  64  128  256  512" in out


def test_formula_through_operations(cli):
    lets = ["--let", f"F={F_TEXT}", "--name", f"F={NAMES}"]
    code, out, _ = cli("formula", "right_inverse(F)", *lets)
    assert "formula: 4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2" in out
    code, out, _ = cli("formula", "with_shape(right_inverse(F), (32,16), (m,k))", *lets)
    assert "formula: 4*m0 + 256*m1 + 32*m2 + 128*k0 + k1 + 512*k2" in out
    assert "aliases: m0 = t1, m1 = v1, m2 = wm, k0 = v0, k1 = t0, k2 = v2" in out
    code, out, _ = cli("formula", "upcast<1024>(with_shape(right_inverse(F), (32,16), (m,k)))", *lets)
    assert "layout:  ((1,1,1),(1,1,1)):((1,1,1),(1,1,1))" in out and "formula: 0" in out
    assert "ceil_div(1024,512)=2" in out and "ceil_div(2,2)=1" in out
    code, out, _ = cli("formula", "upcast<512>(with_shape(right_inverse(F), (32,16), (m,k)))", *lets)
    assert "formula: k2" in out and "ceil_div(2,1)=2" in out


def test_formula_json_latex_index(cli):
    code, out, _ = cli("formula", "(4,8):(8,1)", "--json")
    d = json.loads(out)
    assert d["text"] == "8*x0 + x1" and d["axes"][1]["weight"] == 4
    code, out, _ = cli("formula", "(4,8):(8,1)", "--latex", "--index")
    assert r"latex:   8\,x_{0} + x_{1}" in out
    assert "index:   8*Mod(q, 4) + floor(q/4)" in out


def test_prove_commands_and_exit_codes(cli):
    code, out, _ = cli("prove", "right-inverse", F_TEXT, "--names", NAMES)
    assert code == 0 and "verdict: proved (refinement)" in out and "t1          8       1" in out
    code, out, _ = cli("prove", "left-inverse", F_TEXT, "--inverse", f"right_inverse({F_TEXT})")
    assert code == 1 and "verdict: refuted" in out and "index: 64" in out
    code, out, _ = cli("prove", "injective", F_TEXT)
    assert code == 1 and "indices: (0, 64)" in out
    code, out, _ = cli("prove", "surjective", F_TEXT, "--cotarget", "512")
    assert code == 0
    code, out, _ = cli("prove", "bijective", "(4,8):(8,1)")
    assert code == 0
    code, out, _ = cli("prove", "equal", "(2,3):(1,2)", "6:1", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "proved"
    code, out, _ = cli("prove", "injective", "(3,1073741824):(2,3)", "--limit", "0")
    assert code == 0 and "proved" in out  # by an exact back-end: no enumeration needed
    from symcute.symbolic import exact
    old = exact.set_enabled(False)
    try:
        code, out, _ = cli("prove", "injective", "(3,1073741824):(2,3)", "--limit", "0")
        assert code == 3 and "unknown" in out
    finally:
        exact.set_enabled(old)


def test_bad_input_is_one_line(cli):
    code, out, err = cli("formula", F_TEXT, "--names", "((t0,t1),(v0,v1))")
    assert code == 2 and err.count("\n") == 1 and "not congruent" in err
    code, out, err = cli("formula", F_TEXT, "--names", "((t0,__import__('os')),(v0,v1))")
    assert code == 2 and "names" in err
    code, out, err = cli("prove", "surjective", F_TEXT)
    assert code == 2 and "--cotarget" in err
    code, out, err = cli("prove", "equal", F_TEXT)
    assert code == 2 and "takes 2 layouts" in err


def test_prove_takes_compose_terms_and_image_claims(cli):
    code, out, _ = cli("prove", "equal", "Compose((4,6,8):(2,3,5), 6:3)", "(2,3):(6,3)")
    assert code == 1 and "index: 2" in out                      # CUTLASS #3177: CuTe's value is not A o B
    code, out, _ = cli("prove", "equal", "Compose((4,6,8):(2,3,5), 6:3)", "(2,3):(6,3)", "--domain", "2")
    assert code == 0
    code, out, _ = cli("prove", "disjoint", "8:2", "Sw<0,4,0> o 1 o 8:2")
    assert code == 0 and "verdict: proved" in out
    code, out, _ = cli("prove", "contains", "(4,2):(1,8)", "4:2")
    assert code == 1 and "value: 4" in out
    code, out, _ = cli("prove", "contains", "(4,2):(1,8)", "4:2", "--domain-b", "2")
    assert code == 0

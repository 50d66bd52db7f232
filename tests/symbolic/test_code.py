"""Formula.to_c and LaTeX names (the values of the C are checked against CuTe in
tests/differential/test_code_vs_cute.py)."""

import pytest

from symcute import Layout
from symcute.errors import SymcuteError
from symcute.symbolic import formula
from symcute.symbolic.code import default_parameters, latex_name

SEED = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
NAMES = "((t0,t1,wm,wn),((v0,v1,v2),(_a,_b)))"


@pytest.mark.parametrize("name, tex", [
    ("x0_1", "x_{0,1}"), ("x1_0_2", "x_{1,0,2}"), ("t0", "t_{0}"), ("wm", r"\mathrm{wm}"),
    ("wm0", r"\mathrm{wm}_{0}"), ("t0_1", "t_{0,1}"), ("q", "q"), ("_a", r"\mathrm{\_a}"), ("m_0", "m_{0}"),
])
def test_latex_names_get_subscripts_and_upright_bases(name, tex):
    assert latex_name(name) == tex


def test_to_c_of_the_seed_recovers_each_digit_with_div_and_mod():
    c = formula(Layout.parse(SEED), NAMES).to_c("layoutA_TV")
    assert "inline int layoutA_TV(int tid, int vid) {" in c
    assert "const int t1 = (tid / 4) % 8;" in c and "const int v2 = vid / 4;" in c
    assert "wn" not in c.split("{", 1)[1].replace("0*wn", "")  # a broadcast digit is never computed
    assert c.rstrip().endswith("return 64 * t0 + t1 + 16 * wm + 32 * v0 + 8 * v1 + 256 * v2;\n}")
    assert "floor" not in c and "1.0" not in c


def test_to_c_evaluates_like_the_layout():
    """The generated body, read as integer arithmetic (C's / and % agree with Python's on these
    nonnegative values), gives the layout's value at every coordinate."""
    f = formula(Layout.parse(SEED), NAMES)
    body = [line.strip() for line in f.to_c().splitlines()[3:-1]]
    for tid in range(128):
        for vid in range(8):
            env = {"tid": tid, "vid": vid}
            for line in body[:-1]:
                name, value = line[len("const int "):].rstrip(";").split(" = ")
                env[name] = _c_int(value, env)
            assert _c_int(body[-1][len("return "):].rstrip(";"), env) == f.layout(tid, vid)


def _c_int(text, env):
    """A tiny reader for the generated expressions: + * / % over names and integers, parentheses."""
    import ast
    import operator
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.floordiv,
           ast.Mod: operator.mod}

    def go(n):
        if isinstance(n, ast.BinOp):
            return ops[type(n.op)](go(n.left), go(n.right))
        if isinstance(n, ast.Name):
            return env[n.id]
        if isinstance(n, ast.Constant):
            return n.value
        raise AssertionError(ast.dump(n))
    return go(ast.parse(text, mode="eval").body)


def test_default_parameters():
    assert default_parameters(formula(Layout.parse(SEED), NAMES)) == ("tid", "vid")
    assert default_parameters(formula(Layout.parse("(4,8):(8,1)"))) == ("i0", "i1")
    assert default_parameters(formula(Layout.parse("8:2"))) == ("q",)


def test_to_c_wide_values_use_long_long():
    assert "long long" in formula(Layout.parse("(2,2):(1,4294967296)")).to_c()


@pytest.mark.parametrize("kw", [{"name": "int"}, {"parameters": ("a",)}, {"parameters": ("tid", "tid")},
                                {"name": "t0"}, {"parameters": ("x y", "v")}])
def test_to_c_refuses_bad_names(kw):
    with pytest.raises(SymcuteError, match="to_c"):
        formula(Layout.parse("(4,8):(8,1)"), "(t0,v0)").to_c(**kw)

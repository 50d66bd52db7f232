import json
import subprocess
import sys

import numpy as np
import pytest

from symcute import Layout
from symcute.errors import SymcuteError
import symcute.symbolic as sym
from symcute.symbolic.formula import Formula

from .seed import seed_F


def test_import_symcute_does_not_import_sympy():
    code = ("import sys, symcute; from symcute import Layout; "
            "L = Layout.parse('(4,8):(8,1)'); symcute.right_inverse(L); "
            "import symcute.symbolic as sym; f = sym.formula(L); str(f); f.table(); "
            "sym.prove_right_inverse(L); sym.is_injective(L); "
            "print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_values_equal_the_layout_everywhere():
    F = seed_F()
    for q in range(F.size()):
        d = F.digits_of(q)
        assert sum(F.axis(k).stride * v for k, v in d.items()) == F(q)


def test_lambdify_digits_and_index():
    F = seed_F()
    by_digits = F.lambdify()
    assert by_digits(0, 0, 0, 1, 0, 0, 1) == 256
    q = np.arange(F.size())
    d = [(q // a.weight) % a.extent for a in F.axes]
    by_index = F.lambdify(index=True)
    expected = np.array([F(int(i)) for i in q])
    assert (by_digits(*d) == expected).all()
    assert (by_index(q) == expected).all()
    # broadcasting: an array for one digit, scalars for the others
    assert list(by_digits(np.arange(4), 0, 0, 0, 0, 0, 0)) == [0, 64, 128, 192]
    with pytest.raises(SymcuteError):
        by_digits(1, 2)


def test_index_form_agrees_with_layout_beyond_size_too():
    import sympy
    L = Layout.parse("((2,3),4):((1,8),2)")
    f = sym.formula(L)
    expr = f.index_form()
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    for i in list(range(L.size())) + [L.size() + 5, 3 * L.size()]:
        assert int(expr.subs(q, i)) == L(i)
    assert f.index_text().startswith("Mod(q, 2)")


def test_latex_and_expr():
    import sympy
    F = seed_F()
    assert F.latex() == r"64\,t_{0} + t_{1} + 16\,\mathrm{wm} + 32\,v_{0} + 8\,v_{1} + 256\,v_{2}"
    assert r"0\,\mathrm{wn}" in F.latex(zeros=True)
    t0, t1 = F.symbols[:2]
    assert sympy.simplify(F.expr - (64 * t0 + t1 + sum(a.stride * s for a, s in zip(F.axes[2:], F.symbols[2:])))) == 0


def test_json_round_trip():
    F = seed_F()
    G = sym.right_inverse(F)
    H = sym.upcast(sym.with_shape(G, (32, 16), names=("m", "k")), 512)
    for f in (F, G, H):
        back = Formula.from_json(f.to_json())
        assert back == f and str(back) == str(f) and back.aliases == f.aliases
        assert back.names == f.names
    assert Formula.from_json(H.to_json()).steps == H.steps


def test_json_tampering_is_detected():
    d = json.loads(seed_F().to_json())
    d["axes"][0]["stride"] = 65
    with pytest.raises(SymcuteError, match="do not match"):
        Formula.from_json(json.dumps(d))
    with pytest.raises(SymcuteError, match="'axes' is a required property"):
        Formula.from_json('{"layout": "(4,8):(8,1)"}')


def test_negative_strides_print_like_sympy():
    f = sym.formula(Layout.parse("(4,8,2):(1,-4,-1)"), names=("a", "b", "c"))
    assert str(f) == "a - 4*b - c"


def test_size_one_modes_are_omitted_and_mode_access_keeps_names():
    F = seed_F()
    assert F[0].names == ("t0", "t1", "wm", "wn") and str(F[0]) == "64*t0 + t1 + 16*wm"
    assert str(F[1]) == "32*v0 + 8*v1 + 256*v2" and F[1].names[1] == ("_a", "_b")
    assert str(F[1, 0]) == str(F[-1, 0])


def test_basis_strides_are_refused_and_swizzles_give_a_swizzled_formula():
    from symcute.core import make_identity_layout, parse_layout
    with pytest.raises(SymcuteError, match="basis"):
        sym.formula(make_identity_layout((4, 8)))
    f = sym.formula(parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)"))
    assert isinstance(f, sym.SwizzledFormula) and str(f) == "(64*x0 + x1) ^ ((x0 >> 1) << 4)"


def test_large_values_exact():
    L = Layout((1 << 31, 1 << 31, 4), (1 << 70, 3, 1 << 64))
    f = sym.formula(L, names=("a", "b", "c"))
    assert str(f) == f"{1 << 70}*a + 3*b + {1 << 64}*c"
    fn = f.lambdify()
    v = fn(np.array([(1 << 31) - 1]), np.array([5]), np.array([3]))
    assert int(v[0]) == ((1 << 31) - 1) * (1 << 70) + 15 + 3 * (1 << 64)
    q = np.array([(1 << 62) + 12345], dtype=object)
    assert int(f.lambdify(index=True)(q)[0]) == L((1 << 62) + 12345)
    assert f.table().row("weight")[1:] == (1, 1 << 31, 1 << 62)


@pytest.mark.parametrize("text", ["(4,1):(1,5)", "(2,(3,1)):(1,(2,7))", "1:3", "(2,1):(1,0)"])
def test_index_form_past_size_when_the_last_mode_has_extent_one(text):
    import sympy
    L = Layout.parse(text)
    f = sym.formula(L)
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    fn = f.lambdify(index=True)
    for i in range(3 * L.size() + 2):
        assert int(f.index_form().subs(q, i)) == L(i) == int(fn(i))

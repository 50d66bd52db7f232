"""SwizzledFormula: the formula of a swizzled layout equals core at every input; its text, bits, SymPy, JSON."""

import json
import random

import pytest

import symcute.core as core
from symcute.core.parse import parse_layout
from symcute.errors import SymcuteError
import symcute.symbolic as sym

from ..strategies import random_swizzled

SW343 = "Sw<3,4,3> o _0 o (8,64):(64,1)"


def _reconstruct(f, q):
    """The value from the formula's parts: linear form, then XOR of the named bit-fields, then the constant."""
    digits = f.digits_of(q)
    v = sum(a.stride * digits[a.name] for a in f.axes) + sum(
        int(c.offset) for c in _chain(f.layout))
    for axis, lo, n, out in f.xor_terms():
        v ^= ((digits[axis] >> lo) & ((1 << n) - 1)) << out
    return v ^ f.xor_constant()


def _chain(L):
    while isinstance(L, core.ComposedLayout):
        yield L
        L = L.inner


def test_issue_examples_print_the_xor_of_named_bit_fields():
    f = sym.formula(parse_layout(SW343), ("r", "c"))
    assert str(f) == "(64*r + c) ^ ((r >> 1) << 4)"
    assert str(sym.formula(parse_layout("Sw<3,3,3> o 0 o (8,64):(64,1)"), ("r", "c"))) == "(64*r + c) ^ (r << 3)"
    assert f.latex() == r"\left(64\,r + c\right) \oplus 2^{4} \left\lfloor r / 2 \right\rfloor"
    assert f.table().row("bit 4") == ("bit 4", "r_1 ^ c_4")


@pytest.mark.parametrize("seed", range(4))
def test_formula_of_random_swizzled_layouts_equals_core(seed):
    rng = random.Random(seed)
    np = pytest.importorskip("numpy")
    with_bits = 0
    for _ in range(120):
        L = random_swizzled(rng)
        if L.size() > 2048:
            continue
        f = sym.formula(L)
        qs = list(range(L.size()))
        want = [L(q) for q in qs]
        assert [f(q) for q in qs] == want
        assert f.lambdify(index=True)(np.array(qs)).tolist() == want
        digits = [np.array([f.digits_of(q)[a.name] for q in qs]) for a in f.axes]
        if digits:  # a size-1 domain has no sub-axes: the function of no digits is a scalar
            assert f.lambdify()(*digits).tolist() == want
        if f.bits is not None:
            with_bits += 1
            assert [f.bits(q) for q in qs] == want
            if f.linear is not None:
                assert [_reconstruct(f, q) for q in qs] == want
    assert with_bits > 40


def test_sympy_polynomial_over_bits_equals_core():
    sympy = pytest.importorskip("sympy")
    for text in (SW343, "Sw<2,0,-2> o 16 o (4,2,2):(1,4,8)", "Sw<1,2,3> o 0 o (2,16):(16,1)"):
        L = parse_layout(text)
        f = sym.formula(L)
        fn = sympy.lambdify(f.bit_symbols, f.expr)
        for q in range(L.size()):
            bits = f.bits.bits_of(q)
            assert fn(*[(bits >> j) & 1 for j in range(len(f.bit_symbols))]) == L(q)


def test_json_round_trip_and_tamper_check():
    f = sym.formula(parse_layout(SW343), ("r", "c"))
    g = sym.SwizzledFormula.from_json(f.to_json())
    assert g == f and str(g) == str(f)
    d = json.loads(f.to_json())
    d["text"] = "64*r"
    with pytest.raises(SymcuteError, match="does not match"):
        sym.SwizzledFormula.from_json(json.dumps(d))


def test_no_bits_view_still_gives_a_formula():
    f = sym.formula(parse_layout("Sw<3,3,3> o 0 o (8,64):(3,1)"), ("r", "c"))
    assert f.bits is None and "power of two" in f.reason
    assert str(f) == "v ^ ((v >> 6 & 7) << 3) with v = 3*r + c"
    with pytest.raises(SymcuteError, match="no bit table"):
        f.table()


def test_cli_formula_and_prove_of_a_swizzled_layout(cli):
    code, out, _ = cli("formula", SW343, "--names", "(r,c)", "--table")
    assert code == 0 and "formula: (64*r + c) ^ ((r >> 1) << 4)" in out and "r_1 ^ c_4" in out
    code, out, _ = cli("prove", "bijective", SW343, "--names", "(r,c)")
    assert code == 0 and "verdict: proved (gf2)" in out
    code, out, _ = cli("prove", "injective", "Sw<3,4,3> o _0 o (8,64):(128,1)", "--limit", "0")
    assert code == 0 and "proved (gf2)" in out
    code, out, _ = cli("prove", "surjective", "Sw<3,4,3> o _0 o (8,64):(128,1)", "--cotarget", "512",
                       "--limit", "0", "--json")
    p = json.loads(out)
    assert code == 1 and p["method"] == "gf2" and p["counterexample"] == {"missing value": 64}


def test_operations_keep_names_through_the_swizzle():
    F = sym.formula(parse_layout(SW343), ("r", "c"))
    G = sym.composition(F, core.Layout((8, 8), (1, 8)), names=("i", "j"))
    assert str(G) == "(64*i + j) ^ ((i >> 1) << 4)"
    assert G.layout == core.composition(F.layout, core.Layout((8, 8), (1, 8)))
    assert sym.prove(G, sym.Compose(F, core.Layout((8, 8), (1, 8))), limit=0).proved
    Z = sym.zipped_divide(F, (4, 16))
    assert Z.layout == core.zipped_divide(F.layout, (4, 16))
    assert [a.name for a in Z.axes] == ["r0", "c0", "r1", "c1"]


def test_derivation_of_a_swizzled_chain_shows_the_xor_at_each_step():
    from symcute.expr import derive_expr
    from symcute.report import markdown
    d = derive_expr("zipped_divide(tile_to_shape(Sw<3,3,3> o 0 o (8,8):(8,1), (16,16)), (8,8))")
    text = markdown(d)
    assert "(8*x0_0 + 64*x0_1 + x1_0 + 128*x1_1) ^ (x0_1 << 3) ^ (x1_1 << 4)" in text
    assert text.count("## Step") == 2


def test_cli_formula_and_prove_of_a_gmma_tile(cli):
    tile = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, (128,64))"
    code, out, _ = cli("formula", tile, "--names", "((r,R),(c,C))")
    assert code == 0 and "formula: (64*r + 512*R + c) ^ ((r >> 1) << 4) ^ ((R & 1) << 6)" in out
    code, out, _ = cli("prove", "bijective", tile, "--limit", "0")
    assert code == 0 and "verdict: proved (gf2)" in out


def test_upcast_of_a_gmma_atom_keeps_names_and_equals_core():
    from symcute.atoms import smem_layout_atom_bits
    bits = sym.formula(smem_layout_atom_bits("GMMA::Layout_K_SW128_Atom"), ("r", "c"))
    G = sym.upcast(bits, 16)
    assert G.layout == core.upcast(bits.layout, 16)
    assert str(G) == "(64*r + c1) ^ ((r >> 1) << 4)"
    assert sym.downcast(G, 2).layout == core.downcast(G.layout, 2)
    H = sym.upcast(sym.formula(parse_layout(SW343), ("r", "c")), 2)   # an int offset: the swizzle changes
    assert H.layout == core.upcast(parse_layout(SW343), 2)

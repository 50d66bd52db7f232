"""Every number of the seed derivation, out of the symbolic API."""

from symcute import Layout
import symcute.core as core
import symcute.symbolic as sym

from .seed import F_TEXT, G_TEXT, H_TEXT, seed_F


def test_F_formula_in_sub_axis_order():
    F = seed_F()
    assert str(F) == "64*t0 + t1 + 16*wm + 32*v0 + 8*v1 + 256*v2"
    assert F.str_with_zeros() == "64*t0 + t1 + 16*wm + 0*wn + 32*v0 + 8*v1 + 256*v2"
    assert [a.name for a in F.axes] == ["t0", "t1", "wm", "wn", "v0", "v1", "v2"]


def test_F_table_is_the_seeds():
    t = seed_F().table()
    assert t.header == ("sub-axis", "t0", "t1", "wm", "wn", "v0", "v1", "v2")
    assert t.row("shape")[1:] == (4, 8, 2, 2, 2, 2, 2)
    assert t.row("stride")[1:] == (64, 1, 16, 0, 32, 8, 256)
    assert t.row("weight")[1:] == (1, 4, 32, 64, 128, 256, 512)  # the TV weights: tv = t0 + 4*t1 + ... + 512*v2


def test_broadcast_wn():
    F = seed_F()
    assert [a.name for a in sym.broadcast_axes(F)] == ["wn"]
    a, b = sym.witness(F, (0, 4)), sym.witness(F, (64, 4))
    assert (a.index, b.index) == (512, 576)
    assert a.value == b.value == 256
    assert a.digits["v2"] == 1 and b.digits["wn"] == 1 and b.digits["v2"] == 1
    assert "256*v2" in str(a)


def test_right_inverse_over_F_digits():
    F = seed_F()
    G = sym.right_inverse(F)
    assert G.layout == core.right_inverse(F.layout) == Layout.parse(G_TEXT)
    assert str(G) == "4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2"
    assert [a.name for a in G.axes] == ["t1", "v1", "wm", "v0", "t0", "v2"]
    for a in G.axes:  # G's input digits are F's output digits; its coefficients are F's TV weights
        assert a.weight == F.axis(a.name).stride
        assert a.stride == F.axis(a.name).weight
    assert G(256) == 512


def test_with_shape_names_and_correspondence():
    G = sym.right_inverse(seed_F())
    H = sym.with_shape(G, (32, 16), names=("m", "k"))
    assert H.layout == core.right_inverse(seed_F().layout).with_shape(32, 16) == Layout.parse(H_TEXT)
    assert str(H) == "4*m0 + 256*m1 + 32*m2 + 128*k0 + k1 + 512*k2"
    assert H.aliases == {"m0": "t1", "m1": "v1", "m2": "wm", "k0": "v0", "k1": "t0", "k2": "v2"}
    assert H.correspondence().column("is") == ("t1", "v1", "wm", "v0", "t0", "v2")
    # the seed's table of selected TVs: (m,k) -> tv
    assert [H((0, 0)), H((0, 8)), H((0, 9))] == [0, 512, 640]
    assert sum(a.stride * (a.extent - 1) for a in H.axes) == 959  # H's largest output
    # without names, H keeps G's digit names
    assert str(sym.with_shape(G, 32, 16)) == str(G)


def test_upcast_1024_and_512():
    H = sym.with_shape(sym.right_inverse(seed_F()), (32, 16), names=("m", "k"))
    U = sym.upcast(H, 1024)
    assert U.layout == core.upcast(H.layout, 1024) == Layout.parse("((1,1,1),(1,1,1)):((1,1,1),(1,1,1))")
    assert str(U) == "0" and U.axes == ()
    steps = U.steps
    assert steps.column("sub-axis") == ("m0", "m1", "m2", "k0", "k1", "k2")
    assert steps.column("per group") == ("ceil_div(1024,4)=256", "ceil_div(1024,256)=4", "ceil_div(1024,32)=32",
                                         "ceil_div(1024,128)=8", "ceil_div(1024,1)=1024", "ceil_div(1024,512)=2")
    assert steps.column("new shape")[0] == "ceil_div(8,256)=1"
    assert all(s.endswith("=1") for s in steps.column("new shape"))
    U5 = sym.upcast(H, 512)
    assert U5.layout == Layout.parse("((1,1,1),(1,1,2)):((1,1,1),(1,1,1))")
    assert str(U5) == "k2"
    assert U5.steps.column("new shape")[-1] == "ceil_div(2,1)=2"


def test_proofs_of_the_seed():
    F = seed_F()
    G = sym.right_inverse(F)
    p = sym.prove_right_inverse(F, G)
    assert p.verdict == "proved" and p.method == "refinement"
    rows = p.certificate.data["digits"]
    assert [r["name"] for r in rows] == ["t1", "v1", "wm", "v0", "t0", "v2"]
    assert rows[-1]["weight"] * rows[-1]["extent"] == 512
    assert all(r["lhs"] == r["rhs"] == r["weight"] for r in rows)
    q = sym.prove_left_inverse(F, G)
    assert q.verdict == "refuted"
    ce = q.counterexample
    assert ce["index"] == 64 and ce["R(L(x))"] == 0  # the smallest one; the seed's 576 -> 512 is another
    assert G(F(576)) == 512 and G(F(64)) == 0
    inj = sym.is_injective(F)
    assert inj.refuted and inj.counterexample["indices"] == (0, 64)


def test_cute_notation_of_the_seed_matches():
    assert str(seed_F().layout) == F_TEXT

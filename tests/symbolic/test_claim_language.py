"""The claim language (symcute.symbolic.claim): every kind, proved and refuted, in Python, calc and prove."""

import json

import pytest

from symcute import Layout, Swizzle
from symcute.core.composed import ComposedLayout
from symcute.errors import SymcuteError
from symcute.expr import evaluate
import symcute.symbolic as sym
from symcute.symbolic import claim as C
from symcute.symbolic import exact

SW = ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))     # SM80's swizzled 8x64 half tile
TV = Layout(((8, 8), 8), ((1, 64), 8))         # thread (row r, column group c): 8 consecutive columns


def _addr(tv, mem, t, v):
    return mem(tv(t + tv[0].size() * v))


def test_vector_claims_small_and_their_counterexamples():
    p = C.vector(TV, SW, 8).prove()
    assert p.proved
    assert all(_addr(TV, SW, t, v) == _addr(TV, SW, t, 0) + v for t in range(64) for v in range(8))
    p = C.vector(TV, SW, 4, 8).prove()            # groups of 4: the second group starts at 4, not a multiple of 8
    assert p.refuted and "not aligned" in p.reason
    ce = p.counterexample
    assert _addr(TV, SW, ce["thread"], ce["v"]) == ce["value"] and ce["value"] % 8
    column_major = Layout((8, 64), (64, 1))   # the tile index r + 8c at 64r + c
    p = C.vector(Layout((64, 8), (8, 1)), column_major, 8).prove()      # value v steps a row: 8 elements apart
    ce = p.counterexample
    assert p.refuted and _addr(Layout((64, 8), (8, 1)), column_major, ce["thread"], ce["v"]) == ce["value"]
    assert ce["value"] != ce["expected"]


def test_vector_claims_at_2_to_the_40_are_decided_without_enumeration():
    big_tv = Layout(((8, 1 << 33), 8), ((1, 64), 8))
    assert C.vector(big_tv, Layout((8, 1 << 37), (1 << 37, 1)), 8).prove(limit=0).proved     # row major
    p = C.vector(big_tv, Layout((8, 1 << 37), (1, 8)), 8).prove(limit=0)
    assert p.refuted and p.method == "refinement"            # column major: consecutive values are 8 apart
    assert p.counterexample["value"] - p.counterexample["start value"] == 8
    sw = ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 1 << 37), (1 << 37, 1)))
    p = C.vector(Layout(((8, 1 << 33), 8), ((1, 1 << 37 >> 30), 8)), sw, 8).prove(limit=0)
    assert p.verdict in ("proved", "refuted") and p.method in ("gf2", "probe", "z3", "refinement")


def test_forall_named_sub_axes():
    F = sym.formula(Layout(((4, 8), (2, 2)), ((2, 8), (1, 64))), (("t0", "t1"), ("v0", "v1")))
    p = C.forall("t", C.injective(F)).prove()
    assert p.proved and "for every t0, t1" in p.statement
    p = C.forall("t", C.contiguous(F)).prove()          # v1 jumps by 64
    assert p.refuted and p.counterexample["at"] == {"v0": 0, "v1": 1} and p.counterexample["value"] == 64 + \
        F(p.counterexample["block start"]["index"])
    p = C.forall("t", C.aligned(F, 2)).prove()          # thread t0 = 1 starts at 2, t1 = 1 at 8: all even
    assert p.proved
    p = C.forall("t", C.aligned(F, 4)).prove()
    assert p.refuted and F(p.counterexample["index"]) % 4
    G = Layout((4, 4), (1, 0))                           # mode 1 broadcasts: every thread's values collide
    p = C.forall(0, C.injective(G)).prove()
    x, y = p.counterexample["first"]["index"], p.counterexample["second"]["index"]
    assert p.refuted and x != y and G(x) == G(y) and x % 4 == y % 4
    assert C.forall(1, C.injective(G)).prove().proved


def test_forall_at_2_to_the_40():
    F = Layout((1 << 20, 1 << 20), (1 << 20, 1))          # thread t owns the row t: 2^20 consecutive values
    assert C.forall(0, C.contiguous(F)).prove(limit=0).proved
    assert C.forall(0, C.aligned(F, 1 << 20)).prove(limit=0).proved
    p = C.forall(1, C.contiguous(F)).prove(limit=0)
    assert p.refuted and p.counterexample["value"] - p.counterexample["start value"] == 1 << 20
    assert C.forall(0, C.injective(F)).prove(limit=0).proved


def test_sub_domain_claims():
    L = Layout((4, 4), (1, 2))
    assert C.injective(L, 4).prove().proved
    p = C.injective(L, 6).prove()
    assert p.refuted and L(p.counterexample["indices"][0]) == L(p.counterexample["indices"][1])
    assert C.bijective(Layout((4, 4), (1, 4)), None, 8).prove().proved
    assert C.surjective(Layout((4, 4), (1, 4)), 8, 8).prove().proved
    assert C.surjective(Layout((4, 4), (1, 4)), 9, 8).prove().refuted
    assert C.injective(L, Layout(4, 4)).prove().proved                 # on the inputs 0, 4, 8, 12
    big = Layout((3, 1 << 38), (1 << 38, 1))
    assert C.injective(big, 1 << 38).prove(limit=0).proved
    assert C.contiguous(big, 1, 1 << 38).prove(limit=0).refuted        # index 1 is at 2^38
    assert C.equal(big, Layout(1 << 38, 1 << 38 >> 38 << 38), 1).prove().proved
    with pytest.raises(SymcuteError, match="exceeds the size"):
        C.injective(L, 17).prove()


def test_image_claims_through_the_language():
    assert C.disjoint(Layout(4, 2), Layout(4, 2), 2, None).prove().refuted
    assert C.disjoint(Layout(4, 2), ComposedLayout(Swizzle(0, 4, 0), 1, Layout(8, 2))).prove().proved
    assert C.contains(Layout(16, 1), Layout(4, 4)).prove().proved
    p = C.contains(Layout(4, 4), Layout(16, 1)).prove()
    assert p.refuted and p.counterexample["value"] % 4


def test_bad_claims_are_refused():
    with pytest.raises(SymcuteError, match="not per-thread"):
        C.forall("x0", C.surjective(Layout(4, 1), 4))
    with pytest.raises(SymcuteError, match="selects no sub-axis"):
        C.forall("q", C.injective(Layout((4, 4), (1, 4))))
    with pytest.raises(SymcuteError, match="rank-2"):
        C.vector(Layout(8, 1), Layout(8, 1), 2)
    with pytest.raises(SymcuteError, match="not a multiple of the width"):
        C.vector(TV, SW, 16)
    with pytest.raises(SymcuteError, match="positive integer"):
        C.aligned(Layout(4, 1), 0)
    with pytest.raises(SymcuteError, match="positive integer"):
        C.injective(Layout(4, 1), -3)


def test_the_expression_language_states_claims():
    env = {"TV": "((8,8),8):((1,64),8)", "M": "Sw<3,3,3> o 0 o (8,64):(64,1)"}
    p = evaluate("prove(vector(TV, M, 8))", env)
    assert p.proved
    p = evaluate("prove(vector(TV, M, width=4, align=8))", env)
    assert p.refuted
    p = evaluate("prove(forall(t, injective(formula((16,8):(8,1), (t,v)))))")
    assert p.proved and "for every t" in p.statement
    assert evaluate("prove(injective((4,4):(1,2), domain=4))").proved
    assert evaluate("prove(contains(16:1, 4:4))").proved
    assert evaluate("prove(disjoint(4:2, 4:2, domain_a=2))").refuted
    assert str(evaluate("forall(0, contiguous((4,4):(4,1)))")) == "forall(0, contiguous((4,4):(4,1), step=1))"


def test_calc_and_prove_commands(cli):
    code, out, _ = cli("prove", "vector", "((8,8),8):((1,64),8)", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--width", "8")
    assert code == 0 and "verdict: proved" in out
    code, out, _ = cli("prove", "contiguous", "(16,8):(8,1)", "--forall", "1")
    assert code == 1 and "refuted" in out
    code, out, _ = cli("prove", "forall(t, injective(F))", "--let", "F=(16,8):(1,0)", "--name", "F=(t,v)", "--json")
    assert code == 1 and json.loads(out)["verdict"] == "refuted"
    code, out, _ = cli("prove", "injective", "(4,4):(1,2)", "--domain", "4")
    assert code == 0
    code, out, err = cli("prove", "4:2")
    assert code == 2 and "neither a claim keyword" in err and len(err.strip().splitlines()) == 1
    code, out, err = cli("calc", "injective((4,4):(1,2), domian=4)")
    assert code == 2 and "unexpected keyword argument 'domian'" in err
    code, out, err = cli("calc", "injective(domain=4, (4,4):(1,2))")
    assert code == 2 and "positional argument after a keyword" in err


def test_unknown_when_nothing_decides():
    old = exact.set_enabled(False)
    try:
        sw = ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 1 << 27), (1 << 27, 1)))
        tv = Layout(((8, 1 << 24), 8), ((1, 64 * 3), 8))            # threads 3 column groups apart: out of F2
        p = C.forall(0, C.injective(sym.Compose(sw, tv))).prove(limit=1 << 10)
        assert p.verdict == "unknown" and "exhaustive limit" in p.reason
    finally:
        exact.set_enabled(old)
